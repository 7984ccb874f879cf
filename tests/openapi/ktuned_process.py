"""A real ktuned for the OpenAPI test: its own database and data dir, a free port (--port 0, read
back from the line it prints), stopped with SIGTERM."""
import http.client
import os
import shutil
import signal
import subprocess
import tempfile
import time


class Ktuned:
    def __init__(self, *flags, data_files=()):
        binary = os.environ.get("KTUNED")
        if not binary:
            raise RuntimeError("KTUNED must name the ktuned binary (ctest sets it)")
        self.dir = tempfile.mkdtemp(prefix="ktune-openapi-")
        data = os.path.join(self.dir, "data")
        os.mkdir(data)
        for source in data_files:
            shutil.copy(source, data)
        with open(os.path.join(self.dir, "stderr"), "w") as stderr:
            self.process = subprocess.Popen(
                [binary, "--port", "0", "--db", os.path.join(self.dir, "ktune.db"), "--data-dir", data,
                 "--log-level", "warn", *flags],
                stdout=subprocess.PIPE, stderr=stderr, text=True)
        line = self.process.stdout.readline()  # "ktuned listening on http://127.0.0.1:PORT"
        if "listening on" not in line:
            self.stop()
            raise RuntimeError(f"ktuned did not start: {line!r} {self.log()}")
        self.port = int(line.rsplit(":", 1)[1])

    def log(self):
        with open(os.path.join(self.dir, "stderr")) as f:
            return f.read()

    def request(self, method, path, body=None, headers=None):
        """Returns (status, headers, body bytes); http.client sends Content-Length: 0 with a bodiless POST."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.headers, response.read()
        finally:
            connection.close()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def wait_for(condition, seconds=60, what="a condition"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")
