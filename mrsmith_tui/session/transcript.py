"""The transcript writer (JSONL, one Msg a line: session.records) and a tolerant reader.

Each Msg is one whole line written with one write() on an unbuffered file, so a killed process
leaves at most a torn last line, which `read_transcript` drops with a warning. Every configured
API key, and every value taken out of the environment at start (security.redact.PROCESS), is
replaced by `[redacted]` before writing. The file is created 0600 and its folder 0700 (a
transcript holds whatever the tools read); a transcript that is a symbolic link is not written
through (nor made 0600). A write failure posts one
`msgs.Warning(code="transcript")` and turns persistence off; the session goes on without it.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from mrsmith_tui import msgs
from mrsmith_tui.security.private_files import open_private, private_dir
from mrsmith_tui.security.redact import PROCESS, REDACTED, Redactor
from mrsmith_tui.session import records
from mrsmith_tui.session.migrate import from_v1
from mrsmith_tui.session.session_ids import new_session_id

# The Msgs that start a run with the person's prompt: a new session's file is made with the first of them.
FIRST_PROMPT_TYPES = frozenset({"UserPrompt", "RunStarted", "PromptRecorded"})

__all__ = ["FIRST_PROMPT_TYPES", "REDACTED", "TranscriptWriter", "new_session_id", "parse_line", "private_dir", "read_transcript", "scrub"]


def scrub(value: Any, secrets: Iterable[str] = ()) -> Any:
    """`value` with every secret (those given, and the process's) replaced by REDACTED, recursively."""
    return PROCESS.redact_value(Redactor(secrets).redact_value(value))


class TranscriptWriter:
    """Appends Msgs to `path` (parent folders made on the first write).

    `header`, when given, is written before the first Msg, so a session that never ran leaves
    no file behind. Without one the file is being continued (a resume): if it was written in an
    older format, a format-2 TranscriptHeader taken from its own header goes first.

    `from_first_prompt`: a new session's file is made at its first prompt (or `!command`). What comes
    before it (an agent or model switch, a skill loaded by hand) is held and written then, so a start that never
    got a prompt (an endpoint down, the person leaving at once) leaves no session behind. At most
    MAX_HELD Msgs are held; one more and the file is made anyway.
    """

    MAX_HELD = 256

    def __init__(
        self,
        path: Path | str,
        *,
        sink: Callable[[msgs.Msg], None] | None = None,
        secrets: Iterable[str] = (),
        header: msgs.TranscriptHeader | None = None,
        from_first_prompt: bool = False,
    ) -> None:
        self.path = Path(path)
        self.enabled = True
        self._sink = sink
        self._redactor = Redactor(secrets)
        self._pending_header = header
        self._file: IO[bytes] | None = None
        self._lock = threading.Lock()
        self._held: list[msgs.Msg] | None = [] if from_first_prompt else None  # None: writing

    @property
    def started(self) -> bool:
        """Whether the file is being written (False while it waits for the first prompt)."""
        return self._held is None

    def append(self, msg: msgs.Msg) -> None:
        """Write `msg` when it is one a transcript holds (records.TRANSCRIPT_TYPES); any other is left out."""
        if msg.type not in records.TRANSCRIPT_TYPES:
            return
        with self._lock:
            if not self.enabled:
                return
            if self._held is not None:
                if not _the_persons(msg) and len(self._held) < self.MAX_HELD:
                    self._held.append(msg)
                    return
                held, self._held = self._held, None
                for earlier in held:
                    self._append(earlier)
                    if not self.enabled:
                        return
            self._append(msg)

    def _append(self, msg: msgs.Msg) -> None:
        """Write `msg` (under the lock), the file made and the header written before the first."""
        try:
            if self._file is None:
                if self._pending_header is None:
                    self._pending_header = _format_marker(self.path)
                private_dir(self.path.parent, levels=2)  # the session's folder and the sessions folder
                # 0600, an older transcript (0644) being resumed too; never through a symbolic link
                fd = open_private(self.path, os.O_WRONLY | os.O_APPEND)
                self._file = os.fdopen(fd, "ab", buffering=0)
            if self._pending_header is not None:
                self._write(self._pending_header)
                self._pending_header = None
            self._write(msg)
        except (OSError, TypeError, ValueError) as e:
            self._fail(e)

    def _write(self, msg: msgs.Msg) -> None:
        record = PROCESS.redact_value(self._redactor.redact_value(msgs.to_json(msg)))
        data = memoryview((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
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
        """Close the file; Msgs held for a first prompt that never came are dropped with the session."""
        with self._lock:
            self._held = [] if self._held is not None else None
            self._close_file()

    def _close_file(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
            self._file = None


def _the_persons(msg: msgs.Msg) -> bool:
    """A Msg of the person's own input: a prompt, or what a `!command` they ran put in the context (a
    ContextAdded that is not a skill's)."""
    return msg.type in FIRST_PROMPT_TYPES or (isinstance(msg, msgs.ContextAdded) and not msg.skill)


def _format_marker(path: Path) -> msgs.TranscriptHeader | None:
    """The header to write before the Msgs appended to a transcript of an older format (taken from its
    own header); None for a new file, or one already going on in format 2 (its last line is a Msg)."""
    try:
        with open(path, "rb") as f:
            first = records.load_line(f.readline())
            last = records.load_line(_last_line(f))
    except OSError:
        return None
    if first is None or first.get("type") == "TranscriptHeader" or (last or {}).get("type") in records.TRANSCRIPT_TYPES:
        return None
    old = from_v1([first]) if first.get("type") == "header" else []
    was = old[0] if old and isinstance(old[0], msgs.TranscriptHeader) else msgs.TranscriptHeader(
        format=0, session_id="", created=0.0, cwd="")
    marker = records.header(session_id=was.session_id or path.parent.name, created=was.created, cwd=was.cwd,
                            agent=was.agent, model=was.model, provider=was.provider)
    return marker.model_copy(update={"at": time.time()})


def _last_line(f: IO[bytes], block: int = 1 << 16) -> bytes:
    end = f.seek(0, os.SEEK_END)
    tail = b""
    while end > 0:
        start = max(0, end - block)
        f.seek(start)
        tail = f.read(end - start) + tail
        end = start
        body = tail.rstrip(b"\n")
        if b"\n" in body:
            return body.rsplit(b"\n", 1)[1]
    return tail.rstrip(b"\n")


# --------------------------------------------------------------------------- reading


def parse_line(data: dict[str, Any]) -> msgs.Msg | None:
    """The Msg of one format-2 line; None for a type a transcript does not hold (records.TRANSCRIPT_TYPES:
    one this version does not know, or a Msg that is never written, such as a request for the person).
    Fields it does not know (a newer writer's) are left out. Raises ValidationError for a known type
    that is broken."""
    from pydantic import ValidationError  # reading back is where records are checked (mrsmith_tui.records)

    kind = data.get("type")
    if not isinstance(kind, str) or kind not in records.TRANSCRIPT_TYPES:
        return None
    try:
        return msgs.from_json(data)
    except ValidationError as e:
        extra = [err["loc"] for err in e.errors() if err["type"] == "extra_forbidden"]
        if not extra or len(extra) != len(e.errors()):
            raise
        for loc in extra:
            _drop(data, loc[1:])  # loc[0] is the union's tag
        return msgs.from_json(data)


def _drop(data: Any, loc: tuple[Any, ...]) -> None:
    for key in loc[:-1]:
        data = data[key]
    if isinstance(data, dict):
        data.pop(loc[-1], None)


def read_transcript(path: Path | str) -> tuple[list[msgs.Msg], list[str]]:
    """(Msgs, warnings): every line as a format-2 Msg, older records migrated (session.migrate).
    A torn last line or a broken one is dropped with a one-line warning; unknown types are skipped."""
    from pydantic import ValidationError  # reading back is where records are checked (mrsmith_tui.records)

    path = Path(path)
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    ends_cleanly = raw.endswith(b"\n")
    if ends_cleanly:
        lines.pop()
    out: list[msgs.Msg] = []
    old: list[dict[str, Any]] = []  # records of an older format, until a format-2 header
    warnings: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        data = records.load_line(line)
        if data is None or not isinstance(data.get("type"), str):
            last = number == len(lines)
            warnings.append(f"{path.name}: {'dropped a torn last line' if last and not ends_cleanly else 'skipped a broken record'}"
                            f" (line {number})")
            continue
        if data["type"] in records.V1_TYPES:
            old.append(data)
            continue
        if old:
            out += from_v1(old)
            old = []
        try:
            msg = parse_line(data)
        except (ValidationError, RecursionError):
            warnings.append(f"{path.name}: skipped a broken record (line {number})")
            continue
        if msg is not None:
            out.append(msg)
    if old:
        out += from_v1(old)
    return out, warnings
