//! Surviving Ctrl-C (SIGINT), SIGTERM and SIGHUP in the commands that write to the repository.
//!
//! Killed by a signal, such a command would leave what it was writing behind: seal its
//! `index.lock` (after which every git command refuses to run), a note commit its private index in
//! the git dir. Caught, a signal stops the git child it was also sent to (children start with
//! default handlers), the step fails, and the failure path removes the lock and temporary files as
//! on any error; a signal sent to the command alone stops it at the next [`Interrupt::check`],
//! which comes before the point of no return (moving HEAD). Past that point the command completes.

use anyhow::{Result, bail};

pub struct Interrupt(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Interrupt {
    /// Starts catching the signals; they stay caught until the process ends.
    pub fn catch() -> Interrupt {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let fired = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            // Without a handler the signal keeps its default action: no worse than before.
            let _ = signal_hook::flag::register(signal, fired.clone());
        }
        Interrupt(fired)
    }

    /// An error when a signal came: `what` (`seal`, `the note commit`) was interrupted.
    pub fn check(&self, what: &str) -> Result<()> {
        if self.0.load(std::sync::atomic::Ordering::SeqCst) {
            bail!("{what} was interrupted by a signal before it changed anything");
        }
        Ok(())
    }
}
