"""Folders and files only their owner can read: transcripts, prompt history, job logs.

Only mrsmith's own folders are made 0700; a missing parent such as ~/.local or ~/.config is
created as any program would create it (umask), and an existing one is left alone.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from mrsmith_tui.errors import MrSmithError

FILE_MODE, DIR_MODE = 0o600, 0o700


def private_dir(folder: Path, *, levels: int = 1) -> None:
    """Make `folder` (and missing parents) exist, with `folder` and its `levels - 1` nearest
    parents, and any missing folder named mrsmith*, set to 0700."""
    folder = Path(folder)
    ours = {folder, *list(folder.parents)[: max(0, levels - 1)]}
    missing = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for path in reversed(missing):
        mine = path in ours or path.name.startswith("mrsmith")
        try:
            path.mkdir(mode=DIR_MODE if mine else 0o777)
        except FileExistsError:
            pass
    for path in ours:
        if path.is_dir() and not path.is_symlink():
            os.chmod(path, DIR_MODE)


class NotOurs(MrSmithError, OSError):
    pass


def owned_private_dir(folder: Path) -> Path:
    """`folder` (e.g. /tmp/mrsmith-<uid>) made if missing, then checked: a real folder, ours, 0700
    (someone else could have made it first in a shared /tmp). Raises NotOurs otherwise."""
    try:
        folder.mkdir(mode=DIR_MODE)
    except FileExistsError:
        pass
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
        raise NotOurs(f"{folder} is not a folder of ours; remove it or set TMPDIR")
    if stat.S_IMODE(st.st_mode) != DIR_MODE:
        os.chmod(folder, DIR_MODE, follow_symlinks=False)
    return folder


def open_private(path: Path, flags: int) -> int:
    """An fd for `path` opened with `flags` | O_CREAT, created 0600 (and an older file tightened)."""
    fd = os.open(path, flags | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
    except OSError:
        os.close(fd)
        raise
    return fd


def read_regular(path: Path, limit: int) -> bytes:
    """At most `limit` bytes of `path`, which must be a regular file: a link, a FIFO or a device is refused
    (OSError) without blocking, as a file another program could swap in would be."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise OSError(e.errno, "a symbolic link; only a regular file is read") from e
        raise
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        return f.read(limit)
