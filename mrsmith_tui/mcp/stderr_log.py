"""A server's stderr: to a bounded private log file, never raw to the terminal.

The file (0600, in a 0700 folder under the state folder) is cut to its last half when it passes
its bound, so a chatty server cannot fill the disk; /mcp shows the last lines of what is kept in
memory, cleaned of control sequences and with secrets redacted.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import deque
from pathlib import Path

from mrsmith_tui.mcp.listing import clean_text
from mrsmith_tui.paths import state_dir
from mrsmith_tui.security.private_files import open_private, private_dir
from mrsmith_tui.security.redact import PROCESS

__all__ = ["StderrLog", "log_path"]

MAX_FILE_BYTES = 512 * 1024
MAX_MEMORY_BYTES = 16 * 1024


def log_path(root: Path, name: str) -> Path:
    folder = hashlib.sha256(os.path.realpath(root).encode()).hexdigest()[:12]
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:40] or "server"
    return state_dir() / "mcp-logs" / folder / f"{safe}.log"


class StderrLog:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._memory: deque[bytes] = deque()
        self._memory_bytes = 0
        self._fd: int | None = None
        self._written = 0
        self._opened = False  # the file is made at the server's first stderr line: a server never started makes none

    def _open(self) -> None:
        self._opened = True
        if self.path is None:
            return
        try:
            private_dir(self.path.parent, levels=2)
            self._fd = open_private(self.path, os.O_WRONLY | os.O_APPEND)
            self._written = os.fstat(self._fd).st_size
        except OSError:
            self._fd = None  # no log file: the tail in memory still serves /mcp

    def write(self, data: bytes) -> None:
        with self._lock:
            self._memory.append(data)
            self._memory_bytes += len(data)
            while self._memory_bytes > MAX_MEMORY_BYTES and len(self._memory) > 1:
                self._memory_bytes -= len(self._memory.popleft())
            if not self._opened:
                self._open()
            if self._fd is None:
                return
            try:
                if self._written + len(data) > MAX_FILE_BYTES:
                    self._shrink()
                os.write(self._fd, data[-MAX_FILE_BYTES:])
                self._written += min(len(data), MAX_FILE_BYTES)
            except OSError:
                pass

    def _shrink(self) -> None:
        assert self._fd is not None and self.path is not None
        keep = b""
        try:
            with open(self.path, "rb") as f:
                f.seek(max(0, self._written - MAX_FILE_BYTES // 2))
                keep = f.read(MAX_FILE_BYTES // 2)
        except OSError:
            pass
        os.ftruncate(self._fd, 0)
        os.write(self._fd, keep)
        self._written = len(keep)

    def tail(self, lines: int = 5, width: int = 200) -> list[str]:
        """The last `lines` lines, cleaned for the screen and the model, secrets redacted."""
        with self._lock:
            text = b"".join(self._memory).decode("utf-8", "replace")
        out = [clean_text(PROCESS.redact(line), width) for line in text.splitlines()]
        return [line for line in out if line][-lines:]

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                try:
                    os.close(self._fd)
                except OSError:
                    pass
                self._fd = None
