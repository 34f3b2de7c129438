//! Fitting recall into its lines and characters without losing a tag.
//!
//! A line is a list of items (`Done: a; b [unverified: why]; c`: the first item carries the
//! label). When recall is over its character budget, untagged items are shortened first (cut with
//! `…`), then dropped, then whole untagged lines go; only then are tagged claims shortened, and a
//! tag itself is not cut: `[unverified: ...]` is the one thing the next session must see. The
//! first line (the headline) is cut last.
//!
//! The caps hold whatever a note holds: a tag longer than [`MAX_TAG`] (a note may hold a 1 MB one)
//! is cut to it, and when the tags alone are over the budget the last ones go, counted on a line
//! that says where they all are; a headline still over it is cut.

use crate::model::claims::TAG_PREFIX;

/// No untagged item is cut shorter than this many characters.
const MIN_ITEM: usize = 24;
/// No tagged claim is cut shorter than this (its tag, always whole, follows it).
const MIN_CLAIM: usize = 16;
/// What joins the items of a line.
const SEPARATOR: &str = "; ";
/// The longest tag shown whole; a longer one is cut to this many characters, `…]` at its end.
pub const MAX_TAG: usize = 200;

/// At most `max_lines` lines of at most `max_chars` characters in all (each line counted with its
/// newline), every line on one line, every tag whole.
pub fn fit(lines: Vec<String>, max_lines: usize, max_chars: usize) -> Vec<String> {
    let mut lines: Vec<Vec<String>> = lines
        .iter()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .map(|l| l.split(SEPARATOR).map(cap_tag).collect())
        .collect();
    // Over the line budget: untagged lines go first, then tagged ones (their tags counted), and
    // the goal, the next step and what happened since the note last.
    let mut dropped = 0;
    while lines.len() > max_lines.max(1) {
        let at = last_untagged_line(&lines)
            .or_else(|| (1..lines.len()).rev().find(|&n| !protected(&lines[n])))
            .unwrap_or(lines.len() - 1);
        dropped += lines[at].iter().filter(|i| tagged(i)).count();
        lines.remove(at);
    }
    // Each step runs once over all items with a running total, in this order, so a recall of a
    // note with thousands of items stays linear (cutting one item per pass over all of them,
    // recounting every character each time, took minutes).
    let mut total = total(&lines);
    // The first line (who, when, why, the digest) is cut only when all else fails.
    total = shorten(&mut lines, total, max_chars, false, 1);
    total = drop_untagged_items(&mut lines, total, max_chars);
    while total > max_chars {
        let Some(at) = last_untagged_line(&lines) else { break };
        total -= chars(&lines[at].join(SEPARATOR)) + 1;
        lines.remove(at);
    }
    total = shorten(&mut lines, total, max_chars, true, 0);
    // What is left over budget is tags: the last ones go, counted; only then is the headline (the
    // last check) cut.
    total = drop_tagged_items(&mut lines, total, max_lines.max(1), max_chars, dropped);
    shorten(&mut lines, total, max_chars, false, 0);
    let lines: Vec<String> = lines.into_iter().map(|items| items.join(SEPARATOR)).collect();
    hard_cut(lines, max_chars)
}

/// `item` with its tag cut to [`MAX_TAG`] characters.
fn cap_tag(item: &str) -> String {
    match item.find(TAG_PREFIX) {
        Some(at) if chars(&item[at..]) > MAX_TAG => {
            let kept: String = item[at..].chars().take(MAX_TAG - 2).collect();
            format!("{}{}…]", &item[..at], kept.trim_end())
        }
        _ => item.to_string(),
    }
}

/// The line that stands for the `n` tagged claims that did not fit.
fn not_shown(n: usize) -> String {
    format!("+{n} more [unverified] claims: `git handoff show` lists them all")
}

