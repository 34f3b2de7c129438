//! Build script: two changes to how Linux (glibc) builds link, both for start-up time.
//!
//! `record` runs on every agent tool call and `recall` at every session start, so start-up is
//! most of what they cost.
//! - The `git-handoff` binary is linked position-dependent. A position-independent executable
//!   makes the dynamic loader apply one relocation per pointer in the binary's read-only data
//!   (about 14,000: vtables, string tables) and copy each page it writes, before `main` runs;
//!   linked at a fixed address, there are none. Only the final link of the binary changes.
//! - The unwinder is linked in statically (`libgcc_eh.a`, what `gcc -static-libgcc` uses) instead
//!   of loading `libgcc_s.so.1` at run time: one shared library fewer to map and relocate, and
//!   its constructor, which asks the CPU (`cpuid`, a trap to the hypervisor in a VM) for its
//!   features, never runs. 0.16 ms of each start on a 2-core VM. Skipped when the C toolchain
//!   has no `libgcc_eh.a`, which then leaves the link as it was.
//!
//! A static build is left to rustc: `-no-pie` at the end of its link line made that binary crash
//! at start. Alone, `-C target-feature=+crt-static` links a static PIE, which relocates itself
//! at every start as the loader relocates a PIE; with `-C relocation-model=static` too (what
//! `packaging/build.sh` passes), rustc links it at a fixed address. It needs no dynamic loader
//! at all and starts faster still: as a static PIE, `--version` took 0.64 ms against this
//! build's 0.73 (medians of 201 alternated runs on a 2-core VM); at a fixed address, recall took
//! 1.56-1.73 ms against the static PIE's 1.78-2.04, with 155 page faults against 231 (`perf stat
//! -r 400`, three rounds).

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    let target = std::env::var("TARGET").unwrap_or_default();
    if !target.contains("-linux-gnu") {
        return;
    }
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    if features.split(',').any(|f| f == "crt-static") {
        // Static: rustc links it whole, loader and unwinder included.
        return;
    }
    println!("cargo:rustc-link-arg-bins=-no-pie");
    if has_static_unwinder() {
        // Not bundled into the library: passed to the final link, before std's `-lgcc_s`, which
        // `--as-needed` then drops.
        println!("cargo:rustc-link-lib=static:-bundle=gcc_eh");
    }
}

/// Whether the C compiler rustc links with finds `libgcc_eh.a` (`-print-file-name` prints a
/// full path when it does, the bare name when it does not).
fn has_static_unwinder() -> bool {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    Command::new(cc)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .is_some_and(|path| {
            let path = std::path::Path::new(path.trim());
            path.is_absolute() && path.exists()
        })
}
