"""Smart HTTP for bench/fleet.sh: serves every repository under ROOT on 127.0.0.1:PORT, one
`git http-backend` per request (the protocol forges speak), pushes allowed.
    python3 bench/http_backend.py ROOT PORT"""
import http.server
import os
import subprocess
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self):
        self.backend()

    def do_POST(self):
        self.backend()

    def backend(self):
        path, _, query = self.path.partition("?")
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                chunk = self.rfile.read(size + 2)
                if size == 0:
                    break
                body += chunk[:size]
        env = dict(os.environ, GIT_PROJECT_ROOT=ROOT, GIT_HTTP_EXPORT_ALL="1",
                   REQUEST_METHOD=self.command, PATH_INFO=path, QUERY_STRING=query,
                   CONTENT_LENGTH=str(len(body)), REMOTE_USER="bench", REMOTE_ADDR="127.0.0.1")
        for header, var in (("Content-Type", "CONTENT_TYPE"),
                            ("Content-Encoding", "HTTP_CONTENT_ENCODING"),
                            ("Git-Protocol", "GIT_PROTOCOL")):
            if self.headers.get(header):
                env[var] = self.headers[header]
        out = subprocess.run(["git", "http-backend"], input=body, env=env,
                             capture_output=True).stdout
        head, _, rest = out.partition(b"\r\n\r\n")
        if not rest and b"\n\n" in out:
            head, _, rest = out.partition(b"\n\n")
        status, headers = 200, []
        for line in head.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(rest)))
        self.end_headers()
        self.wfile.write(rest)

    def log_message(self, *args):
        pass


ROOT = sys.argv[1]
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Handler).serve_forever()
