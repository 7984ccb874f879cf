"""Starts a real ktuned for the tests: model-only, on a free port, in a temporary directory."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[3]
HAMMOND = REPOSITORY / "examples" / "hammond.mtx.gz"
MATRICES = REPOSITORY / "data" / "matrices"


def ktuned_path() -> Path:
    """$KTUNE_KTUNED (ctest sets it), else build/bin/ktuned of the repository."""
    return Path(os.environ.get("KTUNE_KTUNED", REPOSITORY / "build" / "bin" / "ktuned"))


class Ktuned:
    """A ktuned process, requiring `token` if given; stop() ends it and removes its directory."""

    def __init__(self, token: str | None = None) -> None:
        binary = ktuned_path()
        if not binary.is_file():
            raise FileNotFoundError(f"no ktuned at {binary}: build it, or set KTUNE_KTUNED")
        self.dir = Path(tempfile.mkdtemp(prefix="ktune-python-"))
        flags = []
        if token:
            (self.dir / "token").write_text(token)
            flags = ["--auth-token-file", str(self.dir / "token")]
        self.log = open(self.dir / "ktuned.log", "wb")
        command = [str(binary), "--port", "0", "--db", str(self.dir / "ktune.db"),
                   "--data-dir", str(self.dir), *flags]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.log)
        first_line = self.process.stdout.readline().decode()
        match = re.match(r"ktuned listening on (http://\S+)", first_line)
        if not match:
            self.process.kill()
            self.process.wait()
            log = (self.dir / "ktuned.log").read_text(errors="replace")
            self.stop()
            raise RuntimeError(f"{binary} did not start ({first_line!r}); its log:\n{log}")
        self.url = match.group(1)

    def stop(self) -> None:
        """SIGTERM, and SIGKILL if it has not exited within its grace period."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)
