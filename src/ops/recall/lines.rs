//! The recall's lines: the headline, the lines of a full recall and of a fresh start, the
//! digest's files, fitted to the line and character budget, and the rules block.

use crate::store::records::{Record, RecordKind};

use super::budget;

/// How much recall may say.
pub struct Limits<'a> {
    pub prefix: &'a str,
    pub max_lines: usize,
    pub max_chars: usize,
}

/// Who, when, why, and the digest, as `show` heads the handoff:
/// `issue #179 · 2026-11-30 04:10 UTC · token_soft_threshold · 1 file edited · ...`.
pub fn headline(record: &Record) -> String {
    let when = match crate::util::time::parse(&record.written_at) {
        Ok(ts) => ts.strftime("%Y-%m-%d %H:%M UTC").to_string(),
        Err(_) => record.written_at.clone(),
    };
    let mut parts = what(record);
    parts.insert(record.issue.is_some() as usize, when);
    parts.join(" · ")
}

/// Recall's first line, in seed 002's words: `Last handoff (Nov 30, 4:10 AM UTC, session
/// 49257167): issue #179 · token_soft_threshold · 1 file edited · last `cargo test` failed ·
/// 12 tool calls, 3 errors`: when and in which session, then who, why, and the digest.
pub fn first_line(record: &Record) -> String {
    let mut when_and_who = vec![when(&record.written_at)];
    if let Some(session) = session(record) {
        when_and_who.push(format!("session {session}"));
    }
    format!("Last handoff ({}): {}", when_and_who.join(", "), what(record).join(" · "))
}

/// The issue, the reason, the kind unless an agent's, and the digest line.
fn what(record: &Record) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(issue) = record.issue {
        parts.push(format!("issue #{issue}"));
    }
    if let Some(reason) = &record.reason {
        parts.push(reason.clone());
    }
    if record.kind != RecordKind::Agent {
        parts.push(format!("{} handoff", record.kind));
    }
    if let Some(line) = &record.digest_line {
        parts.push(line.clone());
    }
    parts
}

/// `Since the note: ...`'s neighbour when the session ended abruptly: `Ended on an API error:
/// rate_limit (429: Rate limit exceeded)`, from the record's digest. Kept as the since line is.
fn ended_on_error(record: &Record) -> Option<String> {
    let ended = record.digest.as_ref()?.get("ended_on_error")?.as_table()?;
    let kind = ended.get("kind")?.as_str()?;
    Some(match ended.get("message").and_then(|m| m.as_str()) {
        Some(message) => format!("Ended on an API error: {kind} ({message})"),
        None => format!("Ended on an API error: {kind}"),
    })
}

/// The session the handoff was written in, from its digest: a runtime's UUID by its first eight
/// characters, as the seed shows it.
fn session(record: &Record) -> Option<String> {
    let id = record.digest.as_ref()?.get("session_id")?.as_str()?.trim();
    let uuid = id.len() == 36 && id.bytes().filter(|&b| b == b'-').count() == 4;
    let id: String =
        if uuid { id.chars().take(8).collect() } else { id.chars().take(40).collect() };
    (!id.is_empty() && !id.contains(char::is_control)).then_some(id)
}

/// The full recall (after compact, resume, clear or fork): at most `max_lines` lines.
pub fn full(record: &Record, req: &Limits<'_>, pointers: &[String]) -> Vec<String> {
    let mut lines = vec![format!("{} {}", req.prefix, first_line(record))];
    if let Some(ended) = ended_on_error(record) {
        lines.push(ended);
    }
    if let Some(summary) = &record.summary {
        if let Some(goal) = &summary.goal {
            lines.push(format!("Goal: {goal}"));
        }
        // Tags by their item, so a summary of thousands of items is matched in one pass.
        let tags: std::collections::HashMap<&str, &str> =
            record.tags.iter().rev().map(|t| (t.item.as_str(), t.why.as_str())).collect();
        let done: Vec<String> = summary
            .done
            .iter()
            .map(|item| match tags.get(item.as_str()) {
                Some(why) if !item.contains("[unverified:") => {
                    format!("{item} [unverified: {why}]")
                }
                _ => item.clone(),
            })
            .collect();
        for (label, items) in [
            ("Done", &done),
            ("In progress", &summary.in_progress),
            ("Decisions", &summary.decisions),
            ("Next", &summary.next),
        ] {
            if !items.is_empty() {
                lines.push(format!("{label}: {}", items.join("; ")));
            }
        }
    }
    // Every tag is said somewhere: those no line above carries (files touched, or every tag when
    // the record has no summary) get a line of their own.
    // An item said whole is found in a set; only in a small recall is a tag also looked for
    // inside the text (a search per tag through a long text would make recall quadratic).
    let said = squeeze(&lines.join(" "));
    let items: std::collections::HashSet<String> = lines
        .iter()
        .flat_map(|l| l.split("; "))
        .flat_map(|i| [i, i.split_once(": ").map_or(i, |(_, rest)| rest)])
        .map(squeeze)
        .collect();
    let unsaid: Vec<String> = record
        .tags
        .iter()
        .map(|t| format!("{} [unverified: {}]", t.item, t.why))
        .map(|t| squeeze(&t))
        .filter(|t| !items.contains(t) && (said.len() > SEARCH_LIMIT || !said.contains(t.as_str())))
        .collect();
    if !unsaid.is_empty() {
        lines.push(format!("Unverified: {}", unsaid.join("; ")));
    }
    if !record.progress.is_empty() {
        lines.push(format!("Progress: {}", progress_line(record)));
    }
    if let Some(seal) = &record.seal_commit {
        lines.push(sealed_line(seal));
    }
    if let Some(files) = files_line(record) {
        lines.push(files);
    }
    lines.extend(pointers.iter().cloned());
    fit(lines, req.max_lines, req.max_chars)
}

