"""Small file helpers the writing tools share: the current file, bounded diffs, atomic writes.

Everything goes through `dirfd` (directory file descriptors beneath the root), and every
size is bounded: a file bigger than MAX_HELD_BYTES is never loaded to plan a write, a diff
is only computed when both sides together fit MAX_DIFF_INPUT, and the ledger remembers a
big file by its size and times instead of hashing gigabytes.
"""

from __future__ import annotations

import difflib
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mrsmith_tui.tools import dirfd
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.sandbox import SandboxError, display, resolve

MAX_DIFF_CHARS = 20_000  # of a diff told back to the model (the screen gets it whole)
MAX_DIFF_INPUT = 2 * 1024 * 1024  # bytes before + after for which a diff is computed at all
MAX_DIFF_SHOWN = 256 * 1024  # characters of a diff kept for the screen, the approval and stderr
MAX_HELD_BYTES = 8 * 1024 * 1024  # an existing file a write or edit loads to plan the change
HASH_LIMIT = 16 * 1024 * 1024  # files up to this are fingerprinted by content, bigger ones by size and times
_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class Current:
    """What is at a target path now."""

    exists: bool
    size: int = 0
    data: bytes | None = None  # None when absent or bigger than MAX_HELD_BYTES
    fingerprint: str | None = None  # for the ledger


@dataclass(frozen=True)
class WritePlan:
    """What a writing tool will do: shown in the approval, then carried out by commit_write."""

    path: Path
    shown: str
    current: Current
    after: bytes
    diff: str

    @property
    def before(self) -> bytes | None:
        return self.current.data if self.current.exists else None


def fingerprint(fd: int, st: os.stat_result) -> str:
    """The file's sha256 (as ledger.digest computes it) up to HASH_LIMIT; beyond, its size, mtime and inode."""
    if st.st_size > HASH_LIMIT:
        return f"stat:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"
    h, pos = hashlib.sha256(), 0
    while chunk := os.pread(fd, _CHUNK, pos):
        h.update(chunk)
        pos += len(chunk)
    return h.hexdigest()


def read_all(fd: int, limit: int) -> bytes:
    """The file's bytes from the start, at most `limit` of them."""
    parts, pos = [], 0
    while pos < limit and (chunk := os.pread(fd, min(_CHUNK, limit - pos), pos)):
        parts.append(chunk)
        pos += len(chunk)
    return b"".join(parts)


def current(root: Path, path: Path, cancelled: Callable[[], bool] | None = None) -> Current:
    """The file at `path` now (FileNotFoundError never escapes: absent is Current(exists=False))."""
    try:
        with dirfd.open_file(root, path, cancelled) as (fd, st):
            data = read_all(fd, st.st_size + 1) if st.st_size <= MAX_HELD_BYTES else None
            if data is not None and len(data) > MAX_HELD_BYTES:
                data = None  # grew while being read
            fp = ledger_digest(data) if data is not None and len(data) <= HASH_LIMIT else fingerprint(fd, os.fstat(fd))
            return Current(True, st.st_size if data is None else len(data), data, fp)
    except FileNotFoundError:
        return Current(False)


def ledger_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def locate_target(args: dict[str, Any], ctx: ToolContext) -> tuple[Path, str, Current] | str:
    """(path, shown, what is there now) of the file a writing tool names, or why it cannot be written:
    outside the root, a directory, not a regular file, linked in from outside, or changed since last read."""
    try:
        path = resolve(ctx.root, args.get("path"))
    except SandboxError as e:
        return str(e)
    shown = display(ctx.root, path)
    try:
        now = current(ctx.root, path, lambda: ctx.cancel.cancelled)
    except (SandboxError, OSError) as e:
        return _access_error("read", shown, e)
    if ctx.ledger is not None and ctx.ledger.stale_fingerprint(path, now.fingerprint):
        return ctx.ledger.stale_message(shown)
    return path, shown, now


def diff_for_model(diff: str) -> str:
    return diff if len(diff) <= MAX_DIFF_CHARS else diff[:MAX_DIFF_CHARS] + "\n[diff cut]"


def too_large(before_size: int, after_size: int) -> bool:
    return before_size + after_size > MAX_DIFF_INPUT


def too_large_text(before_size: int, after_size: int) -> str:
    return f"(diff too large, {before_size + after_size} bytes: {before_size} before, {after_size} after; not shown)\n"


def unified_diff(shown: str, before: str, after: str) -> str:
    if too_large(len(before), len(after)):
        return too_large_text(len(before.encode("utf-8", "replace")), len(after.encode("utf-8", "replace")))
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{shown}", f"b/{shown}"
    )
    diff = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
    if len(diff) <= MAX_DIFF_SHOWN:
        return diff
    cut = diff.rfind("\n", 0, MAX_DIFF_SHOWN) + 1 or MAX_DIFF_SHOWN
    return diff[:cut] + f"[diff cut: {len(diff) - cut} more characters not shown]\n"


def commit_write(path: Path, after: bytes, shown: str, ctx: ToolContext) -> str | None:
    """Write `after` atomically beneath the root and tell the ledger; the error text for the model, or None.
    The file's prior bytes are kept for /undo first (tools/checkpoints.py)."""
    if ctx.checkpoints is not None:
        ctx.checkpoints.before_write(ctx.cancel, ctx.root, path, shown)
    try:
        st = dirfd.write_atomic(ctx.root, path, after)
    except (SandboxError, OSError) as e:
        return _access_error("write", shown, e)
    if ctx.checkpoints is not None:
        ctx.checkpoints.after_write(ctx.cancel, ctx.root, path, after)
    if ctx.ledger is not None:
        fp = ledger_digest(after) if len(after) <= HASH_LIMIT else f"stat:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"
        ctx.ledger.record_fingerprint(path, fp)
    return None


def _access_error(verb: str, shown: str, e: Exception) -> str:
    """One line for the model about a read or write of `shown` that failed."""
    if isinstance(e, SandboxError):
        return str(e)
    if isinstance(e, IsADirectoryError):
        return f"cannot {verb} {shown}: it is a directory"
    if isinstance(e, NotADirectoryError):
        return f"cannot {verb} {shown}: a part of the path is not a directory"
    return f"cannot {verb} {shown}: {getattr(e, 'strerror', None) or e}"
