"""The session store: what lies in `<sessionsDir>/<id>/transcript.jsonl`, listed and found.

Listing reads as little as it can: the header is the first line, and only the lines that
may be user turns are parsed (to count turns and find the first prompt), so a folder with
hundreds of long sessions lists quickly. Sessions are ordered by when they were last used,
latest first (the time of the transcript's last record: a session resumed today comes before
one started today and left), so `-c`, the welcome's last session and `--list` agree.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mrsmith_tui import msgs
from mrsmith_tui.errors import EXIT_USAGE, MrSmithError
from mrsmith_tui.session.records import load_line, prompt_of
from mrsmith_tui.session.transcript import read_transcript

TRANSCRIPT_NAME = "transcript.jsonl"

__all__ = [
    "TRANSCRIPT_NAME",
    "SessionInfo",
    "SessionNotFound",
    "find_session",
    "format_sessions",
    "last_used_session",
    "list_sessions",
    "load_records",
    "read_info",
    "transcript_of",
    "typed_id",
]


class SessionNotFound(MrSmithError):
    """No session (or more than one) matches: `message` is one line for the person."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class SessionInfo:
    id: str
    path: Path  # the transcript
    created: float
    cwd: str
    agent: str
    model: str
    provider: str
    turns: int
    first_prompt: str
    format: int  # 0: written before the header carried a format version
    frontend: str = "tui"  # "headless": a -p or piped run (a header without the field: the TUI)
    used: float = 0.0  # when it was last used: its last record's time (the file's mtime if none), never before `created`


def read_info(path: Path) -> SessionInfo | None:
    """The summary of one transcript (any format), or None when its header cannot be read."""
    try:
        with open(path, "rb") as f:
            header = load_line(f.readline())
            if header is None or header.get("type") not in ("TranscriptHeader", "header"):
                return None
            turns, first = 0, ""
            last: list[bytes] = []  # the last two lines: a kill can leave the very last one torn
            for line in f:
                if line.strip():
                    last = [last[-1], line] if last else [line]
                if b'"user"' not in line:  # cheap filter: most lines are answers and tool output
                    continue  # (a prompt's line holds it: "type": "user" before format 2, "role": "user" after)
                prompt = _prompt(load_line(line))
                if prompt is None:
                    continue
                turns += 1
                if turns == 1:
                    first = prompt_of(prompt)
    except OSError:
        return None
    created = _time_of(header.get("created", header.get("at")))
    started = created if created is not None else _mtime(path)
    return SessionInfo(
        id=str(header.get("session_id", header.get("id")) or path.parent.name),
        path=path,
        created=started,
        cwd=str(header.get("cwd", "")),
        agent=str(header.get("agent", "")),
        model=str(header.get("model", "")),
        provider=str(header.get("provider", "")),
        turns=turns,
        first_prompt=first,
        format=int(header["format"]) if isinstance(header.get("format"), int) else 0,
        frontend="headless" if header.get("frontend") == "headless" else "tui",
        used=max(started, _last_time(last, path)),
    )


def _last_time(lines: list[bytes], path: Path) -> float:
    """The time of the last record that has one (of the last two lines), else the file's mtime."""
    for line in reversed(lines):
        record = load_line(line)
        if record is not None and (at := _time_of(record.get("at"))) is not None:
            return at
    return _mtime(path)


def _prompt(record: dict[str, Any] | None) -> str | None:
    """The prompt's text of a line that records one (a PromptRecorded, or an older `user` record)."""
    if record is None:
        return None
    if record.get("type") == "PromptRecorded":
        entry = record.get("entry")
        return str(entry.get("text", "")) if isinstance(entry, dict) else ""
    if record.get("type") == "user":
        return str(record.get("text", ""))
    return None