/// Up to this size the recall text is searched for each tag it might already say.
const SEARCH_LIMIT: usize = 64 << 10;

/// The text with every run of whitespace made one space.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The line that says the leftover work was sealed, and where.
fn sealed_line(seal: &str) -> String {
    let short = crate::util::text::short_id(seal);
    format!("Sealed: the leftover work is committed in {short} (`git show --stat {short}`)")
}

/// The one line on a fresh start: the first line of the recall itself (seed 002: a fresh session
/// gets that line), then where the rest is. `tool`: the session can call the `handoff_recall`
/// agent tool (git-handoff's MCP server is registered for it), which the line names first.
pub fn startup(record: &Record, prefix: &str, tool: bool) -> String {
    let sealed = match &record.seal_commit {
        Some(seal) => {
            format!(" · leftover work sealed in {}", crate::util::text::short_id(seal))
        }
        None => String::new(),
    };
    let how = if tool {
        "The whole handoff: call the `handoff_recall` tool (source: resume), or \
         `git handoff recall --source resume`; `git handoff show` for a human."
    } else {
        "The whole handoff: `git handoff recall --source resume`; `git handoff show` for a human."
    };
    format!("{prefix} {}{sealed}. {how}", first_line(record))
}

/// How many file names recall gives for a digest-only handoff.
const RECALL_FILES: usize = 10;

/// The files a digest-only handoff's digest names (`files_edited`): such a handoff exists so the
/// next session at least knows which files changed.
pub fn digest_files(record: &Record) -> Vec<String> {
    let files = record.digest.as_ref().and_then(|d| d.get("files_edited"));
    let files = files.and_then(toml::Value::as_array).map(Vec::as_slice).unwrap_or_default();
    files.iter().filter_map(toml::Value::as_str).map(str::to_string).collect()
}

/// `Files edited: a, b (+N more)` for a digest-only handoff, which has no summary to say it.
fn files_line(record: &Record) -> Option<String> {
    if record.kind != RecordKind::Digest {
        return None;
    }
    let files = digest_files(record);
    let (kept, more) = crate::model::markdown::capped(&files, RECALL_FILES);
    (!kept.is_empty()).then(|| {
        let more = more.map(|m| format!(" ({m})")).unwrap_or_default();
        format!("Files edited: {}{more}", kept.join(", "))
    })
}

fn progress_line(record: &Record) -> String {
    let items: Vec<(&str, &str)> =
        record.progress.iter().map(|p| (p.id.as_str(), p.status.as_str())).collect();
    let tasks = record.progress.iter().all(|p| p.id.parse::<u64>().is_ok());
    crate::agent::progress::compact_line(if tasks { "tasks" } else { "findings" }, &items)
}

/// `Nov 30, 4:10 AM UTC` (seed 002's form) from an RFC 3339 time, or the text as it is.
fn when(written_at: &str) -> String {
    match crate::util::time::parse(written_at) {
        Ok(ts) => ts.strftime("%b %-d, %-I:%M %p UTC").to_string(),
        Err(_) => written_at.to_string(),
    }
}

/// Keeps at most `max_lines` lines, each on one line, within `max_chars` characters: untagged
/// items are shortened or dropped first, and an `[unverified: ...]` tag is cut last.
pub fn fit(lines: Vec<String>, max_lines: usize, max_chars: usize) -> Vec<String> {
    budget::fit(lines, max_lines, max_chars)
}

/// The project rules block: `Rules:` then the file, capped. Returns the block and, when it was cut,
/// the warning to print.
pub fn rules_block(
    name: &str,
    text: &str,
    max_lines: usize,
    max_chars: usize,
) -> (String, Option<String>) {
    let total_lines = text.lines().count();
    let total_chars = text.chars().count();
    let mut kept = String::new();
    for line in text.lines().take(max_lines) {
        if kept.chars().count() + line.chars().count() + 1 > max_chars {
            let room = max_chars.saturating_sub(kept.chars().count());
            kept.extend(line.chars().take(room));
            break;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    let cut = total_lines > max_lines || total_chars > max_chars;
    let mut block = format!("Rules:\n{}", kept.trim_end_matches('\n'));
    let warning = cut.then(|| {
        block.push_str(&format!(
            "\n(rules cut at {max_lines} lines / {max_chars} characters; read {name} for the rest)"
        ));
        format!(
            "{name} has {total_lines} lines and {total_chars} characters; recall includes the \
             first {max_lines} lines / {max_chars} characters: shorten it so agents see all of it"
        )
    });
    (block, warning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_over_the_cap_warn() {
        let text: String = (0..60).map(|i| format!("rule {i}\n")).collect();
        let (block, warning) = rules_block(".agent/rules.md", &text, 40, 2000);
        assert!(block.starts_with("Rules:\nrule 0\n"));
        assert!(block.contains("rule 39\n(rules cut"));
        assert!(!block.contains("rule 40\n"));
        assert!(warning.unwrap().contains("60 lines"));
        let (block, warning) = rules_block("r", "one\ntwo\n", 40, 2000);
        assert_eq!(block, "Rules:\none\ntwo");
        assert!(warning.is_none());
    }
}
