"""Small file helpers the writing tools share: atomic writes, diffs, reading current bytes."""

from __future__ import annotations

import difflib
import os
import tempfile
from pathlib import Path
from typing import Any


def read_bytes_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


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
        if mode is not None:
            os.chmod(tmp, mode)
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
