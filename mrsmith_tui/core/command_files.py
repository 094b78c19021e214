"""Finds the custom commands on disk: the project's `.mrsmith/commands/` and your
`~/.config/mrsmith/commands/` (command syntax and precedence: custom_commands.py).

Bounded and careful: at most MAX_FILES command files (yours are read first), MAX_FILE_BYTES each, folders
MAX_DEPTH deep. Everything is opened through directory descriptors without following a symbolic link;
the project's folder must be a real folder inside the root (a cloned repository's link to `~/.ssh`
is refused), and a project file with other hard links is not read. A file that cannot be used is one
line naming it, and the other commands still load.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from mrsmith_tui.core.custom_commands import (
    CommandFileError,
    CommandSet,
    CustomCommand,
    command_name,
    merged,
    parse_command,
)
from mrsmith_tui.paths import config_dir
from mrsmith_tui.tools.dirfd import open_dir
from mrsmith_tui.tools.sandbox import SandboxError

MAX_FILE_BYTES = 64 * 1024
MAX_FILES = 200
MAX_DEPTH = 3  # folders below commands/: /a:b:c:name at most
MAX_ENTRIES = 5000  # names looked at in all the folders
PROJECT_DIR = Path(".mrsmith") / "commands"
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


def user_commands_dir() -> Path:
    return config_dir() / "commands"


class _Found:
    def __init__(self) -> None:
        self.files = 0
        self.entries = 0
        self.over = False
        self.broken: list[tuple[str, str]] = []
        self.warnings: list[str] = []

    def bad(self, name: str | None, line: str) -> None:
        self.warnings.append(line)
        if name is not None:
            self.broken.append((name, line))


def load_commands(root: Path, *, builtin: Iterable[str], user_dir: Path | None = None) -> CommandSet:
    """Every custom command of this root and this person, merged (a built-in wins, then yours)."""
    found = _Found()
    user_dir = user_commands_dir() if user_dir is None else user_dir
    user: list[CustomCommand] = []
    try:
        fd = os.open(user_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)  # your own links are followed
    except (FileNotFoundError, NotADirectoryError):
        fd = -1
    except OSError as e:
        found.warnings.append(f"{_home_shown(user_dir)}: cannot read it: {e.strerror or e}")
        fd = -1
    if fd >= 0:
        try:
            _walk(fd, (), _home_shown(user_dir), "user", user, found)
        finally:
            os.close(fd)
    mine_broken = {name for name, _ in found.broken}  # yours that cannot be used keep their names
    project: list[CustomCommand] = []
    real_root = Path(os.path.realpath(root))
    try:
        with open_dir(real_root, real_root / PROJECT_DIR) as pfd:
            _walk(pfd, (), str(PROJECT_DIR), "project", project, found, project=True)
    except (FileNotFoundError, NotADirectoryError):
        pass
    except SandboxError:
        found.warnings.append(f"{PROJECT_DIR}: not a real folder inside the project (a symbolic link?); "
                              "its commands are not read")
    except OSError as e:
        found.warnings.append(f"{PROJECT_DIR}: cannot read it: {e.strerror or e}")
    if found.over:
        found.warnings.append(f"more than {MAX_FILES} command files: the rest are not read")
    for command in [c for c in project if c.name in mine_broken]:  # never sent in the place of your own
        project.remove(command)
        found.warnings.append(f"{command.path}: {command.name} is also yours, which wins though it cannot be used")
    return merged(user, project, frozenset(builtin), found.broken, found.warnings)


def _home_shown(path: Path) -> str:
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def _walk(fd: int, parts: tuple[str, ...], shown: str, origin: str, out: list[CustomCommand], found: _Found,
          *, project: bool = False) -> None:
    try:
        names = sorted(os.listdir(fd))
    except OSError as e:
        found.warnings.append(f"{shown}: cannot list it: {e.strerror or e}")
        return
    for entry in names:
        found.entries += 1
        if found.entries > MAX_ENTRIES or found.over:
            found.over = True
            return
        if entry.startswith("."):
            continue
        try:
            st = os.stat(entry, dir_fd=fd, follow_symlinks=False)
        except OSError:
            continue
        path = f"{shown}/{entry}"
        if stat.S_ISDIR(st.st_mode):
            if len(parts) < MAX_DEPTH:
                _walk_into(fd, entry, (*parts, entry), path, origin, out, found, project=project)
            else:
                found.warnings.append(f"{path}: folders deeper than {MAX_DEPTH} levels are not read")
            continue
        if not entry.endswith(".md"):
            continue
        name = command_name((*parts, entry))
        if name is None:
            found.warnings.append(f"{path}: not a command name (letters, digits, '.', '_' and '-')")
            continue
        if found.files >= MAX_FILES:
            found.over = True
            return
        found.files += 1
        try:
            out.append(parse_command(_read(fd, entry, st, path, project), name=name, origin=origin, path=path))
        except CommandFileError as e:
            found.bad(name, e.message)


def _walk_into(fd: int, entry: str, parts: tuple[str, ...], shown: str, origin: str, out: list[CustomCommand],
               found: _Found, *, project: bool) -> None:
    try:
        sub = os.open(entry, _DIR_FLAGS, dir_fd=fd)
    except OSError:
        return  # swapped for a link or removed meanwhile
    try:
        _walk(sub, parts, shown, origin, out, found, project=project)
    finally:
        os.close(sub)


def _read(dir_fd: int, entry: str, before: os.stat_result, shown: str, project: bool) -> str:
    if stat.S_ISLNK(before.st_mode) or not stat.S_ISREG(before.st_mode):
        raise CommandFileError(f"{shown}: not a regular file (a symbolic link?); not read")
    if project and before.st_nlink > 1:
        raise CommandFileError(f"{shown}: has other hard links; not read")
    if before.st_size > MAX_FILE_BYTES:
        raise CommandFileError(f"{shown}: larger than {MAX_FILE_BYTES // 1024} KiB; not read")
    try:
        fd = os.open(entry, _FILE_FLAGS, dir_fd=dir_fd)
    except OSError as e:
        raise CommandFileError(f"{shown}: cannot read it: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (before.st_dev, before.st_ino):
            raise CommandFileError(f"{shown}: changed while it was read; not read")
        data = b""
        while len(data) <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise CommandFileError(f"{shown}: larger than {MAX_FILE_BYTES // 1024} KiB; not read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CommandFileError(f"{shown}: not UTF-8 text; not read") from None
