//! Checking a note on its own: the title, the header fields and their values, the sections. Every
//! flaw is a [`Problem`] with its line and how to mend it; which commit the note sits in is the
//! validator's business.

use crate::model::config::Config;

use super::{Field, HEADER_FIELDS, Note, Problem, Section, cut, is_full_hex, parse_issue};

impl Note {
    /// Every problem of the note on its own: title, header fields and their values, sections.
    /// `file_issue` is the issue named by the note's file name, when known. Layout (which commit
    /// the note sits in) is the validator's business.
    pub fn check(&self, config: &Config, file_issue: Option<u64>) -> Vec<Problem> {
        let mut problems = Vec::new();
        self.check_title(&mut problems);
        self.check_header_layout(&mut problems);
        self.check_values(config, file_issue, &mut problems);
        self.check_sections(&mut problems);
        problems.sort_by_key(|p| p.line);
        problems
    }

    fn check_title(&self, problems: &mut Vec<Problem>) {
        let mend = "start the note with the title `# Handoff note: issue #N` (N the issue number)";
        match &self.title {
            None => {
                let what = match self.line(1) {
                    None => "the note is empty".to_string(),
                    Some(text) => format!("no title: line 1 is {:?}", cut(text)),
                };
                problems.push(Problem::new(1, what, mend));
            }
            Some(title) if title.issue.is_none() => problems.push(Problem::new(
                title.line,
                format!("the title {:?} is not `# Handoff note: issue #N`", cut(&title.text)),
                mend,
            )),
            Some(_) => {}
        }
        if self.title.is_some() && self.line(2).is_some_and(|l| !l.trim().is_empty()) {
            problems.push(Problem::new(
                2,
                "line 2 is not blank",
                "leave one blank line between the title and the header fields",
            ));
        }
    }

    fn check_header_layout(&self, problems: &mut Vec<Problem>) {
        let order = HEADER_FIELDS.join(", ");
        let mut expected_line = 3;
        for name in HEADER_FIELDS {
            let found: Vec<&Field> = self.fields.iter().filter(|f| f.name == name).collect();
            match found.as_slice() {
                [] => problems.push(Problem::new(
                    expected_line.min(self.lines.len().max(1)),
                    format!("header field `{name}` is missing"),
                    format!("add `{name}: ...` on line {expected_line} (the header is {order})"),
                )),
                [first, rest @ ..] => {
                    expected_line = first.line + 1;
                    for dup in rest {
                        problems.push(Problem::new(
                            dup.line,
                            format!(
                                "header field `{name}` is given twice (lines {} and {})",
                                first.line, dup.line
                            ),
                            "keep one of them",
                        ));
                    }
                }
            }
        }
        // Out of order: a field whose place in the header list is before a field above it.
        let mut highest: Option<(usize, &Field)> = None;
        let mut disordered = false;
        for field in &self.fields {
            let Some(rank) = HEADER_FIELDS.iter().position(|n| *n == field.name) else { continue };
            match highest {
                Some((top, above)) if rank < top => {
                    disordered = true;
                    problems.push(Problem::new(
                        field.line,
                        format!(
                            "header field `{}` is out of order (it comes after `{}`)",
                            field.name, above.name
                        ),
                        format!("put the header fields in this order: {order}"),
                    ));
                }
                Some((top, _)) if rank == top => {}
                _ => highest = Some((rank, field)),
            }
        }
        let complete = HEADER_FIELDS.iter().all(|n| self.fields.iter().any(|f| f.name == *n));
        if complete && !disordered && self.fields.len() == 4 {
            let lines: Vec<usize> = self.fields.iter().map(|f| f.line).collect();
            if lines != [3, 4, 5, 6] && self.title.is_some() {
                problems.push(Problem::new(
                    lines[0],
                    format!(
                        "the header fields are on lines {}, not 3 to 6",
                        lines.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
                    ),
                    "write the title, one blank line, then the four fields on consecutive lines",
                ));
            }
        }
    }

