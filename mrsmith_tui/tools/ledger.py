"""The file ledger: what each file looked like when a tool last read or wrote it.

One per session, shared by every agent. edit and write_file refuse to overwrite a file
that changed on disk since a tool last saw it (the person or another agent edited it), so
the model never clobbers work it has not read. A file no tool has seen is written normally.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class FileLedger:
    def __init__(self) -> None:
        self._seen: dict[Path, str | None] = {}  # None: seen as absent
        self._lock = threading.Lock()

    def record(self, path: Path, data: bytes | None) -> None:
        """Remember the bytes a tool just read or wrote (None: the file does not exist)."""
        self.record_fingerprint(path, None if data is None else digest(data))

    def record_fingerprint(self, path: Path, fingerprint: str | None) -> None:
        """Remember a file by its fingerprint (fileio.fingerprint: the digest, or size and times for a big file)."""
        with self._lock:
            self._seen[Path(path)] = fingerprint

    def forget(self, path: Path) -> None:
        with self._lock:
            self._seen.pop(Path(path), None)

    def seen(self, path: Path) -> bool:
        with self._lock:
            return Path(path) in self._seen

    def stale(self, path: Path, current: bytes | None) -> bool:
        """True when the file was seen before and is now different (or gone, or new)."""
        return self.stale_fingerprint(path, None if current is None else digest(current))

    def stale_fingerprint(self, path: Path, now: str | None) -> bool:
        with self._lock:
            if Path(path) not in self._seen:
                return False
            known = self._seen[Path(path)]
        return known != now

    def stale_message(self, shown: str) -> str:
        return (
            f"{shown} changed on disk since you last read or wrote it; read it again with read_file "
            "and redo the change against what is there now"
        )
