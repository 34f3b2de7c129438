//! Build script: three changes to how Linux (glibc) builds link, all for start-up time.
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
//! - The functions the start-up commands run (`link/hot-text.txt`, written by
//!   `bench/hot-text.sh`) are put first in the code, side by side. Where the linker leaves them,
//!   scattered over 7 MB, recall touched 75 of its 114 stretches of 64 KB, a page fault each;
//!   side by side they fill about thirty (the patterns take in every instance of a listed
//!   generic function): recall 123 page faults against 155 as packaged. It is a linker script
//!   that only adds an output section before `.text` (`INSERT BEFORE`), which lld and GNU ld take
//!   and gold and mold refuse: so it is passed only where rustc links with its own lld (x86_64
//!   Linux, rustc 1.90 on, where it ships it) and nothing names or preloads another linker
//!   (`mold -run`). `HANDOFF_HOT_TEXT=off` leaves it out, for a linker chosen where this script
//!   cannot see it (`cargo rustc -- -C link-arg=-fuse-ld=gold`).
//!
//! A static build is left to rustc (but for the hot text): `-no-pie` at the end of its link line
//! made that binary crash at start. Alone, `-C target-feature=+crt-static` links a static PIE,
//! which relocates itself at every start as the loader relocates a PIE; with `-C
//! relocation-model=static` too (what `packaging/build.sh` passes), rustc links it at a fixed
//! address. It needs no dynamic loader at all and starts faster still: as a static PIE,
//! `--version` took 0.64 ms against this build's 0.73 (medians of 201 alternated runs on a 2-core
//! VM); at a fixed address, recall took 1.56-1.73 ms against the static PIE's 1.78-2.04, with
//! 155 page faults against 231 (`perf stat -r 400`, three rounds).

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CC");
    for key in ["HANDOFF_HOT_TEXT", "MOLD_PATH", "LD_PRELOAD"] {
        println!("cargo:rerun-if-env-changed={key}");
    }
    println!("cargo:rerun-if-changed=link/hot-text.txt");
    let target = std::env::var("TARGET").unwrap_or_default();
    if !target.contains("-linux-gnu") {
        return;
    }
    if target == "x86_64-unknown-linux-gnu" && links_with_rust_lld() {
        hot_text_first();
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

/// Whether rustc links with its own lld, which takes the hot-text script: rustc 1.90 and later
/// do on x86_64 Linux where they ship it, unless a linker is named (`target.<triple>.linker`,
/// which cargo passes on as `RUSTC_LINKER`, or `-C linker=`, `-fuse-ld=`, `-C
/// link-self-contained` in the flags).
fn links_with_rust_lld() -> bool {
    let off = ["off", "0", "false", "no"];
    if std::env::var("HANDOFF_HOT_TEXT").is_ok_and(|v| off.contains(&v.as_str()))
        || std::env::var_os("RUSTC_LINKER").is_some()
        // `mold -run cargo build`: mold's preloaded wrapper runs mold in place of lld.
        || std::env::var_os("MOLD_PATH").is_some()
        || std::env::var_os("LD_PRELOAD").is_some_and(|v| !v.is_empty())
    {
        return false;
    }
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    if ["linker", "fuse-ld", "link-self-contained"].iter().any(|named| flags.contains(named)) {
        return false;
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let ask = |what: &str| {
        let out = Command::new(&rustc).arg(what).output().ok();
        out.and_then(|out| String::from_utf8(out.stdout).ok()).unwrap_or_default()
    };
    // `rustc 1.95.0 (59807616e 2026-04-14)`
    let version = ask("--version");
    let minor = version.split_whitespace().nth(1).and_then(|v| v.split('.').nth(1));
    if minor.and_then(|m| m.parse::<u32>().ok()).is_none_or(|m| m < 90) {
        return false;
    }
    // A distribution's rustc may come without its lld, and then links with the system's linker.
    let sysroot = ask("--print=sysroot");
    let lld = "lib/rustlib/x86_64-unknown-linux-gnu/bin/gcc-ld/ld.lld";
    std::path::Path::new(sysroot.trim()).join(lld).exists()
}

/// Passes the linker a script that puts the functions of `link/hot-text.txt` (mangled names
/// without their hash, `*` for the rest) first: their sections, `.text.<name>`, or
/// `.text.unlikely.<name>` for what LLVM took as cold.
fn hot_text_first() {
    let Ok(list) = std::fs::read_to_string("link/hot-text.txt") else { return };
    let plain = |p: &str| p.bytes().all(|b| b.is_ascii_alphanumeric() || b"_$.*".contains(&b));
    let mut script = String::from("SECTIONS {\n  .text.hot : {\n");
    for name in list.lines().filter(|l| !l.is_empty() && !l.starts_with('#') && plain(l)) {
        script.push_str(&format!("    *(.text.{name} .text.unlikely.{name})\n"));
    }
    script.push_str("  }\n} INSERT BEFORE .text;\n");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let path = out.join("hot-text.ld");
    if std::fs::write(&path, script).is_ok() {
        // The driver's own `-T`, the path a word of its own: `-Wl,` would cut it at a comma.
        println!("cargo:rustc-link-arg-bins=-T");
        println!("cargo:rustc-link-arg-bins={}", path.display());
    }
}