/// While over `max_chars`, drops the last tagged items (never the headline's), and says how many
/// went on a line of their own, or at the end of the last line when there are `max_lines`. One
/// pass, with a running total: a note may hold tens of thousands of tags.
fn drop_tagged_items(
    lines: &mut Vec<Vec<String>>,
    mut total: usize,
    max_lines: usize,
    max_chars: usize,
    mut dropped: usize,
) -> usize {
    // Room for the count is kept from the first item dropped on.
    let room = |n: usize| if n == 0 { 0 } else { chars(&not_shown(n)) + 2 };
    let mut gone: Vec<Vec<bool>> = lines.iter().map(|items| vec![false; items.len()]).collect();
    'lines: for l in (1..lines.len()).rev() {
        let mut left = lines[l].len();
        for i in (0..lines[l].len()).rev() {
            if total + room(dropped) <= max_chars {
                break 'lines;
            }
            if !tagged(&lines[l][i]) {
                continue;
            }
            gone[l][i] = true;
            // With others left, the item and a separator go; alone, the item and the newline.
            total -= chars(&lines[l][i]) + if left > 1 { SEPARATOR.len() } else { 1 };
            left -= 1;
            dropped += 1;
        }
    }
    if dropped == 0 {
        return total;
    }
    for (items, gone) in lines.iter_mut().zip(&gone) {
        let mut at = 0;
        items.retain(|_| {
            at += 1;
            !gone[at - 1]
        });
    }
    let mut first = true;
    lines.retain(|items| std::mem::replace(&mut first, false) || !items.is_empty());
    let full = lines.len() >= max_lines && lines.len() > 1;
    let pointer = not_shown(dropped);
    total += chars(&pointer) + if full { SEPARATOR.len() } else { 1 };
    match lines.last_mut() {
        Some(last) if full => last.push(pointer),
        _ => lines.push(vec![pointer]),
    }
    total
}

