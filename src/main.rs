//! The `git-handoff` binary: parse the command line, run it, and map the outcome to an exit code
//! in this one place (0 success, 1 the thing checked does not pass, 2 an error).
//!
//! On glibc Linux the binary starts without std's run-time set-up (`no_main`). That set-up reads
//! `/proc/self/maps` (the kernel writes out every mapping) to find the main thread's stack guard
//! for its stack overflow handler: 0.15-0.3 ms of each start on a 2-core VM (`record` went from
//! 1.28 to 0.99 ms), and `record` runs on every agent tool call. What the commands rely on from it
//! is done here instead: SIGPIPE is ignored, so a closed pipe is an EPIPE error that commands take
//! as the end of their output, and a closed standard descriptor is opened on `/dev/null`, so no
//! file a command opens becomes its stdout. std still has the arguments (glibc passes them to std's
//! `.init_array` hook), and `process::exit` flushes stdout as returning from std's `main` would.
//! Given up: a stack overflow is a plain SIGSEGV, without std's one-line message.

#![cfg_attr(all(target_os = "linux", target_env = "gnu", not(test)), no_main)]

#[cfg(not(all(target_os = "linux", target_env = "gnu", not(test))))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(git_handoff::main_with_args(std::env::args_os()))
}

#[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    for fd in 0..3 {
        // SAFETY: F_GETFD reads a descriptor's flags and fails only when it is not open; the
        // open then takes the lowest free number, which is `fd` (0, 1 and 2 are checked in order).
        unsafe {
            if libc::fcntl(fd, libc::F_GETFD) == -1
                && libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) != fd
            {
                // As std does when it cannot mend a standard descriptor.
                libc::abort();
            }
        }
    }
    // SAFETY: sets the disposition of one signal, as std's own start-up does.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    let code = git_handoff::main_with_args(std::env::args_os());
    std::process::exit(code.into())
}
