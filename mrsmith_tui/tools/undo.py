"""`/undo [N]`: put back the files the last N turns changed through the file tools (checkpoints.py
recorded them), newest turn first, so each file ends as it was before the oldest of those turns.

Restoring goes through the same race-free access as the tools (dirfd): no symbolic link is followed,
nothing outside the root is touched, a file is replaced atomically, and a file the turn created is
removed (only if it is still a regular file). A file that cannot be put back is one line saying why, and
its turn stays recorded (fix it and /undo again); a turn put back whole is forgotten, so the next /undo
steps further back. Files changed by shell commands were never recorded, and the text says so.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mrsmith_tui.security.private_files import read_regular
from mrsmith_tui.tools import dirfd
from mrsmith_tui.tools.checkpoints import FOLDER, MANIFEST, MAX_FILE_BYTES, MAX_TURNS, digest, turn_folders
from mrsmith_tui.tools.sandbox import SandboxError
from mrsmith_tui.words import counted

SHELL_NOTE = "files changed by shell commands are not tracked and stay as they are"
CHANGED_NOTE = "changed since that turn: those later changes are lost too"
MAX_MANIFEST_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Turn:
    number: int
    folder: Path
    files: tuple[dict[str, Any], ...]


@dataclass
class Outcome:
    lines: list[str] = field(default_factory=list)
    restored: int = 0
    refused: int = 0


def checkpoints_folder(transcript: Path | None) -> Path | None:
    return transcript.parent / FOLDER if transcript is not None else None


def recorded_turns(transcript: Path | None, limit: int = MAX_TURNS) -> list[Turn]:
    """The newest `limit` turns that can be undone, newest first (only their records are read)."""
    folder = checkpoints_folder(transcript)
    if folder is None:
        return []
    turns: list[Turn] = []
    for number, path in reversed(turn_folders(folder)[-MAX_TURNS:]):
        if len(turns) >= limit:
            break
        try:
            manifest = json.loads(read_regular(path / MANIFEST, MAX_MANIFEST_BYTES))
            files = tuple(f for f in manifest["files"] if isinstance(f, dict) and isinstance(f.get("path"), str))
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a turn whose record is torn (killed mid-write) is not offered
        if files:
            turns.append(Turn(number, path, files))
    return turns


def _what(entry: dict[str, Any]) -> str:
    state = entry.get("state")
    if state == "absent":
        return "created by the turn: removed"
    if state == "file":
        return "put back as it was"
    return f"not undoable: {entry.get('why', 'not recorded')}"


def plan_lines(turns: list[Turn], root: Path | None = None) -> list[str]:
    """What /undo would do, a line a file, newest turn first; with `root`, a file changed since the turn
    that last wrote it (by the person or a command) says its later changes go too."""
    lines, seen = [], set()
    for turn in turns:
        for entry in turn.files:
            changed = root is not None and entry["path"] not in seen and changed_since(Path(os.path.realpath(root)), entry)
            seen.add(entry["path"])
            lines.append(f"{entry.get('shown') or entry['path']}: {_what(entry)}" + (f" ({CHANGED_NOTE})" if changed else ""))
    return lines


def changed_since(root: Path, entry: dict[str, Any]) -> bool:
    """The file is not what the turn left in it (a turn recorded before this was known never says so)."""
    after = entry.get("after")
    if not isinstance(after, str) or entry.get("state") not in ("file", "absent"):
        return False
    rel = entry["path"]
    if os.path.isabs(rel) or ".." in Path(rel).parts:
        return False
    try:
        with dirfd.open_file(root, root / rel) as (fd, st):
            if st.st_size > MAX_FILE_BYTES:
                return True
            data = os.pread(fd, MAX_FILE_BYTES + 1, 0)
    except FileNotFoundError:
        return entry.get("state") == "file"  # removed since: putting it back undoes that too
    except (SandboxError, OSError):
        return False  # a link or a folder there now: restoring refuses it anyway
    return digest(data) != after


def undo(root: Path, transcript: Path | None, steps: int = 1) -> Outcome:
    """Put back the last `steps` turns' files. Never raises for a file: each result is a line."""
    out = Outcome()
    turns = recorded_turns(transcript, steps)
    if not turns:
        out.lines.append(f"nothing to undo: no turn of this session changed files through the file tools ({SHELL_NOTE})")
        return out
    real_root = Path(os.path.realpath(root))
    for turn in turns:
        before = out.refused
        for entry in turn.files:
            _restore(real_root, turn, entry, out)
        if out.refused == before:
            shutil.rmtree(turn.folder, ignore_errors=True)
        else:
            out.lines.append(f"turn {turn.number} stays recorded: fix what was refused and /undo again")
            break  # an older turn is never put back over a newer one left half undone
    out.lines.append(f"({SHELL_NOTE})")
    return out


def _restore(root: Path, turn: Turn, entry: dict[str, Any], out: Outcome) -> None:
    rel = entry["path"]
    shown = entry.get("shown") or rel
    if os.path.isabs(rel) or ".." in Path(rel).parts:
        out.refused += 1
        out.lines.append(f"{shown}: refused: the record names a path outside the working directory")
        return
    path = root / rel
    state = entry.get("state")
    changed = f" ({CHANGED_NOTE})" if changed_since(root, entry) else ""
    try:
        if state == "file":
            data = read_regular(turn.folder / str(entry.get("blob", "")), MAX_FILE_BYTES + 1)
            if len(data) != entry.get("size"):
                raise OSError("its checkpoint is damaged")
            dirfd.write_atomic(root, path, data)
            out.lines.append(f"{shown}: put back as it was ({counted(len(data), 'byte')}){changed}")
        elif state == "absent":
            out.lines.append(f"{shown}: {_remove(root, path)}{changed}")
        else:
            out.lines.append(f"{shown}: {_what(entry)}")
            return
    except (SandboxError, OSError) as e:
        out.refused += 1
        out.lines.append(f"{shown}: refused: {getattr(e, 'strerror', None) or e}")
        return
    out.restored += 1


def _remove(root: Path, path: Path) -> str:
    """Remove the file a turn created, if it is still a plain file where it made it."""
    try:
        with dirfd.parent_dir(root, path) as (dfd, name):
            try:
                st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
            except FileNotFoundError:
                return "created by the turn, already gone"
            if not stat.S_ISREG(st.st_mode):
                raise dirfd.Unsafe("it is no longer the plain file the turn created (a link or folder is there now)")
            os.unlink(name, dir_fd=dfd)
    except FileNotFoundError:
        return "created by the turn, already gone"
    return "created by the turn: removed"
