"""Containment: every path a tool touches is resolved against the root and must stay in it.

The root is the directory the program started in. A path argument is refused, with a
message naming it, when it would reach outside the root by any route: an absolute path
elsewhere, `..`, a symlink anywhere along the way (dangling ones included: their target is
what a write would create), `/proc/self/root` and friends. Shapes that mean something else
on another system are refused explicitly rather than guessed at: `~` (no home expansion),
Windows drive letters, UNC paths and backslashes.

This is the check; the use goes through `dirfd`, which opens the resolved path from the
root through directory fds, so a tree changed in between cannot redirect it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from mrsmith_tui.errors import MrSmithError


class SandboxError(MrSmithError):
    """A path argument the tools will not touch; the message is one line for the model."""


_DRIVE = re.compile(r"^[A-Za-z]:([\\/]|$)")


def resolve(root: Path, raw: object, *, what: str = "path") -> Path:
    """The real absolute path `raw` names inside `root`, or SandboxError.

    The result has every symlink resolved, so reading or writing it cannot leave the root
    even when the argument went through a link.
    """
    if not isinstance(raw, str) or not raw.strip():
        raise SandboxError(f"{what} must be a non-empty string")
    if "\x00" in raw:
        raise SandboxError(f"{what} {raw!r} contains a NUL byte")
    if raw.startswith("~"):
        raise SandboxError(f"{what} {raw!r}: '~' is not expanded; give a path relative to the working directory")
    if _DRIVE.match(raw) or raw.startswith("\\\\"):
        raise SandboxError(f"{what} {raw!r} is a Windows path; give a POSIX path relative to the working directory")
    if "\\" in raw:
        raise SandboxError(f"{what} {raw!r} contains a backslash; use '/' as the separator")
    real_root = Path(os.path.realpath(root))
    candidate = Path(raw) if os.path.isabs(raw) else real_root / raw
    # realpath (non-strict) follows every symlink that exists, dangling ones included,
    # and applies `..` after the link it follows, as the kernel would.
    try:
        real = Path(os.path.realpath(candidate))
    except OSError as e:  # a link swapped for a directory between realpath's lstat and readlink
        raise SandboxError(f"{what} {raw!r} changed while it was being resolved ({e.strerror}); try again") from None
    if os.path.islink(real):  # realpath leaves a link it could not resolve: a loop
        raise SandboxError(f"{what} {raw!r} is a symlink loop")
    if real != real_root and real_root not in real.parents:
        raise SandboxError(f"{what} {raw!r} is outside the working directory {real_root} (it resolves to {real})")
    return real


def display(root: Path, path: Path) -> str:
    """`path` as the model should see it: relative to the root, '.' for the root itself."""
    real_root = Path(os.path.realpath(root))
    try:
        rel = path.relative_to(real_root)
    except ValueError:
        return str(path)
    return rel.as_posix() or "."
