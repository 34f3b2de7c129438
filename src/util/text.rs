//! Small text helpers shared by every layer.

/// The first 12 characters of a commit id, for people (safe on any text: records can come from
/// other machines).
pub fn short_id(id: &str) -> &str {
    match id.char_indices().nth(12) {
        Some((end, _)) => &id[..end],
        None => id,
    }
}
