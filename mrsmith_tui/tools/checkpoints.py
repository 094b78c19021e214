"""What `/undo` needs: before the file tools replace a file, its prior bytes are kept.

Each person's turn that changes files through write_file or edit gets a folder in the session's
private folder (0700 folders, 0600 files; the bytes can be a secret's):

    <session>/checkpoints/turn-000007/manifest.json   which files, and what each was before the turn
    <session>/checkpoints/turn-000007/000001.bin      the prior bytes of one file

Only the first write of a file in a turn is kept (that is its state before the turn). A file that did
not exist is recorded as absent (undo removes it). Bounded: a file over MAX_FILE_BYTES, or over what is
left of MAX_SESSION_BYTES, is recorded as not undoable; the oldest turns go beyond MAX_TURNS. Files a
shell command changes are not seen here (undo.py says so). Recording never stops a write: a failure
to record is itself recorded as not undoable. Restoring: undo.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mrsmith_tui.security.private_files import DIR_MODE, open_private
from mrsmith_tui.tools import dirfd
from mrsmith_tui.tools.sandbox import SandboxError

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_SESSION_BYTES = 256 * 1024 * 1024
MAX_TURNS = 200
FOLDER = "checkpoints"
MANIFEST = "manifest.json"
TURN_RE = re.compile(r"^turn-(\d{6,})$")


def turn_folders(folder: Path) -> list[tuple[int, Path]]:
    """The recorded turns under `<session>/checkpoints`, oldest first."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = [(int(m.group(1)), folder / n) for n in names if (m := TURN_RE.match(n))]
    return sorted(found)


def private_folder(path: Path) -> None:
    """`path` as a folder only its owner reads (made if missing; never through a symbolic link)."""
    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        if path.is_symlink() or not path.is_dir():
            raise OSError(f"{path} is not a folder") from None
    os.chmod(path, DIR_MODE)


def write_private(path: Path, data: bytes) -> None:
    """`data` into a new 0600 file beside `path`, then renamed over it (never half written)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    fd = open_private(tmp, os.O_WRONLY | os.O_EXCL)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


class Checkpoints:
    """One session's recorder. `transcript` says where the session's transcript is now (its folder holds
    the checkpoints; None: the session keeps no files, so nothing is recorded); a new run (a new cancel
    token on the tool context) is a new turn."""

    def __init__(self, transcript: Callable[[], Path | None]) -> None:
        self._transcript = transcript
        self._lock = threading.Lock()
        self._run: object | None = None
        self._turn: Path | None = None
        self._entries: dict[str, dict[str, Any]] = {}
        self._used: int | None = None  # bytes kept in this session's checkpoints (counted once)
        self._folder: Path | None = None

    def before_write(self, run: object, root: Path, path: Path, shown: str) -> None:
        """Keep what `path` holds now, once a turn. Never raises: a write is never stopped by its checkpoint."""
        with self._lock:
            try:
                self._record(run, root, path, shown)
            except Exception:
                pass

    def after_write(self, run: object, root: Path, path: Path, data: bytes) -> None:
        """Note what the turn left in `path` (its digest), so /undo can tell a file changed since the turn
        (by the person or a command) from one the turn left as it was. Never raises."""
        with self._lock:
            try:
                entry = self._entries.get(os.path.relpath(path, os.path.realpath(root))) if run is self._run else None
                if entry is not None and self._turn is not None:
                    entry["after"] = digest(data)
                    self._save_manifest()
            except Exception:
                pass

    def _record(self, run: object, root: Path, path: Path, shown: str) -> None:
        transcript = self._transcript()
        if transcript is None:
            return
        folder = transcript.parent / FOLDER
        if run is not self._run or self._folder != folder:
            self._run, self._turn, self._entries = run, None, {}
        if self._folder != folder:
            self._folder, self._used = folder, None
        rel = os.path.relpath(path, os.path.realpath(root))
        if rel in self._entries:
            return  # the first write of the turn holds the state before it
        if self._turn is None:
            self._turn = self._new_turn(folder)
        entry: dict[str, Any] = {"path": rel, "shown": shown}
        self._entries[rel] = entry
        try:
            self._keep(root, path, entry)
        except (SandboxError, OSError) as e:
            entry.update(state="not-undoable", why=f"its bytes could not be read ({getattr(e, 'strerror', None) or e})")
        self._save_manifest()

    def _keep(self, root: Path, path: Path, entry: dict[str, Any]) -> None:
        try:
            with dirfd.open_file(root, path) as (fd, st):
                if st.st_size > MAX_FILE_BYTES:
                    entry.update(state="not-undoable", why=f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
                    return
                if self._used_bytes() + st.st_size > MAX_SESSION_BYTES:
                    entry.update(state="not-undoable",
                                 why=f"this session's checkpoints are full ({MAX_SESSION_BYTES // (1024 * 1024)} MiB)")
                    return
                data = _read(fd, st.st_size)
        except FileNotFoundError:
            entry["state"] = "absent"
            return
        assert self._turn is not None
        blob = f"{len(self._entries):06d}.bin"
        write_private(self._turn / blob, data)
        self._used = self._used_bytes() + len(data)
        entry.update(state="file", blob=blob, size=len(data))

    def _used_bytes(self) -> int:
        if self._used is None:
            total = 0
            for _, turn in turn_folders(self._folder) if self._folder is not None else []:
                for name in os.listdir(turn):
                    if name.endswith(".bin"):
                        total += os.stat(turn / name, follow_symlinks=False).st_size
            self._used = total
        return self._used

    def _new_turn(self, folder: Path) -> Path:
        private_folder(folder)
        turns = turn_folders(folder)
        number = turns[-1][0] + 1 if turns else 1
        for _, old in turns[: max(0, len(turns) + 1 - MAX_TURNS)]:
            shutil.rmtree(old, ignore_errors=True)
            self._used = None
        turn = folder / f"turn-{number:06d}"
        private_folder(turn)
        return turn

    def _save_manifest(self) -> None:
        assert self._turn is not None
        text = json.dumps({"files": list(self._entries.values())}, indent=1)
        write_private(self._turn / MANIFEST, text.encode("utf-8"))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read(fd: int, size: int) -> bytes:
    parts, pos = [], 0
    while pos <= size and (chunk := os.pread(fd, min(1024 * 1024, size + 1 - pos), pos)):
        parts.append(chunk)
        pos += len(chunk)
    data = b"".join(parts)
    if len(data) > MAX_FILE_BYTES:
        raise OSError("it grew while it was read")
    return data
