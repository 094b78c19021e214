"""The transcript writer (JSONL, one record a line) and a tolerant reader.

Each record is one whole line written with one write() on an unbuffered file, so a killed
process leaves at most a torn last line, which `read_transcript` drops with a warning.
Every configured API key, and every value taken out of the environment at start
(security.redact.PROCESS), is replaced by `[redacted]` before writing. The file is created
0600 and its folder 0700 (a transcript holds whatever the tools read). A write failure posts
one `msgs.Warning(code="transcript")` and turns persistence off; the session goes on without it.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from mrsmith_tui import msgs
from mrsmith_tui.security.private_files import FILE_MODE, private_dir
from mrsmith_tui.security.redact import PROCESS, REDACTED, Redactor
from mrsmith_tui.session.ids import new_session_id

__all__ = ["TranscriptWriter", "read_transcript", "new_session_id", "scrub", "REDACTED", "private_dir"]



def scrub(value: Any, secrets: Iterable[str] = ()) -> Any:
    """`value` with every secret (those given, and the process's) replaced by REDACTED, recursively."""
    return PROCESS.redact_value(Redactor(secrets).redact_value(value))


class TranscriptWriter:
    """Appends records to `path` (parent folders made on the first write).

    `header`, when given, is written before the first record, so a session that never ran
    leaves no file behind.
    """

    def __init__(
        self,
        path: Path | str,
        *,
        sink: Callable[[msgs.Msg], None] | None = None,
        secrets: Iterable[str] = (),
        header: dict[str, Any] | None = None,
    ) -> None:
        self.path = Path(path)
        self.enabled = True
        self._sink = sink
        self._redactor = Redactor(secrets)
        self._pending_header = header
        self._file = None
        self._lock = threading.Lock()

    def append(self, record: dict[str, Any]) -> None:
        with self._lock:
            if not self.enabled:
                return
            if "at" not in record:
                record = {"type": record.get("type"), "at": time.time(), **record}
            try:
                if self._file is None:
                    private_dir(self.path.parent, levels=2)  # the session's folder and the sessions folder
                    fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
                    os.fchmod(fd, FILE_MODE)  # an older transcript (0644) being resumed
                    self._file = os.fdopen(fd, "ab", buffering=0)  # noqa: SIM115 - kept open for the session
                if self._pending_header is not None:
                    self._write(self._pending_header)
                    self._pending_header = None
                self._write(record)
            except (OSError, TypeError, ValueError) as e:
                self._fail(e)

    def _write(self, record: dict[str, Any]) -> None:
        line = json.dumps(PROCESS.redact_value(self._redactor.redact_value(record)), ensure_ascii=False, default=str) + "\n"
        data = memoryview(line.encode("utf-8"))
        assert self._file is not None
        while data:
            written = self._file.write(data)
            data = data[written:]

    def _fail(self, error: Exception) -> None:
        self.enabled = False
        self._close_file()
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        if self._sink is not None:
            self._sink(
                msgs.Warning(text=f"cannot write the transcript {self.path}: {reason}; this session is not saved", code="transcript")
            )

    def close(self) -> None:
        with self._lock:
            self._close_file()

    def _close_file(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
            self._file = None


def read_transcript(path: Path | str) -> tuple[list[dict[str, Any]], list[str]]:
    """(records, warnings). A torn or broken line is dropped with a one-line warning."""
    path = Path(path)
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    ends_cleanly = raw.endswith(b"\n")
    if ends_cleanly:
        lines.pop()
    records: list[dict[str, Any]] = []
    warnings: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        last = number == len(lines)
        try:
            record = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            record = None
        if not isinstance(record, dict) or not isinstance(record.get("type"), str):
            if last and not ends_cleanly:
                warnings.append(f"{path.name}: dropped a torn last line (line {number})")
            else:
                warnings.append(f"{path.name}: skipped a broken record (line {number})")
            continue
        records.append(record)
    return records, warnings
