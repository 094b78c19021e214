"""glob: find files by a path pattern, skipping what .gitignore ignores.

The walk goes through directory fds (a directory swapped for a symlink is not followed),
the matcher is linear (globmatch), directories no match can be under are not entered, and
the walk stops at MAX_STEPS entries or MAX_SECONDS, or at once when the run is cancelled
(both looked at for every entry and every .gitignore line). The .gitignore rules in force
are a stack that follows the walk, each file capped (globmatch.MAX_IGNORE_WEIGHT) and all of
them together too (MAX_IGNORE_TOTAL): rules past a cap are not honoured, and the result says so.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mrsmith_tui.cancel import Cancelled
from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools import dirfd, globmatch
from mrsmith_tui.tools.base import BaseTool, ToolContext, ToolResult
from mrsmith_tui.tools.globmatch import Glob, GlobError, IgnoreFile, State, gitignore_rules, ignored
from mrsmith_tui.tools.sandbox import SandboxError
from mrsmith_tui.tools.secret_paths import secret_listing

MAX_RESULTS = 500
MAX_STEPS = 200_000  # directory entries looked at by one glob
MAX_SECONDS = 20.0  # and wall-clock time; either ends the walk with partial results
_IGNORE_BYTES = 256 * 1024  # of one .gitignore
MAX_IGNORE_TOTAL = 16384  # weight of all the .gitignore rules in force at once
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def entries(fd: int) -> Iterator[os.DirEntry[str]]:
    """The entries of an open directory (a seam: tests give an endless directory)."""
    with os.scandir(fd) as it:
        yield from it


def _gitignore(fd: int, cancelled: Callable[[], bool], max_weight: int) -> IgnoreFile | None:
    try:
        gfd = os.open(".gitignore", os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=fd)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(gfd).st_mode):
            return None
        data = os.pread(gfd, _IGNORE_BYTES, 0)
    except OSError:
        return None
    finally:
        os.close(gfd)
    return gitignore_rules(data.decode("utf-8", "replace").splitlines(), cancelled, max_weight)


class _Ignores:
    """The .gitignore files in force: those of the directories on the walk's current path."""

    def __init__(self) -> None:
        self._rules: dict[str, IgnoreFile] = {}  # parents before children: deeper files decide last
        self.weight = 0
        self.cut: list[str] = []  # .gitignore files not wholly honoured

    def load(self, rel_dir: str, fd: int, cancelled: Callable[[], bool]) -> None:
        room = min(MAX_IGNORE_TOTAL - self.weight, globmatch.MAX_IGNORE_WEIGHT)
        found = _gitignore(fd, cancelled, max(room, 0))
        if found is None:
            return
        if found.cut and len(self.cut) < 5:
            self.cut.append(f"{rel_dir}/.gitignore" if rel_dir else ".gitignore")
        if found.rules:
            self._rules[rel_dir] = found
            self.weight += found.weight

    def leave(self, rel_dir: str) -> None:
        found = self._rules.pop(rel_dir, None)
        if found is not None:
            self.weight -= found.weight

    def ignored(self, rel: str, is_dir: bool) -> bool:
        verdict = False
        for base, found in self._rules.items():
            if base and not rel.startswith(base + "/"):
                continue
            v = ignored(found.rules, rel[len(base) + 1 :] if base else rel, is_dir)
            if v is not None:
                verdict = v
        return verdict


@dataclass
class _Walk:
    matches: list[str]
    steps: int = 0
    stopped: str = ""  # why the walk ended early ("" when it finished)
    ignores: _Ignores = field(default_factory=_Ignores)


def _walk(root: Path, glob: Glob, ctx: ToolContext) -> _Walk:
    """Every non-directory beneath `root` whose path the glob accepts, through directory fds.

    Depth first, one open fd per level (a directory's subdirectories wait as names, not fds,
    so a directory with 100,000 subdirectories cannot exhaust the descriptors)."""
    walk = _Walk([])
    ignores = walk.ignores
    deadline = time.monotonic() + MAX_SECONDS
    frames: list[_Frame] = [_Frame("", dirfd.open_root(root), glob.start())]
    try:
        while frames:
            frame = frames[-1]
            if frame.subdirs is None:
                frame.subdirs = _scan(frame, glob, ignores, walk, ctx, deadline)
                if walk.stopped:
                    return walk
            if not frame.subdirs:
                os.close(frames.pop().fd)
                ignores.leave(frame.rel)
                continue
            name, rel, sub = frame.subdirs.pop()
            try:
                fd = os.open(name, _DIR_FLAGS, dir_fd=frame.fd)
            except OSError:
                continue  # gone, swapped for a link, or unreadable: skipped
            frames.append(_Frame(rel, fd, sub))
    finally:
        for frame in frames:
            os.close(frame.fd)
    return walk


