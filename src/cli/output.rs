//! Where output goes and how it looks: colour decisions (`--color`, `NO_COLOR`, terminals) and the
//! JSON writer. Data goes to stdout, status and warnings to stderr.

use std::io::{self, Write};

use serde::Serialize;

use crate::cli::ColorChoice;

/// Decides colour once for the process, for stdout and stderr alike.
pub fn init_color(choice: ColorChoice) {
    match choice {
        ColorChoice::Always => {
            console::set_colors_enabled(true);
            console::set_colors_enabled_stderr(true);
        }
        ColorChoice::Never => {
            console::set_colors_enabled(false);
            console::set_colors_enabled_stderr(false);
        }
        // console's defaults already honour terminals, NO_COLOR, CLICOLOR(_FORCE) and TERM=dumb.
        ColorChoice::Auto => {}
    }
}

/// Writes `value` as one JSON document and a newline.
pub fn write_json(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    out.write_all(b"\n")
}

/// A heading for human output (bold when colour is on for stdout).
pub fn heading(text: &str) -> String {
    console::style(text).bold().to_string()
}

/// Dims text that is secondary (counts, `+N more`).
pub fn dim(text: &str) -> String {
    console::style(text).dim().to_string()
}

/// Colours an error report for stderr.
pub fn paint_error(text: &str) -> String {
    match text.split_once(": ") {
        Some(("error", rest)) => {
            format!("{}: {rest}", console::style("error").for_stderr().red().bold())
        }
        _ => text.to_string(),
    }
}

/// A warning on stderr: `warning: ...`.
pub fn warn(text: &str) {
    eprintln!("{}: {text}", console::style("warning").for_stderr().yellow().bold());
}

/// The first 12 characters of a commit id, for people (safe on any text: records can come from
/// other machines).
pub fn short_id(id: &str) -> &str {
    match id.char_indices().nth(12) {
        Some((end, _)) => &id[..end],
        None => id,
    }
}
