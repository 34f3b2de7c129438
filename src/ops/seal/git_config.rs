//! What git's configuration asks of the seal, read as git would: whether it flushes to disk as by
//! default, writes commits in UTF-8, and stages a sparse checkout.

use crate::git::repo::Repo;

/// Whether the work tree is a sparse checkout (`core.sparseCheckout`).
pub(super) fn sparse_checkout(repo: &Repo) -> bool {
    repo.gix().config_snapshot().boolean("core.sparseCheckout").unwrap_or(false)
}

/// Whether git flushes to disk what it flushes by default: `core.fsync` and
/// `core.fsyncObjectFiles` set nowhere, the command line (`git -c`, which gix does not read)
/// included.
pub(super) fn fsync_as_default(repo: &Repo) -> bool {
    let config = repo.gix().config_snapshot();
    let keys = ["core.fsync", "core.fsyncObjectFiles"];
    let on_command_line = std::env::vars_os().any(|(key, value)| {
        let key = key.to_string_lossy();
        (key == "GIT_CONFIG_PARAMETERS" || key.starts_with("GIT_CONFIG_KEY_"))
            && value.to_string_lossy().to_ascii_lowercase().contains("core.fsync")
    });
    !on_command_line && keys.iter().all(|key| config.string(key).is_none())
}

/// Whether `git commit-tree` writes commits here without an `encoding` header: `i18n.commitEncoding`
/// unset or UTF-8, and no config on git's command line (which gix does not read).
pub(super) fn commits_in_utf8(repo: &Repo) -> bool {
    let config = repo.gix().config_snapshot();
    let utf8 = match config.string("i18n.commitEncoding") {
        None => true,
        Some(value) => value.eq_ignore_ascii_case(b"utf-8") || value.eq_ignore_ascii_case(b"utf8"),
    };
    utf8 && !crate::git::repo::config_on_command_line()
}