@dataclass
class _Frame:
    rel: str
    fd: int
    states: State
    subdirs: list[tuple[str, str, State]] | None = None  # still to visit, last first


def _scan(frame: _Frame, glob: Glob, ignores: _Ignores, walk: _Walk, ctx: ToolContext,
          deadline: float) -> list[tuple[str, str, State]]:
    """Match the files of one directory; its subdirectories that can hold a match."""
    def spent() -> bool:
        return ctx.cancel.cancelled or time.monotonic() > deadline

    try:
        ignores.load(frame.rel, frame.fd, spent)
    except Cancelled:
        ctx.cancel.check()
        walk.stopped = f"{MAX_SECONDS:g} s spent"
        return []
    prefix = frame.rel + "/" if frame.rel else ""
    subdirs = []
    for entry in entries(frame.fd):
        walk.steps += 1
        ctx.cancel.check()
        if walk.steps >= MAX_STEPS:
            walk.stopped = f"{walk.steps} entries looked at"
        elif time.monotonic() > deadline:
            walk.stopped = f"{MAX_SECONDS:g} s spent"
        if walk.stopped:
            return []
        name = entry.name
        rel = prefix + name
        if _is_dir(entry, follow=False):
            if name != ".git":
                subdirs.append(name)
            continue
        if _is_dir(entry, follow=True):
            continue  # a link to a directory is neither listed nor followed
        if glob.accepts(glob.step(frame.states, name)) and not ignores.ignored(rel, is_dir=False):
            walk.matches.append(rel)
    out = []
    for name in sorted(subdirs, reverse=True):
        sub = glob.step(frame.states, name)
        if glob.may_descend(sub) and not ignores.ignored(prefix + name, is_dir=True):
            out.append((name, prefix + name, sub))
    return out


def _is_dir(entry: os.DirEntry[str], follow: bool) -> bool:
    """Whether an entry is a directory; a link that loops, a name too long or a place not ours to look is not."""
    try:
        return entry.is_dir(follow_symlinks=follow) and (not follow or entry.is_symlink())
    except OSError:
        return False


class GlobTool(BaseTool):
    name = "glob"
    read_only = True
    description = (
        "Find files inside the working directory whose path matches a glob pattern, e.g. '**/*.py', "
        "'src/**/test_*.py', '*.{md,txt}'. `**` matches any number of directories, `*` any part of one "
        "name. Paths are relative to the working directory and sorted; files ignored by .gitignore and "
        f"the .git directory are skipped; at most {MAX_RESULTS} results. Use read_file to read a match."
    )
    parameters = {
        "type": "object",
        "properties": {"pattern": {"type": "string", "description": "Glob pattern relative to the working directory"}},
        "required": ["pattern"],
        "additionalProperties": False,
    }

    def __init__(self, sensitive: SensitivePaths | None = None) -> None:
        self.sensitive = sensitive or SensitivePaths()

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        pattern = args.get("pattern")
        if not isinstance(pattern, str) or not pattern.strip():
            return ToolResult.error("pattern must be a non-empty string")
        pattern = pattern.strip()
        if pattern.startswith("./"):
            pattern = pattern[2:]
        if pattern.startswith(("/", "~")) or "\\" in pattern or ".." in pattern.split("/"):
            return ToolResult.error(
                f"pattern {pattern!r} must be relative to the working directory, without '..', '~' or backslashes"
            )
        try:
            glob = Glob(pattern)
        except GlobError as e:
            return ToolResult.error(f"pattern {pattern!r}: {e}")
        try:
            walk = _walk(ctx.root, glob, ctx)
        except SandboxError as e:
            return ToolResult.error(str(e))
        matches, hidden = secret_listing(sorted(walk.matches), self.sensitive)
        partial = (f"\n[stopped early: {walk.stopped} (glob's budget); these results are partial; narrow the pattern]"
                   if walk.stopped else "")
        if walk.ignores.cut:
            partial += (f"\n[{', '.join(walk.ignores.cut)}: too many rules; only the first ones are honoured, "
                        "so some ignored files may be listed]")
        note = (f"\n[{hidden} secret-looking path{'s' if hidden != 1 else ''} (.env, keys, .ssh/, ...) left out; "
                "read_file asks the person for one you name]") if hidden else ""
        if not matches:
            return ToolResult(content=(note.lstrip("\n") if note else f"no files match {pattern!r}") + partial)
        shown = matches[:MAX_RESULTS]
        body = "\n".join(shown)
        if len(matches) > MAX_RESULTS:
            body += f"\n[truncated: {len(matches)} files match, the first {MAX_RESULTS} shown; narrow the pattern]"
        return ToolResult(content=body + note + partial)
