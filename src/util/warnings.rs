//! Warnings are data: code below the command layer that meets something worth a warning but not an
//! error (a record note that does not parse, a draft note kept verbatim) pushes it here instead of
//! printing, and the command layer drains and prints them on its error stream. Collected per
//! process, across threads.

use std::sync::Mutex;

static PENDING: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Records a warning for the command layer to print.
pub fn push(message: impl Into<String>) {
    if let Ok(mut pending) = PENDING.lock() {
        pending.push(message.into());
    }
}

/// Takes every warning pushed so far, oldest first.
pub fn drain() -> Vec<String> {
    PENDING.lock().map(|mut pending| std::mem::take(&mut *pending)).unwrap_or_default()
}
