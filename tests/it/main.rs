//! One integration-test crate (as cargo's own `tests/testsuite`): the tests link gix and the
//! binary's library once, one module per area, sharing the harness in `common`.

mod common;

mod agent_hooks;
mod architecture;
mod branch_truth;
mod change_summary;
mod claims;
mod completions;
mod digest;
mod docs;
mod emergency;
mod generated;
mod hook_managers;
mod hooks;
mod hostile;
mod integrity;
mod json;
mod lifecycle;
mod mcp;
mod note;
mod packs;
mod progress;
mod prompt;
mod recall;
mod record;
mod seal;
mod secrets;
mod skill;
mod snapshot;
mod snapshot_configs;
mod snapshot_diff;
mod snapshot_narrow;
mod snapshot_walk;
mod start;
mod sync;
mod uninstall;
mod unreadable_records;
mod validate;
mod walk;
