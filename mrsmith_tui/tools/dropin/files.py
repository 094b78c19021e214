"""Reading the tool folders: bounded and race-free.

A tool folder is opened component by component with O_NOFOLLOW (a linked `.mrsmith` or `tools` is
not followed out of the root); each file is opened relative to it with O_NOFOLLOW | O_NONBLOCK (a
link or a FIFO never blocks nor leads elsewhere), checked to be a regular file and read up to
MAX_FILE_BYTES. The same read serves discovery and the check before every call, so what runs is
exactly what was read, digested and (for a project tool) trusted.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "MAX_FILES",
    "MAX_FILE_BYTES",
    "MAX_TOTAL_BYTES",
    "FileProblem",
    "ToolFile",
    "digest_of",
    "list_folder",
    "read_file",
]

MAX_FILE_BYTES = 64 * 1024  # a tool file larger than this is refused unread
MAX_FILES = 64  # .py files looked at in one folder
MAX_TOTAL_BYTES = 512 * 1024  # bytes read from one folder in one load (a parse of 64 KiB can take 20 ms)
_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


class FileProblem(Exception):
    """One line: why a file or folder could not be read."""


@dataclass(frozen=True)
class ToolFile:
    path: Path  # as shown: absolute
    data: bytes
    digest: str  # sha256 of the bytes

    @property
    def stem(self) -> str:
        return self.path.stem


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _open_folder(base: Path, parts: tuple[str, ...]) -> int:
    """The folder base/parts…, each part opened without following a link; raises FileNotFoundError, FileProblem."""
    fd = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        for part in parts:
            try:
                nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as e:
                if isinstance(e, FileNotFoundError):
                    raise
                if e.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise FileProblem(f"{base.joinpath(*parts)}: not a folder of its own (a link or a file)") from None
                raise FileProblem(f"{base.joinpath(*parts)}: cannot be read ({e.strerror or e})") from None
            os.close(fd)
            fd = nxt
        return fd
    except BaseException:
        os.close(fd)
        raise


def _read_at(dir_fd: int, name: str, shown: Path) -> bytes:
    try:
        fd = os.open(name, _OPEN_FLAGS, dir_fd=dir_fd)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.EMLINK):
            raise FileProblem(f"{shown}: a link, not read (put the file itself there)") from None
        raise FileProblem(f"{shown}: cannot be read ({e.strerror or e})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem(f"{shown}: not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            raise FileProblem(f"{shown}: {st.st_size} bytes, over the {MAX_FILE_BYTES // 1024} KiB a tool file may have")
        chunks: list[bytes] = []
        got = 0
        while got <= MAX_FILE_BYTES:
            try:
                chunk = os.read(fd, MAX_FILE_BYTES + 1 - got)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > MAX_FILE_BYTES:
            raise FileProblem(f"{shown}: over the {MAX_FILE_BYTES // 1024} KiB a tool file may have")
        return b"".join(chunks)
    except OSError as e:
        raise FileProblem(f"{shown}: cannot be read ({e.strerror or e})") from None
    finally:
        os.close(fd)


def read_file(base: Path, parts: tuple[str, ...], name: str) -> ToolFile:
    """One tool file base/parts…/name, read as discovery and the pre-call check read it. Raises FileProblem."""
    shown = base.joinpath(*parts, name)
    try:
        fd = _open_folder(base, parts)
    except FileNotFoundError:
        raise FileProblem(f"{shown}: gone") from None
    except OSError as e:
        raise FileProblem(f"{shown}: cannot be read ({e.strerror or e})") from None
    try:
        data = _read_at(fd, name, shown)
    finally:
        os.close(fd)
    return ToolFile(shown, data, digest_of(data))


def list_folder(base: Path, parts: tuple[str, ...]) -> tuple[list[ToolFile], list[str]]:
    """The folder's `*.py` files in name order (at most MAX_FILES, MAX_TOTAL_BYTES in all) and one problem
    line per file that could not be read. A folder that does not exist has no files and no problem."""
    folder = base.joinpath(*parts)
    try:
        fd = _open_folder(base, parts)
    except FileNotFoundError:
        return [], []
    except FileProblem as e:
        return [], [str(e)]
    except OSError as e:
        return [], [f"{folder}: cannot be read ({e.strerror or e})"]
    found: list[ToolFile] = []
    problems: list[str] = []
    try:
        try:
            names = sorted(n for n in os.listdir(fd) if n.endswith(".py") and not n.startswith("."))
        except OSError as e:
            return [], [f"{folder}: cannot be listed ({e.strerror or e})"]
        if len(names) > MAX_FILES:
            problems.append(f"{folder}: {len(names)} tool files, only the first {MAX_FILES} (by name) are looked at")
            names = names[:MAX_FILES]
        total = 0
        for i, name in enumerate(names):
            if total >= MAX_TOTAL_BYTES:
                problems.append(f"{folder}: {len(names) - i} more tool files left out: the folder's files passed "
                                f"{MAX_TOTAL_BYTES // 1024} KiB in all")
                break
            try:
                tool_file = _read_one(fd, name, folder / name)
            except FileProblem as e:
                problems.append(str(e))
                continue
            total += len(tool_file.data)
            found.append(tool_file)
    finally:
        os.close(fd)
    return found, problems


def _read_one(dir_fd: int, name: str, shown: Path) -> ToolFile:
    data = _read_at(dir_fd, name, shown)
    return ToolFile(shown, data, digest_of(data))