/// The lines cut to `max_chars` characters in all (newlines counted), the last lines first: the
/// last resort, for a headline or a budget too small for anything else.
fn hard_cut(mut lines: Vec<String>, max_chars: usize) -> Vec<String> {
    let mut total: usize = lines.iter().map(|l| chars(l) + 1).sum();
    while total > max_chars && !lines.is_empty() {
        let last = lines.len() - 1;
        let len = chars(&lines[last]);
        let excess = total - max_chars;
        if len < excess || len <= 1 {
            total -= len + 1;
            lines.pop();
            continue;
        }
        let keep = len - excess - 1;
        lines[last] = format!("{}…", lines[last].chars().take(keep).collect::<String>());
        total = total - len + keep + 1;
    }
    lines
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

/// The last line (never the first, the headline, nor a [`protected`] one) that holds no tag.
fn last_untagged_line(lines: &[Vec<String>]) -> Option<usize> {
    (1..lines.len()).rev().find(|&n| !protected(&lines[n]) && !lines[n].iter().any(|i| tagged(i)))
}

/// The lines the next session must always get: the goal, the next step, and what happened since
/// the note (the last check). They are shortened, never dropped.
fn protected(items: &[String]) -> bool {
    let first = items.first().map(String::as_str).unwrap_or_default();
    ["Goal: ", "Next: ", "Since the note: ", "Since the handoff: ", "Ended on an API error: "]
        .iter()
        .any(|p| first.starts_with(p))
}

/// The length of an item's claim (the item without its tag).
fn claim_len(item: &str) -> usize {
    match item.find(TAG_PREFIX) {
        Some(at) => chars(item[..at].trim_end()),
        None => chars(item),
    }
}

/// While over `max_chars`, cuts the longest items that can still be cut (untagged ones, or the
/// claims of tagged ones), in the lines from `from` on, by about the excess each. Returns the
/// new total.
fn shorten(
    lines: &mut [Vec<String>],
    mut total: usize,
    max_chars: usize,
    tags: bool,
    from: usize,
) -> usize {
    if total <= max_chars {
        // Within budget (the usual recall): nothing to cut, and no item need be measured.
        return total;
    }
    let min = if tags { MIN_CLAIM } else { MIN_ITEM };
    let mut candidates: Vec<(usize, usize, usize)> = Vec::new();
    for (l, items) in lines.iter().enumerate().skip(from) {
        for (i, item) in items.iter().enumerate() {
            let len = claim_len(item);
            if tagged(item) == tags && len > min + 1 {
                candidates.push((len, l, i));
            }
        }
    }
    // Longest first; among equals, the last one.
    candidates.sort_unstable_by(|a, b| b.cmp(a));
    for (_, l, i) in candidates {
        if total <= max_chars {
            break;
        }
        let cut = cut(&lines[l][i], total - max_chars, min);
        total = total + chars(&cut) - chars(&lines[l][i]);
        lines[l][i] = cut;
    }
    total
}

/// `item` with its claim cut by about `excess` characters (never below `min`), marked with `…`,
/// its tag whole.
fn cut(item: &str, excess: usize, min: usize) -> String {
    let (claim, tag) = match item.find(TAG_PREFIX) {
        Some(at) => (item[..at].trim_end(), Some(&item[at..])),
        None => (item, None),
    };
    let keep = min.max(chars(claim).saturating_sub(excess + 1));
    let cut: String = claim.chars().take(keep).collect();
    match tag {
        Some(tag) => format!("{}… {tag}", cut.trim_end()),
        None => format!("{}…", cut.trim_end()),
    }
}

/// While over `max_chars`, drops the last untagged items that are not the first of their line
/// (which carries the label). Returns the new total.
fn drop_untagged_items(lines: &mut [Vec<String>], mut total: usize, max_chars: usize) -> usize {
    for items in lines.iter_mut().rev() {
        let mut dropped = vec![false; items.len()];
        for i in (1..items.len()).rev() {
            if total <= max_chars {
                break;
            }
            if !tagged(&items[i]) {
                dropped[i] = true;
                total -= chars(&items[i]) + chars(SEPARATOR);
            }
        }
        let mut index = 0;
        items.retain(|_| {
            index += 1;
            !dropped[index - 1]
        });
        if total <= max_chars {
            break;
        }
    }
    total
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
    fn untagged_lines_go_first_then_tagged_ones_counted_and_the_goal_stays() {
        let lines: Vec<String> = vec![
            "head".into(),
            "Goal: g".into(),
            "Decisions: d".into(),
            "Done: x [unverified: why]".into(),
            "Next: n".into(),
        ];
        let out = fit(lines.clone(), 4, 1200);
        assert_eq!(out, ["head", "Goal: g", "Done: x [unverified: why]", "Next: n"]);
        let out = fit(lines, 3, 1200);
        let pointer = "+1 more [unverified] claims: `git handoff show` lists them all";
        assert_eq!(out, ["head", "Goal: g", &format!("Next: n; {pointer}")]);
    }

    #[test]
    fn tags_over_budget_are_counted_and_the_caps_hold() {
        let tag = format!("[unverified: {}]", "w".repeat(100));
        let items: Vec<String> = (0..12).map(|i| format!("claim {i} {tag}")).collect();
        let lines = vec!["head".to_string(), format!("Done: {}", items.join("; "))];
        let out = fit(lines, 10, 600);
        assert!(size(&out) <= 600, "{} {out:#?}", size(&out));
        let text = out.join("\n");
        assert!(
            text.contains(&tag) && text.contains("more [unverified] claims: `git handoff show`")
        );
        // A tag of a megabyte: cut to its cap, and the caps hold.
        let huge = format!("Done: x [unverified: {}]", "y".repeat(1 << 20));
        let out = fit(vec!["head".into(), huge], 10, 1200);
        assert!(
            size(&out) <= 1200 && out[1].contains("[unverified: yyy") && out[1].ends_with("…]")
        );
        // A budget smaller than anything: cut, never over.
        let out = fit(vec!["a long headline ".repeat(10), format!("Done: c {tag}")], 10, 30);
        assert!(size(&out) <= 30, "{out:?}");
    }
}