    fn check_values(&self, config: &Config, file_issue: Option<u64>, out: &mut Vec<Problem>) {
        let title_issue = self.title.as_ref().and_then(|t| t.issue);
        if let Some(field) = self.field("issue") {
            match parse_issue(&field.value) {
                None => out.push(Problem::new(
                    field.line,
                    format!("issue {:?} is not an issue number", cut(&field.value)),
                    "write the issue number, like `issue: 179`",
                )),
                Some(issue) => {
                    if let Some(title) = title_issue.filter(|t| *t != issue) {
                        out.push(Problem::new(
                            field.line,
                            format!("issue {issue} does not match the title's issue #{title}"),
                            "make the title and the issue field name the same issue",
                        ));
                    }
                    if let Some(file) = file_issue.filter(|f| *f != issue) {
                        out.push(Problem::new(
                            field.line,
                            format!("issue {issue} does not match the file name {file}.md"),
                            format!("name the file {issue}.md or set `issue: {file}`"),
                        ));
                    }
                }
            }
        }
        if let Some(field) = self.field("started_at")
            && field.value.parse::<jiff::Timestamp>().is_err()
        {
            out.push(Problem::new(
                field.line,
                format!("started_at {:?} is not an RFC 3339 time", cut(&field.value)),
                "write it like 2026-11-30T03:48:52Z (the attempt's start, from `git handoff snapshot`)",
            ));
        }
        if let Some(field) = self.field("reason")
            && !config.allows_reason(&field.value)
        {
            out.push(Problem::new(
                field.line,
                format!("reason {:?} is not an allowed reason", cut(&field.value)),
                format!(
                    "use one of: {} (or add it to `reasons` in .handoff.toml)",
                    config.all_reasons().join(", ")
                ),
            ));
        }
        if let Some(field) = self.field("last_work_commit")
            && !is_full_hex(&field.value)
        {
            out.push(Problem::new(
                field.line,
                format!("last_work_commit {:?} is not a full commit id", cut(&field.value)),
                "write the full 40-hex id of the last work commit (`git rev-parse HEAD` before \
                 committing the note)",
            ));
        }
    }

    fn check_sections(&self, problems: &mut Vec<Problem>) {
        let kind = self.kind();
        let required = kind.sections();
        let list = required.join(", ");
        let end = self.lines.len().max(1);
        let mut highest: Option<(usize, &Section)> = None;
        for section in &self.sections {
            let Some(rank) = required.iter().position(|n| *n == section.name) else { continue };
            match highest {
                Some((top, above)) if rank < top => problems.push(Problem::new(
                    section.line,
                    format!(
                        "section `## {}` is out of order (it comes after `## {}`)",
                        section.name, above.name
                    ),
                    format!("an {} note has the sections {list}, in that order", kind.as_str()),
                )),
                Some((top, above)) if rank == top => problems.push(Problem::new(
                    section.line,
                    format!(
                        "section `## {}` is given twice (lines {} and {})",
                        section.name, above.line, section.line
                    ),
                    "merge the two into one section",
                )),
                _ => highest = Some((rank, section)),
            }
        }
        for (rank, name) in required.iter().enumerate() {
            if self.sections.iter().any(|s| s.name == *name) {
                continue;
            }
            // Report at the next required section present, else at the end.
            let line = required[rank + 1..]
                .iter()
                .find_map(|next| self.section(next).map(|s| s.line))
                .unwrap_or(end);
            let near = self.sections.iter().find(|s| s.name.eq_ignore_ascii_case(name));
            let mend = match near {
                Some(s) => format!("line {} says `## {}`; write it as `## {name}`", s.line, s.name),
                None => format!("add a `## {name}` section ({list}, in that order)"),
            };
            problems.push(Problem::new(
                line,
                format!("section `## {name}` is missing from this {} note", kind.as_str()),
                mend,
            ));
        }
    }
}