def _time_of(value: Any) -> float | None:
    """`value` as a time `local_minute` can show: a finite number of seconds a date can hold (not NaN, not 1e308)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and abs(value) < 1e11:
        return float(value)
    return None


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _transcripts(root: Path) -> list[Path]:
    try:
        folders = list(Path(root).iterdir())
    except OSError:  # no sessions folder yet
        return []
    return [p / TRANSCRIPT_NAME for p in folders if (p / TRANSCRIPT_NAME).is_file()]


def _same_dir(a: str, b: Path) -> bool:
    try:
        return Path(a).resolve() == b
    except (OSError, ValueError):
        return False


def list_sessions(root: Path, *, cwd: Path | None = None) -> list[SessionInfo]:
    """Sessions under `root`, the last used first; only those started in `cwd` when it is given."""
    where = Path(cwd).resolve() if cwd is not None else None
    found = []
    for path in _transcripts(root):
        info = read_info(path)
        if info is not None and (where is None or _same_dir(info.cwd, where)):
            found.append(info)
    found.sort(key=lambda s: (s.used, s.created, s.id), reverse=True)
    return found


def last_used_session(root: Path, cwd: Path) -> SessionInfo:
    """The session of `cwd` used last (`-c`). Raises SessionNotFound."""
    sessions = list_sessions(root, cwd=cwd)
    if not sessions:
        raise SessionNotFound(f"no session was started in {Path(cwd).resolve()} (see mrsmith --list --all)")
    return sessions[0]


def _bare(session_id: str) -> str:
    return session_id.lower().replace("-", "")


def typed_id(session_id: str, width: int = 8) -> str:
    """The part of an id a person types: a UUIDv7 starts with its time (sessions of one hour share
    their first 8 digits), so its random tail tells sessions apart; a short id is itself."""
    bare = _bare(session_id)
    return bare[-width:] if len(bare) >= 16 else session_id


RANDOM_FROM = 12  # a UUIDv7's hex digits after its 48-bit time: version and random bits


def _matches(session_id: str, typed: str) -> int:
    """How well `typed` names the id: 2 its start (dashes or not) or its whole tail as --list shows it
    (8 digits or more); 1, 4 characters or more, a shorter end, or the start of a tail --list could
    show (`d086` of `d086a159`, as one types a short hash; only in its random part); 0 not at all."""
    bare, want = _bare(session_id), _bare(typed)
    if session_id.lower().startswith(typed) or bare.startswith(want):
        return 2
    if len(want) < 4 or len(bare) < 16:
        return 0
    if bare.endswith(want):
        return 2 if len(want) >= 8 else 1
    return 1 if any(bare.startswith(want, at) for at in range(RANDOM_FROM, len(bare) - 7)) else 0


def find_session(root: Path, prefix: str) -> SessionInfo:
    """The one session whose id starts with `prefix`, ends with it, or whose tail as --list shows it
    starts with it. Raises SessionNotFound (none, or ambiguous)."""
    prefix = prefix.strip().lower()
    if not prefix:
        raise SessionNotFound("no session id given")
    scored = [(score, path) for path in _transcripts(root) if (score := _matches(path.parent.name, prefix))]
    best = max((score for score, _ in scored), default=0)  # a whole start or tail wins over a tail's start
    matches = []
    for path in (path for score, path in scored if score == best):
        info = read_info(path)
        if info is None:
            raise SessionNotFound(f"session {path.parent.name}: the transcript has no readable header ({path})")
        matches.append(info)
    if not matches:
        raise SessionNotFound(f"no session id starts with {prefix!r} (or ends with it) in {root} (see mrsmith --list --all)")
    if len(matches) > 1:
        matches.sort(key=lambda s: (s.created, s.id), reverse=True)
        shown = ", ".join(f"{s.id} ({local_minute(s.created)}, {_clip(s.first_prompt, 30)!r})" for s in matches[:10])
        more = f" and {len(matches) - 10} more" if len(matches) > 10 else ""
        raise SessionNotFound(f"{prefix!r} matches {len(matches)} sessions: {shown}{more}; give more of the id")
    return matches[0]


def transcript_of(root: Path | None, target: str | Path | None, cwd: Path | None = None) -> Path:
    """The transcript `target` names: a transcript file, a session folder, an id prefix under `root`,
    or (None) the session of `cwd` used last. Raises SessionNotFound."""
    if target is None:
        if root is None or cwd is None:
            raise SessionNotFound("no session given")
        return last_used_session(root, cwd).path
    as_path = Path(target).expanduser()
    if as_path.is_file():
        return as_path
    if (as_path / TRANSCRIPT_NAME).is_file():
        return as_path / TRANSCRIPT_NAME
    if as_path.is_dir():
        raise SessionNotFound(_not_a_session_folder(root, as_path))
    if root is None:
        raise SessionNotFound(f"{target}: no such transcript")
    return find_session(root, str(target)).path


def _not_a_session_folder(root: Path | None, folder: Path) -> str:
    """A folder that holds no transcript, often the project's own (`mrsmith view .`): say what ID takes
    and where that folder's sessions are."""
    sessions = list_sessions(root, cwd=folder) if root is not None else []
    where = (f"its newest session is {typed_id(sessions[0].id)} (mrsmith --list run there lists them)" if sessions
             else "no session was started there (mrsmith --list --all lists every folder's)")
    return f"{folder} is a folder, not a session: give a session id as mrsmith --list shows it; {where}"


