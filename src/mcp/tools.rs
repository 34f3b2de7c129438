//! The four tools as the model sees them: names, descriptions written for the model, argument
//! tables (from which the JSON schemas are made) and hints of what each one changes.

use serde_json::{Value, json};

use super::schema::{self, Field, Kind};

/// A tool the server offers.
pub struct Tool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub fields: &'static [Field],
    /// True when the tool changes nothing.
    pub read_only: bool,
}

pub const NOTE: &str = "handoff_note";
pub const RECALL: &str = "handoff_recall";
pub const SNAPSHOT: &str = "handoff_snapshot";
pub const PROGRESS: &str = "handoff_progress";

const fn field(name: &'static str, kind: Kind, description: &'static str) -> Field {
    Field { name, kind, required: false, description }
}

const NOTE_FIELDS: &[Field] = &[
    field("goal", Kind::Text, "What this session set out to do, in one line."),
    field(
        "done",
        Kind::TextList,
        "What you finished, one item each. Claim that tests, a build or a lint pass only if the \
         last run did: an item the event log cannot support is tagged [unverified: why], not \
         dropped.",
    ),
    field("in_progress", Kind::TextList, "What you were in the middle of, one item each."),
    field("decisions", Kind::TextList, "Decisions the next session must keep, with the why."),
    field("next", Kind::TextList, "Remaining work, most important first."),
    field(
        "files_touched",
        Kind::TextList,
        "Repository-relative paths you changed. A path the event log shows no edit to is tagged.",
    ),
    field(
        "reason",
        Kind::Text,
        "Why the handoff happens: token_soft_threshold, token_hard_limit, turn_limit, \
         time_limit, cost_hard_limit, operator_request or agent_request (the default), or a \
         reason the project's .handoff.toml adds.",
    ),
    field(
        "issue",
        Kind::Count,
        "The issue number. Only needed when no attempt was started (`git handoff start --issue \
         N`); otherwise the attempt's issue is used.",
    ),
];

const RECALL_FIELDS: &[Field] = &[
    field(
        "source",
        Kind::Choice(&["startup", "resume", "clear", "compact", "fork"]),
        "How this session began. resume (the default), clear, compact and fork give the whole \
         recall; startup gives its first line (when, which session, the digest) and where the rest is.",
    ),
    field("max_lines", Kind::Count, "Lines of recall at most (default 10)."),
];

const SNAPSHOT_FIELDS: &[Field] = &[
    field("max_lines", Kind::Count, "Lines kept from each git output (default 40)."),
    field(
        "reason",
        Kind::Text,
        "The reason written into the pre-filled note header (default agent_request).",
    ),
];

const SET_FIELDS: &[Field] = &[
    Field {
        name: "id",
        kind: Kind::Text,
        required: true,
        description: "The item's id: 0, 1, 2 ... for tasks; F1, W2 ... for findings.",
    },
    Field {
        name: "status",
        kind: Kind::Choice(&[
            "pending",
            "in_progress",
            "done",
            "abandoned",
            "fixed",
            "not_fixed",
            "already_resolved",
        ]),
        required: true,
        description: "Tasks take pending, in_progress, done, abandoned; findings take pending, \
                      fixed, not_fixed, already_resolved.",
    },
    field("note", Kind::Text, "A short note: what was done, or why it was abandoned."),
    field("files", Kind::TextList, "Files this item changed."),
];

const PROGRESS_FIELDS: &[Field] = &[
    field(
        "plan",
        Kind::TextList,
        "Write the plan before the work: one item per entry, in order (task ids are 0, 1, 2 \
         ...). With findings, give each as \"F1: title\".",
    ),
    field("findings", Kind::Flag, "With plan: the items are review findings, not tasks."),
    field("force", Kind::Flag, "With plan: replace a plan whose items already have progress."),
    field(
        "set",
        Kind::Object(SET_FIELDS),
        "After each unit of work: set one item's status (with an optional note and files).",
    ),
];

/// Every tool, in the order they are listed.
pub const TOOLS: &[Tool] = &[
    Tool {
        name: NOTE,
        title: "Save the handoff",
        description: "Save your handoff for the next session in one call. Give your own summary \
            as data; git-handoff fills in the note's header, checks every claim against the \
            event log of what you really did (edits, tool calls, the last test/build/lint run \
            and its exit status), tags what the log cannot support with [unverified: why], \
            commits the note alone on the branch and records it. Call it when told a token, \
            turn, time or cost limit is near, or when asked for a handoff; do not run git \
            status, git log or tests first, and do not commit your other work for it. Returns \
            the note's path and commit, the digest line from the log, and each tag.",
        fields: NOTE_FIELDS,
        read_only: false,
    },
    Tool {
        name: RECALL,
        title: "Recall the last handoff",
        description: "The last handoff on this branch or issue, in at most ten lines: the digest \
            line from the event log, goal, done (with any [unverified] tags), in progress, \
            decisions, next steps, then the project rules. Use it at the start of a session to \
            pick up where the previous one stopped.",
        fields: RECALL_FIELDS,
        read_only: true,
    },
    Tool {
        name: SNAPSHOT,
        title: "Snapshot the repository",
        description: "The repository state for a handoff, as `git handoff snapshot --json` \
            gives it: branch, base, HEAD, started_at, the first lines of `git status --short`, \
            `git log --oneline <base>..HEAD` and `git diff --stat <base>` (each with how many \
            lines were left out), and the pre-filled note header. One call instead of several \
            git commands.",
        fields: SNAPSHOT_FIELDS,
        read_only: true,
    },
    Tool {
        name: PROGRESS,
        title: "Keep the progress plan",
        description: "A progress plan that survives interruption, for work in several units. \
            Give `plan` to write it before the work; give `set` after each unit to set one \
            item's status; give neither to read the change summary (status line, items, files \
            changed). An interrupted session then still says what is done, in progress and \
            untouched.",
        fields: PROGRESS_FIELDS,
        read_only: false,
    },
];

/// The tool named `name`.
pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|tool| tool.name == name)
}

/// `tools/list`: each tool with its input schema and hints.
pub fn list() -> Vec<Value> {
    TOOLS
        .iter()
        .map(|tool| {
            json!({
                "name": tool.name,
                "title": tool.title,
                "description": tool.description,
                "inputSchema": schema::object(tool.fields),
                "annotations": {
                    "title": tool.title,
                    "readOnlyHint": tool.read_only,
                    "destructiveHint": false,
                    "idempotentHint": tool.read_only,
                    "openWorldHint": false,
                },
            })
        })
        .collect()
}
