//! The source tree's layers, read from the code: imports point one way only (commands -> operations
//! -> model and agent events -> git access -> utilities), and no file grows past one idea.

use std::path::{Path, PathBuf};

/// Each top-level folder of `src/` and its layer; a module may import only from lower layers and
/// from its own folder. `model` and `agent` share a layer, but `model` (what a handoff is made of)
/// imports nothing of `agent` (what the agent did), so the two never form a cycle.
const LAYERS: [(&str, u8); 7] =
    [("util", 0), ("git", 1), ("model", 2), ("agent", 3), ("ops", 4), ("install", 4), ("cli", 5)];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn layer(name: &str) -> Option<u8> {
    LAYERS.iter().find(|(folder, _)| *folder == name).map(|(_, rank)| *rank)
}

/// The code of a file without its unit tests (tests may reach anywhere).
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

#[test]
fn imports_point_down_the_layers_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut upward = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let Some(own) = rel.components().next().and_then(|c| c.as_os_str().to_str()) else {
            continue;
        };
        let Some(own_rank) = layer(own) else { continue };
        let text = code(file);
        for (at, _) in text.match_indices("crate::") {
            let target: String = text[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let Some(rank) = layer(&target) else { continue };
            if target != own && rank >= own_rank {
                upward.push(format!("{} imports crate::{target}", rel.display()));
            }
        }
    }
    upward.sort();
    upward.dedup();
    assert!(upward.is_empty(), "imports that point up or across a layer:\n{}", upward.join("\n"));
}

#[test]
fn every_source_file_stays_under_500_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let long: Vec<String> = files
        .iter()
        .map(|f| (f, std::fs::read_to_string(f).unwrap().lines().count()))
        .filter(|(_, lines)| *lines > 500)
        .map(|(f, lines)| format!("{} ({lines} lines)", f.display()))
        .collect();
    assert!(long.is_empty(), "split these by idea: {}", long.join(", "));
}
