//! Git servers on 127.0.0.1 for the transport tests: `git daemon` (git://) and a tiny HTTP/1.1
//! server that runs `git http-backend` per request (smart HTTP, the protocol forges speak). Each
//! returns `None`, after a loud `SKIPPED:` line, when its git program is missing.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use super::hermetic;

/// A running `git daemon`, killed on drop.
pub struct Daemon {
    child: Child,
    pub base: String,
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `program` in git's exec path, if it is there.
fn in_exec_path(program: &str) -> Option<PathBuf> {
    let out = Command::new("git").arg("--exec-path").output().ok()?;
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    Some(dir.join(program)).filter(|path| path.is_file())
}

fn exec_path_has(program: &str) -> bool {
    in_exec_path(program).is_some()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `git daemon` serving every repository under `root`, pushes allowed: URLs are
/// `{base}/<name>`.
pub fn git_daemon(root: &Path, home: &Path) -> Option<Daemon> {
    git_daemon_with(root, home, &[])
}

/// [`git_daemon`] with more of its options (`--max-connections=2`).
pub fn git_daemon_with(root: &Path, home: &Path, options: &[&str]) -> Option<Daemon> {
    let Some(program) = in_exec_path("git-daemon") else {
        eprintln!("SKIPPED: git daemon is not installed; the git:// transport is not tested");
        return None;
    };
    for _ in 0..5 {
        let port = free_port();
        // git-daemon itself, not `git daemon` (a parent that waits for it): the kill on drop
        // ends the server, and no orphan outlives the test.
        let mut cmd = Command::new(&program);
        hermetic(&mut cmd, home);
        cmd.args([
            "--reuseaddr",
            "--export-all",
            "--enable=receive-pack",
            "--listen=127.0.0.1",
            &format!("--port={port}"),
            &format!("--base-path={}", root.display()),
        ])
        .args(options)
        .arg(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        let mut child = cmd.spawn().unwrap();
        for _ in 0..100 {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Some(Daemon { child, base: format!("git://127.0.0.1:{port}") });
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    panic!("git daemon did not start on 127.0.0.1");
}

/// A smart-HTTP server for every repository under `root` (`http.receivepack` on): URLs are
/// `{base}/<name>`. It lives as long as the test process; each request runs `git http-backend`.
pub fn http_backend(root: &Path, home: &Path) -> Option<String> {
    if !exec_path_has("git-http-backend") {
        eprintln!("SKIPPED: git http-backend is not installed; smart HTTP is not tested");
        return None;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (root, home) = (root.to_path_buf(), home.to_path_buf());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let (root, home) = (root.clone(), home.clone());
            std::thread::spawn(move || {
                let _ = serve(stream, &root, &home);
            });
        }
    });
    Some(format!("http://127.0.0.1:{port}"))
}

/// One request, one `git http-backend`, one response; the connection is closed after it.
fn serve(stream: TcpStream, root: &Path, home: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("GET").to_string();
    let target = parts.next().unwrap_or("/").to_string();
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header)?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let mut out = stream;
    if header("expect").is_some_and(|v| v.eq_ignore_ascii_case("100-continue")) {
        out.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
    }
    let mut body = Vec::new();
    if let Some(len) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
        body.resize(len, 0);
        reader.read_exact(&mut body)?;
    } else if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size)?;
            let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)
                .unwrap_or(0);
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }
    let mut cmd = Command::new("git");
    hermetic(&mut cmd, home);
    cmd.arg("http-backend")
        .env("GIT_PROJECT_ROOT", root)
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("REQUEST_METHOD", &method)
        .env("PATH_INFO", path)
        .env("QUERY_STRING", query)
        .env("CONTENT_LENGTH", body.len().to_string())
        .env("REMOTE_USER", "tester")
        .env("REMOTE_ADDR", "127.0.0.1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for (name, var) in [
        ("content-type", "CONTENT_TYPE"),
        ("content-encoding", "HTTP_CONTENT_ENCODING"),
        ("git-protocol", "GIT_PROTOCOL"),
    ] {
        if let Some(value) = header(name) {
            cmd.env(var, value);
        }
    }
    let mut child = cmd.spawn()?;
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let output = child.wait_with_output()?;
    let _ = writer.join();
    let raw = output.stdout;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| (i, i + 4))
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|i| (i, i + 2)))
        .unwrap_or((raw.len(), raw.len()));
    let head = String::from_utf8_lossy(&raw[..split.0]).into_owned();
    let body = &raw[split.1..];
    let mut status = "200 OK".to_string();
    let mut response = String::new();
    for line in head.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match line.split_once(':') {
            Some((name, value)) if name.eq_ignore_ascii_case("status") => {
                status = value.trim().to_string();
            }
            _ => response.push_str(&format!("{line}\r\n")),
        }
    }
    let head = format!(
        "HTTP/1.1 {status}\r\n{response}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    out.write_all(head.as_bytes())?;
    out.write_all(body)?;
    out.flush()
}
