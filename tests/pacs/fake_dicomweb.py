"""@brief A loopback HTTP server in front of Orthanc's DICOMweb for the faults Orthanc does not make.

/token/...   forwards to Orthanc when the request carries "Authorization: Bearer TOKEN", else 401
/fail/...    answers 500
/silent/...  accepts the request and never answers (the client's timeout)
/lossy/...   forwards, but a WADO-RS answer loses its last instance
/cut/...     forwards, but a WADO-RS answer stops before its closing delimiter
/plain/...   forwards (over HTTPS when the server was given a certificate)
/redirect/... answers 307 to the same path under /token/ at "localhost" (another origin than 127.0.0.1)
Standard library only; threads are daemons, so a hung client never holds the test.
"""
import http.server
import re
import ssl
import threading
import time
import urllib.error
import urllib.request


class FakeDicomWeb:
    def __init__(self, orthanc_base, token, certificate=None):
        """`certificate`: a PEM file holding a certificate and its key: HTTPS."""
        self.orthanc_base, self.token = orthanc_base.rstrip("/"), token
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                outer.handle(self, None)

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                outer.handle(self, body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.scheme = "https" if certificate else "http"
        if certificate:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(certificate)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, mode):
        return "%s://127.0.0.1:%d/%s/dicom-web" % (self.scheme, self.port, mode)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    @staticmethod
    def answer(h, status, body=b"", content_type="text/plain"):
        h.send_response(status)
        h.send_header("Content-Type", content_type)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def forward(self, h, path, body):
        headers = {k: v for k, v in h.headers.items() if k.lower() in ("accept", "content-type")}
        req = urllib.request.Request(self.orthanc_base + path, data=body, headers=headers,
                                     method="POST" if body is not None else "GET")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.headers.get("Content-Type", ""), r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Content-Type", ""), e.read()

    def handle(self, h, body):
        mode, _, rest = h.path.lstrip("/").partition("/")
        path = "/" + rest.partition("/")[2]  # drop "dicom-web"
        if mode == "fail":
            return self.answer(h, 500, b"boom")
        if mode == "redirect":
            h.send_response(307)
            h.send_header("Location", "http://localhost:%d/token/%s" % (self.port, rest))
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        if mode == "silent":
            time.sleep(30)
            return
        if mode == "token" and h.headers.get("Authorization") != "Bearer " + self.token:
            return self.answer(h, 401, b"no", "text/plain")
        status, ctype, data = self.forward(h, path, body)
        boundary = re.search(r'boundary="?([^";]+)"?', ctype)
        if mode in ("lossy", "cut") and boundary and status == 200:
            delim = b"--" + boundary.group(1).encode()
            # parts[0] is the first instance, parts[-1] the closing "--" and epilogue.
            parts = data.split(b"\r\n" + delim)
            if mode == "lossy" and len(parts) > 2:
                data = (b"\r\n" + delim).join(parts[:-2] + [parts[-1]])
            else:
                data = (b"\r\n" + delim).join(parts[:-1])
        self.answer(h, status, data, ctype)
