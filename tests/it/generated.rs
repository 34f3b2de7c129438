//! The committed man pages and completions must be what the code generates now. Set
//! `HANDOFF_REGENERATE=1` to rewrite them after changing the CLI.

use std::path::Path;

fn check(dir: &str, files: Vec<(String, Vec<u8>)>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let regenerate = std::env::var_os("HANDOFF_REGENERATE").is_some();
    if regenerate {
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(&dir).unwrap() {
            std::fs::remove_file(entry.unwrap().path()).unwrap();
        }
    }
    let mut stale = Vec::new();
    for (name, bytes) in &files {
        let path = dir.join(name);
        if regenerate {
            std::fs::write(&path, bytes).unwrap();
            continue;
        }
        let committed = std::fs::read(&path).unwrap_or_default();
        if committed != *bytes {
            let old = String::from_utf8_lossy(&committed);
            let new = String::from_utf8_lossy(bytes);
            let diff = similar::TextDiff::from_lines(old.as_ref(), new.as_ref());
            stale.push(format!(
                "{}:\n{}",
                path.display(),
                diff.unified_diff().context_radius(2).header("committed", "generated")
            ));
        }
    }
    let expected: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !expected.contains(&name.as_str()) {
            stale.push(format!("{}/{name} is no longer generated; remove it", dir.display()));
        }
    }
    assert!(
        stale.is_empty(),
        "generated files are stale; run `HANDOFF_REGENERATE=1 cargo test --test generated` and \
         commit the result:\n{}",
        stale.join("\n")
    );
}

#[test]
fn man_pages_are_current() {
    check("man", git_handoff::api::man_pages());
}

#[test]
fn completions_are_current() {
    check("completions", git_handoff::api::completions());
}