def load_records(path: Path) -> tuple[list[msgs.Msg], list[str]]:
    """(records, warnings) of a transcript: its Msgs, read as format 2 (session.records); raises
    SessionNotFound when it cannot be read or holds none."""
    try:
        records, warnings = read_transcript(path)
    except OSError as e:
        raise SessionNotFound(f"cannot read the transcript {path}: {e.strerror or e}") from None
    if not records:
        raise SessionNotFound(f"the transcript {path} holds no records")
    return records, warnings


# --------------------------------------------------------------------------- listing text


def local_minute(ts: object) -> str:
    """The local date and minute of `ts`; "?" for one no date can show (NaN, 1e308, not a number)."""
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if isinstance(ts, (int, float)) else "?"
    except (ValueError, OverflowError, OSError):
        return "?"


def _clip(text: str, width: int) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


def _home_short(path: str) -> str:
    home = str(Path.home())
    return "~" + path[len(home):] if path == home or path.startswith(home + "/") else path


def _unique_width(ids: list[str], least: int = 8) -> int:
    """The shortest typed id (at least `least` characters of the tail) that tells every id apart."""
    width = least
    while width < 32 and len({typed_id(i, width) for i in ids}) < len(set(ids)):
        width += 1
    return width


def format_sessions(sessions: list[SessionInfo], *, show_dir: bool = False, prompt_width: int = 60,
                    headless_mark: str = "[headless]", narrow: bool = False) -> str:
    """The `--list` table: id, last used, agent/model, turns, [directory,] first prompt; a headless run's
    first prompt follows `headless_mark` (the picker's is shorter). `narrow` (a picker under 90 columns)
    leaves out the agent/model and the year, so a row still fits on one line."""
    if not sessions:
        return "no sessions"
    rows = [["ID", "LAST USED"] + ([] if narrow else ["AGENT/MODEL"]) + ["TURNS"] + (["DIRECTORY"] if show_dir else [])
            + ["FIRST PROMPT"]]
    width = _unique_width([s.id for s in sessions])
    for s in sessions:
        used = local_minute(s.used)
        row = [typed_id(s.id, width), used[5:] if narrow and used != "?" else used]
        row += ([] if narrow else [f"{s.agent}/{s.model}"]) + [str(s.turns)]
        if show_dir:
            row.append(_home_short(s.cwd))
        mark = f"{headless_mark} " if s.frontend == "headless" else ""
        row.append(mark + (_clip(s.first_prompt, max(8, prompt_width - len(mark))) or "-"))
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(r[:-1], widths, strict=True)) + "  " + r[-1] for r in rows
    )
