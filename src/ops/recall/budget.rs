//! Fitting recall into its lines and characters without losing a tag.
//!
//! A line is a list of items (`Done: a; b [unverified: why]; c`: the first item carries the
//! label). When recall is over its character budget, untagged items are shortened first (cut with
//! `…`), then dropped, then whole untagged lines go; only then are tagged claims shortened, and a
//! tag itself is never cut: `[unverified: ...]` is the one thing the next session must see. The
//! first line (the headline) is cut last.

use crate::model::claims::TAG_PREFIX;

/// No untagged item is cut shorter than this many characters.
const MIN_ITEM: usize = 24;
/// No tagged claim is cut shorter than this (its tag, always whole, follows it).
const MIN_CLAIM: usize = 16;
/// What joins the items of a line.
const SEPARATOR: &str = "; ";

/// At most `max_lines` lines of at most `max_chars` characters in all (each line counted with its
/// newline), every line on one line, every tag whole.
pub fn fit(lines: Vec<String>, max_lines: usize, max_chars: usize) -> Vec<String> {
    let mut lines: Vec<Vec<String>> = lines
        .iter()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .map(|l| l.split(SEPARATOR).map(str::to_string).collect())
        .collect();
    while lines.len() > max_lines.max(1) {
        let at = last_untagged_line(&lines).unwrap_or(lines.len() - 1);
        lines.remove(at);
    }
    while total(&lines) > max_chars {
        let excess = total(&lines) - max_chars;
        // The first line (who, when, why, the digest) is cut only when all else fails.
        if !shorten(&mut lines, excess, false, 1)
            && !drop_untagged_item(&mut lines)
            && !drop_untagged_line(&mut lines)
            && !shorten(&mut lines, excess, true, 0)
            && !shorten(&mut lines, excess, false, 0)
        {
            break; // what is left is tags and the shortest items: over budget beats a lost tag
        }
    }
    lines.into_iter().map(|items| items.join(SEPARATOR)).collect()
}

fn tagged(item: &str) -> bool {
    item.contains(TAG_PREFIX)
}

fn total(lines: &[Vec<String>]) -> usize {
    lines.iter().map(|items| chars(&items.join(SEPARATOR)) + 1).sum()
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

/// The last line (never the first, the headline) that holds no tag.
fn last_untagged_line(lines: &[Vec<String>]) -> Option<usize> {
    (1..lines.len()).rev().find(|&n| !lines[n].iter().any(|i| tagged(i)))
}

/// Cuts the longest item that can still be cut (untagged ones, or the claims of tagged ones) by
/// about `excess` characters, looking at the lines from `from` on. False when none can.
fn shorten(lines: &mut [Vec<String>], excess: usize, tags: bool, from: usize) -> bool {
    let claim_len = |item: &String| match item.find(TAG_PREFIX) {
        Some(at) => chars(item[..at].trim_end()),
        None => chars(item),
    };
    let min = if tags { MIN_CLAIM } else { MIN_ITEM };
    let longest = lines
        .iter()
        .enumerate()
        .skip(from)
        .flat_map(|(l, items)| items.iter().enumerate().map(move |(i, item)| (l, i, item)))
        .filter(|(_, _, item)| tagged(item) == tags && claim_len(item) > min + 1)
        .max_by_key(|(_, _, item)| claim_len(item))
        .map(|(l, i, _)| (l, i));
    let Some((l, i)) = longest else { return false };
    let item = &lines[l][i];
    let (claim, tag) = match item.find(TAG_PREFIX) {
        Some(at) => (item[..at].trim_end(), Some(&item[at..])),
        None => (item.as_str(), None),
    };
    let keep = min.max(chars(claim).saturating_sub(excess + 1));
    let cut: String = claim.chars().take(keep).collect();
    lines[l][i] = match tag {
        Some(tag) => format!("{}… {tag}", cut.trim_end()),
        None => format!("{}…", cut.trim_end()),
    };
    true
}

/// Drops the last untagged item that is not the first of its line (which carries the label).
fn drop_untagged_item(lines: &mut [Vec<String>]) -> bool {
    for items in lines.iter_mut().rev() {
        if let Some(at) = (1..items.len()).rev().find(|&i| !tagged(&items[i])) {
            items.remove(at);
            return true;
        }
    }
    false
}

fn drop_untagged_line(lines: &mut Vec<Vec<String>>) -> bool {
    match last_untagged_line(lines) {
        Some(at) => {
            lines.remove(at);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(lines: &[String]) -> usize {
        lines.iter().map(|l| l.chars().count() + 1).sum()
    }

    #[test]
    fn caps_lines_and_characters() {
        let lines: Vec<String> = (0..14).map(|i| format!("line {i} {}", "x".repeat(300))).collect();
        let out = fit(lines, 10, 1200);
        assert_eq!(out.len(), 10);
        assert!(size(&out) <= 1200, "{}", size(&out));
        assert!(out.iter().all(|l| l.starts_with("line ")));
    }

    #[test]
    fn a_long_tagged_item_keeps_its_tag_and_untagged_ones_go_first() {
        let tag = "[unverified: last `cargo test` failed]";
        let lines = vec![
            "Handoff recall: issue #7 · 2026-11-30 04:10 UTC".to_string(),
            format!(
                "Done: {} {tag}; {}",
                "All tests pass now ".repeat(30),
                "Refactored ".repeat(40)
            ),
            format!("Next: {}", "a very long next step ".repeat(40)),
            format!("Unverified: src/x.rs [unverified: no edit to src/x.rs in the event log]"),
        ];
        let out = fit(lines, 10, 400);
        assert!(size(&out) <= 400, "{} {out:#?}", size(&out));
        let text = out.join("\n");
        assert!(text.contains(tag), "{text}");
        assert!(text.contains("[unverified: no edit to src/x.rs in the event log]"), "{text}");
        assert!(text.starts_with("Handoff recall: issue #7"), "{text}");
    }

    #[test]
    fn lines_without_tags_are_dropped_before_tagged_ones() {
        let lines: Vec<String> = vec![
            "head".into(),
            "Goal: g".into(),
            "Done: x [unverified: why]".into(),
            "Next: n".into(),
        ];
        let out = fit(lines, 2, 1200);
        assert_eq!(out, ["head", "Done: x [unverified: why]"]);
    }

    #[test]
    fn tags_alone_over_budget_stay_whole() {
        let tag = format!("[unverified: {}]", "w".repeat(100));
        let out = fit(vec!["head".into(), format!("Done: claim {tag}")], 10, 50);
        assert!(out[1].ends_with(&tag), "{out:?}");
    }
}
