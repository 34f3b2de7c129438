//! Where a key of `.handoff.toml` is given, for errors that point at its line.

/// The 1-based line of `.handoff.toml`'s `text` where the dotted `key` (`progress.write`) is
/// given; 1 where it cannot be found.
pub fn key_line(text: &str, key: &str) -> usize {
    let Ok(root) = toml::de::DeTable::parse(text) else { return 1 };
    let mut table = root.get_ref();
    let mut names = key.split('.').peekable();
    while let Some(name) = names.next() {
        let Some((found, value)) = table.iter().find(|(k, _)| k.get_ref().as_ref() == name) else {
            return 1;
        };
        if names.peek().is_none() {
            return text[..found.span().start.min(text.len())].matches('\n').count() + 1;
        }
        match value.get_ref() {
            toml::de::DeValue::Table(inner) => table = inner,
            _ => return 1,
        }
    }
    1
}
