//! What `hooks install` and `hooks uninstall` did (or, in a dry run, would do): each target's
//! outcome and the change to `notes.rewriteRef`, in the shape `--json` prints.

use serde::Serialize;

use crate::hooks::TargetReport;
use crate::hooks::rewrite_ref::RewriteRef;

/// What install and uninstall report (and print with --json).
#[derive(Serialize)]
pub struct Report {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dry_run: bool,
    pub hooks: Vec<TargetReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rewrite_ref: Option<RewriteRef>,
}
