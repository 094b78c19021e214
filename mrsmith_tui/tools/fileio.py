"""Small file helpers the writing tools share: atomic writes, diffs, reading current bytes."""

from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mrsmith_tui.tools.sandbox import SandboxError, display, resolve

MAX_DIFF_CHARS = 20_000  # of a diff told back to the model (the screen gets it whole)


@dataclass(frozen=True)
class WritePlan:
    """What a writing tool will do: shown in the approval, then carried out by commit_write."""

    path: Path
    shown: str
    before: bytes | None
    after: bytes
    diff: str


def locate_target(args: dict[str, Any], ctx: Any, *, regular_only: bool = False) -> tuple[Path, str, bytes | None] | str:
    """(path, shown, current bytes or None) of the file a writing tool names, or why it cannot be written:
    outside the root, a directory, (with regular_only) not a regular file, or changed since last read."""
    try:
        path = resolve(ctx.root, args.get("path"))
    except SandboxError as e:
        return str(e)
    shown = display(ctx.root, path)
    if path.is_dir():
        return f"{shown} is a directory"
    if regular_only and path.exists() and not path.is_file():
        return f"{shown} is not a regular file"
    before = read_bytes_or_none(path)
    if ctx.ledger is not None and ctx.ledger.stale(path, before):
        return ctx.ledger.stale_message(shown)
    return path, shown, before


def diff_for_model(diff: str) -> str:
    return diff if len(diff) <= MAX_DIFF_CHARS else diff[:MAX_DIFF_CHARS] + "\n[diff cut]"


def read_bytes_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def process_umask() -> int:
    """The umask, read without changing it (os.umask sets it, a race with other threads' files)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to a temp file beside `path`, then rename it over: never a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp makes 0600; a new file gets what any program would (0666 minus the umask), an old one keeps its mode
        os.chmod(tmp, mode if mode is not None else 0o666 & ~process_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def unified_diff(shown: str, before: str, after: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{shown}", f"b/{shown}"
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def commit_write(path: Path, after: bytes, shown: str, ledger: Any) -> str | None:
    """Write `after` atomically and tell the ledger; the error text for the model, or None."""
    try:
        write_atomic(path, after)
    except OSError as e:
        return f"cannot write {shown}: {e.strerror or e}"
    if ledger is not None:
        ledger.record(path, after)
    return None
