//! One integration-test crate (as cargo's own `tests/testsuite`): the tests link gix and the
//! binary's library once, one module per area, sharing the harness in `common`.

mod common;

/// The tests' threads: twice the cores unless `RUST_TEST_THREADS` or `--test-threads` says. Most
/// tests wait: on the git and git-handoff processes they start, on the second git's racy-clean
/// rules need between writing a file and trusting its index entry, on a lock another writer holds,
/// on a local server. With one thread per core a 2-core machine sat a third idle (the suite, two
/// cores: 112 s on 2 threads, 94 s on 3, 88 s on 4).
#[cfg(target_os = "linux")]
mod threads {
    /// Run by the loader before `main`, where libtest reads `RUST_TEST_THREADS`.
    #[used]
    #[unsafe(link_section = ".init_array")]
    static SET: extern "C" fn() = set;

    extern "C" fn set() {
        if std::env::var_os("RUST_TEST_THREADS").is_none() {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            // SAFETY: before `main` no other thread exists to read or write the environment.
            unsafe { std::env::set_var("RUST_TEST_THREADS", (2 * cores).to_string()) };
        }
    }
}

mod abrupt_end;
mod agent_hooks;
mod architecture;
mod branch_truth;
mod change_summary;
mod claims;
mod claims_corpus;
mod codex;
mod completions;
mod config_fallback;
mod copilot;
mod digest;
mod docs;
mod emergency;
mod fuzz_inputs;
mod gemini;
mod generated;
mod hook_managers;
mod hooks;
mod hostile;
mod hostile_io;
mod hostile_output;
mod integrity;
mod json;
mod kills;
mod kills_resume;
mod lifecycle;
mod mcp;
mod note;
mod opencode;
mod packs;
mod progress;
mod prompt;
mod recall;
mod record;
mod seal;
mod seal_layouts;
mod secret_channels;
mod secret_filters;
mod secrets;
mod seeds;
mod seeds_three;
mod sessions;
mod skill;
mod snapshot;
mod snapshot_configs;
mod snapshot_diff;
mod snapshot_git_untracked;
mod snapshot_kept_lines;
mod snapshot_narrow;
mod snapshot_walk;
mod start;
mod sync;
mod sync_transports;
mod uninstall;
mod unreadable_records;
mod validate;
mod walk;
