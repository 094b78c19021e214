"""Race-free access beneath the root: every open goes through directory file descriptors.

`sandbox.resolve` turns an argument into a real path inside the root (following the
symlinks that exist then). Between that check and the use, another process may swap a
directory for a symlink. So the use never goes by name from `/`: it opens the root, then
each component of the resolved path with `openat(dir_fd, name, O_NOFOLLOW)`. A resolved
path has no symlinks and no `..`, so meeting a symlink on the way means the tree changed
under us, and the call is refused; once a directory is open, swapping its name does not
change what the descriptor refers to. The object checked is the object used.

Regular files only: FIFOs, sockets and devices are refused without blocking (the final
open is O_NONBLOCK and the type is checked with fstat on the opened descriptor). A file
with more than one hard link is refused unless every one of its links is found inside
the root by inode (dev, ino), which proves no outside path names the same file.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from mrsmith_tui.tools.sandbox import SandboxError

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
LINK_SCAN_LIMIT = 200_000  # entries looked at to find a hard-linked file's other links


class Unsafe(SandboxError):
    """The path cannot be opened safely (it changed while being opened, or is not a plain file)."""


_ROOT_IDS: dict[str, tuple[int, int]] = {}  # root as configured -> (st_dev, st_ino) when first opened


def open_root(root: Path) -> int:
    """An fd of the working directory, which must be the directory it was when first opened: a root moved
    away and replaced (by a link elsewhere, or another directory) is refused, not followed."""
    fd = os.open(os.path.realpath(root), os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    st = os.fstat(fd)
    known = _ROOT_IDS.setdefault(str(root), (st.st_dev, st.st_ino))
    if known != (st.st_dev, st.st_ino):
        os.close(fd)
        raise Unsafe(f"the working directory {root} was moved or replaced since mrsmith started; "
                     "restart mrsmith in the directory you mean")
    return fd


def _parts(root: Path, path: Path) -> tuple[str, tuple[str, ...]]:
    real_root = os.path.realpath(root)
    try:
        rel = Path(path).relative_to(real_root)
    except ValueError:
        raise Unsafe(f"{path} is outside the working directory {real_root}") from None
    return real_root, rel.parts


def _shown(parts: tuple[str, ...]) -> str:
    return "/".join(parts) or "."


def _changed(parts: tuple[str, ...]) -> Unsafe:
    return Unsafe(f"{_shown(parts)} changed while it was being opened (a symlink or another file appeared on the way); "
                  "nothing was read or written")


def _still_inside(fd: int, real_root: str, parts: tuple[str, ...]) -> None:
    """A directory on the way may have been moved out of the root while open: look where the fd is now."""
    try:
        where = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return  # no /proc: the walk itself is the guarantee
    if where != real_root and not where.startswith(real_root.rstrip("/") + "/"):
        raise Unsafe(f"{_shown(parts)} is no longer inside the working directory {real_root}")


def _open_dir_at(dir_fd: int, name: str, parts: tuple[str, ...], create: bool,
                 made: list[tuple[int, str]] | None = None) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        if not create:
            raise
    except NotADirectoryError:
        try:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            raise _changed(parts) from None
        if stat.S_ISLNK(st.st_mode):
            raise _changed(parts) from None
        raise
    try:
        os.mkdir(name, 0o777, dir_fd=dir_fd)
        if made is not None:
            made.append((os.dup(dir_fd), name))
    except FileExistsError:
        pass  # made meanwhile: opened below like any other
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except NotADirectoryError:
        raise _changed(parts) from None


def _walk(root: Path, real_root: str, parts: tuple[str, ...], *, create: bool = False,
          made: list[tuple[int, str]] | None = None) -> int:
    """An fd of the directory `parts` beneath the root (the caller closes it). Directories made on
    the way are added to `made` as (fd of their parent, name)."""
    fd = open_root(root)
    try:
        for i, name in enumerate(parts):
            if name in ("", ".", ".."):
                raise _changed(parts)
            nxt = _open_dir_at(fd, name, parts[: i + 1], create, made)
            os.close(fd)
            fd = nxt
        if parts:
            _still_inside(fd, real_root, parts)
        return fd
    except BaseException:
        os.close(fd)
        raise


@contextmanager
def open_dir(root: Path, path: Path) -> Iterator[int]:
    """The directory `path` (inside `root`) as an fd. FileNotFoundError / NotADirectoryError as usual."""
    real_root, parts = _parts(root, path)
    fd = _walk(root, real_root, parts)
    try:
        yield fd
    finally:
        os.close(fd)


@contextmanager
def parent_dir(root: Path, path: Path, *, create: bool = False) -> Iterator[tuple[int, str]]:
    """(fd of the directory holding `path`, its last name), making missing directories with `create`."""
    real_root, parts = _parts(root, path)
    if not parts:
        raise IsADirectoryError(f"{real_root} is the working directory")
    made: list[tuple[int, str]] = []
    try:
        fd = _walk(root, real_root, parts[:-1], create=create, made=made)
        try:
            yield fd, parts[-1]
        finally:
            os.close(fd)
    except BaseException:
        for pfd, name in reversed(made):  # a failed write leaves no directories it made behind
            try:
                os.rmdir(name, dir_fd=pfd)
            except OSError:
                pass
        raise
    finally:
        for pfd, _ in made:
            os.close(pfd)


def _check_links(root: Path, st: os.stat_result, shown: str, cancelled: Callable[[], bool] | None = None) -> None:
    if st.st_nlink <= 1:
        return
    found = count_links_inside(root, st.st_dev, st.st_ino, st.st_nlink, cancelled)
    if found < st.st_nlink:
        raise Unsafe(f"{shown} has {st.st_nlink} hard links and not all of them are inside the working directory; "
                     "a file linked in from outside is neither read nor written")


def count_links_inside(root: Path, dev: int, ino: int, want: int, cancelled: Callable[[], bool] | None = None) -> int:
    """How many names beneath the root are the file (dev, ino); stops at `want` or LINK_SCAN_LIMIT entries."""
    return len(links_inside(root, dev, ino, want, cancelled))


def links_inside(root: Path, dev: int, ino: int, want: int, cancelled: Callable[[], bool] | None = None) -> list[str]:
    """The names beneath the root (root-relative, POSIX) that are the file (dev, ino); stops at `want`
    of them or LINK_SCAN_LIMIT entries.

    Depth first with one open fd per level; a directory renamed during the scan (listed under two
    names) is counted once, by its own inode."""
    found: list[str] = []
    seen = 0
    visited: set[tuple[int, int]] = set()
    frames: list[tuple[int, list[str], str]] = []

    def enter(fd: int, prefix: str) -> None:
        nonlocal seen
        subdirs: list[str] = []
        frames.append((fd, subdirs, prefix))  # closed by the loop or the finally, whatever happens below
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) in visited:
            return
        visited.add((st.st_dev, st.st_ino))
        try:
            with os.scandir(fd) as entries:
                for entry in entries:
                    seen += 1
                    if entry.inode() == ino and not entry.is_symlink():
                        try:
                            if entry.stat(follow_symlinks=False).st_dev == dev:
                                found.append(prefix + entry.name)
                        except OSError:
                            pass
                    elif entry.is_dir(follow_symlinks=False):
                        subdirs.append(entry.name)
        except OSError:
            pass  # unreadable: links in it are not found, so the file is refused

    try:
        enter(open_root(root), "")
        while frames and len(found) < want and seen < LINK_SCAN_LIMIT:
            if cancelled is not None and cancelled():
                break
            fd, subdirs, prefix = frames[-1]
            if not subdirs:
                os.close(frames.pop()[0])
                continue
            name = subdirs.pop()
            try:
                enter(os.open(name, _DIR_FLAGS, dir_fd=fd), f"{prefix}{name}/")
            except OSError:
                pass  # gone or unreadable: its links are not found, so the file is refused
    finally:
        for fd, _, _ in frames:
            os.close(fd)
    return found


def _open_regular_at(dir_fd: int, name: str, parts: tuple[str, ...]) -> tuple[int, os.stat_result]:
    before = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)  # FileNotFoundError as usual
    if stat.S_ISLNK(before.st_mode):
        raise _changed(parts)
    if stat.S_ISDIR(before.st_mode):
        raise IsADirectoryError(_shown(parts))
    if not stat.S_ISREG(before.st_mode):
        raise Unsafe(f"{_shown(parts)} is not a regular file")
    try:
        fd = os.open(name, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError as e:
        if e.errno in (40, 20):  # ELOOP, ENOTDIR: swapped for a symlink meanwhile
            raise _changed(parts) from None
        raise
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):
        os.close(fd)
        raise _changed(parts)
    return fd, st


@contextmanager
def open_file(root: Path, path: Path, cancelled: Callable[[], bool] | None = None) -> Iterator[tuple[int, os.stat_result]]:
    """(fd, fstat) of the regular file `path` inside `root`, opened for reading.

    FileNotFoundError / IsADirectoryError as usual; Unsafe for a symlink met on the way,
    a FIFO, socket or device, or a hard link from outside.
    """
    real_root, parts = _parts(root, path)
    if not parts:
        raise IsADirectoryError(real_root)
    dfd = _walk(root, real_root, parts[:-1])
    try:
        fd, st = _open_regular_at(dfd, parts[-1], parts)
        try:
            # One stat gives the name's inode and its link count at one instant: a name inside that is
            # the only link proves the file inside (fstat alone cannot: the name may be gone by then).
            now = os.stat(parts[-1], dir_fd=dfd, follow_symlinks=False)
        except OSError:
            now = None
        if now is None or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            os.close(fd)
            raise _changed(parts)
    finally:
        os.close(dfd)
    try:
        _still_inside(fd, real_root, parts)
        if now.st_nlink > 1:
            _check_links(root, now, _shown(parts), cancelled)
            after = os.fstat(fd)
            if (after.st_nlink, after.st_ctime_ns) != (now.st_nlink, now.st_ctime_ns):
                raise _changed(parts)  # links were made or removed while they were being counted
        os.set_blocking(fd, True)
        yield fd, st
    finally:
        os.close(fd)


def lstat_at(root: Path, path: Path) -> os.stat_result | None:
    """lstat of `path` through the parent's fd; None when it does not exist."""
    try:
        with parent_dir(root, path) as (dfd, name):
            return os.stat(name, dir_fd=dfd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def write_atomic(root: Path, path: Path, chunks: bytes) -> os.stat_result:
    """Write `chunks` to a temp file in the target's directory (through its fd), then rename it over.

    Never a half-written file; the rename replaces whatever name is there (a symlink swapped in
    is replaced, not followed). The mode of an existing file is kept, less setuid/setgid; a
    read-only file (no write bit) is refused; a new file gets 0666 less the umask; directories
    made for it are removed again if the write fails. Another hard link inside the root keeps
    the old content (the name written gets a new file). Returns the fstat of the written file.
    """
    _real_root, parts = _parts(root, path)
    with parent_dir(root, path, create=True) as (dfd, name):
        try:
            old = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        except FileNotFoundError:
            old = None
        if old is not None:
            if stat.S_ISDIR(old.st_mode):
                raise IsADirectoryError(_shown(parts))
            if stat.S_ISLNK(old.st_mode):
                raise _changed(parts)  # a resolved path has none: it was swapped in
            if not stat.S_ISREG(old.st_mode):
                raise Unsafe(f"{_shown(parts)} is not a regular file")
            if not stat.S_IMODE(old.st_mode) & 0o222:
                raise Unsafe(f"{_shown(parts)} is read-only (mode {stat.S_IMODE(old.st_mode):04o}); "
                             "make it writable first (chmod u+w) if it is meant to change")
            _check_links(root, old, _shown(parts))
        tmp = f".mrsmith-{secrets.token_hex(6)}.tmp"  # short: a 255-byte name still fits
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666, dir_fd=dfd)
        try:
            try:
                view = memoryview(chunks)
                while view:
                    view = view[os.write(fd, view):]
                if old is not None:
                    os.fchmod(fd, stat.S_IMODE(old.st_mode) & ~(stat.S_ISUID | stat.S_ISGID))  # as any rewrite does
                os.fsync(fd)
                st = os.fstat(fd)
            finally:
                os.close(fd)
            os.rename(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=dfd)
            except FileNotFoundError:
                pass
            raise
        return st
