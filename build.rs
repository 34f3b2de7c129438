//! Build script: links the `git-handoff` binary as a position-dependent executable on Linux.
//!
//! `record` runs on every agent tool call and `recall` at every session start, so start-up is
//! most of what they cost. A position-independent executable makes the dynamic loader apply one
//! relocation per pointer in the binary's read-only data (about 14,000: vtables, string tables)
//! and copy each page it writes, before `main` runs; linked at a fixed address, there are none.
//! Only the final link of the binary changes: every crate is compiled as before, and the test
//! binaries are untouched.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.contains("-linux-gnu") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
