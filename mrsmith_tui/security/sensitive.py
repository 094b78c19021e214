"""Paths that look like secrets: reading them asks the person first.

The built-in list (sensitive_rules.py, and where it comes from) is gitignore-style patterns (matched with pathspec against the path relative
to the working directory, at any depth unless the pattern has a slash inside it). Config's
`sensitivePaths` adds patterns; a `!pattern` there takes one back out. A path outside the
working directory is always sensitive: the tools do not know what it is.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from mrsmith_tui.security.sensitive_rules import DEFAULT_SENSITIVE_PATTERNS

if TYPE_CHECKING:  # pathspec loads, and the patterns compile, when a path is first judged (start-up time)
    import pathspec

__all__ = ["DEFAULT_SENSITIVE_PATTERNS", "OUTSIDE_ROOT", "SensitivePaths", "is_repository_config", "is_user_mcp_config"]

OUTSIDE_ROOT = "outside the working directory"


def _user_mcp_config() -> str:
    """The person's own MCP config (#24) wherever XDG_CONFIG_HOME puts it: it names their tokens."""
    from mrsmith_tui.paths import config_dir

    try:
        return os.path.realpath(config_dir() / "mcp.json")
    except OSError:
        return str(config_dir() / "mcp.json")


def is_user_mcp_config(path: str | os.PathLike[str]) -> bool:
    """`path` (already resolved by the caller) is the person's mcp.json; never touches the disk for it."""
    try:
        return os.path.abspath(path) == _user_mcp_config()
    except OSError:  # the config folder swapped away meanwhile
        return False


@lru_cache(maxsize=32)
def _spec(extra: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(DEFAULT_SENSITIVE_PATTERNS + extra)


@lru_cache(maxsize=32)
def _any_include(extra: tuple[str, ...]) -> re.Pattern[str] | None:
    """One regular expression for every including pattern: a path none of them matches is not
    sensitive whatever the `!` lines say, which is most paths; only the others go through the
    ordered spec, pattern by pattern (a recursive search's scope and the tree's walk match every name)."""
    parts: list[str] = []
    for p in _spec(extra).patterns:
        if not p.include:
            continue
        regex = getattr(p, "regex", None)
        if regex is None:
            return None
        parts.append(str(regex.pattern))
    if any("(?P=" in part for part in parts):
        return None
    return re.compile("|".join("(?:" + re.sub(r"\(\?P<\w+>", "(?:", part) + ")" for part in parts))


class SensitivePaths:
    """Answers "does this path look like a secret, and why?" for one session's configuration."""

    def __init__(self, extra: Iterable[str] = ()) -> None:
        self.extra = tuple(p.strip() for p in extra if p and p.strip())
        if self.extra:  # a bad pattern in the config is an error now, not at the first read
            _spec(self.extra)

    @property
    def _spec(self) -> pathspec.GitIgnoreSpec:
        return _spec(self.extra)  # compiled once per pattern list (lru_cache), when a path is first judged

    @property
    def _quick(self) -> re.Pattern[str] | None:
        return _any_include(self.extra)

    def reason(self, path: str | os.PathLike[str], root: str | os.PathLike[str]) -> str | None:
        """None for an ordinary path inside the root; else why reading it should ask.

        `path` may be relative to `root` or absolute. It is judged by name (what the person
        would see), and, when it exists, by where it really leads (a link named `notes.txt`
        to `.ssh/id_rsa` is a secret too).
        """
        real_root = os.path.realpath(root)
        raw = os.fspath(path)
        joined = raw if os.path.isabs(raw) else os.path.join(real_root, raw)
        for candidate in dict.fromkeys((os.path.normpath(joined), os.path.realpath(joined))):
            rel = os.path.relpath(candidate, real_root)
            if rel == ".." or rel.startswith("../") or os.path.isabs(rel):
                return f"it is {OUTSIDE_ROOT}"
            if rel != "." and (self.matches(rel) or is_repository_config(candidate)
                               or candidate == _user_mcp_config()):
                return "this looks like a secret"
        return None

    def matches(self, rel_path: str) -> bool:
        """Whether a root-relative POSIX path (a file or a folder) matches a sensitive pattern."""
        rel = PurePosixPath(rel_path).as_posix().strip("/")
        if not rel or rel == ".":
            return False
        # A folder pattern (`.ssh/`) matches what is inside it; try the path as a folder too. Lower-cased
        # as well: `.ENV` or `ID_RSA` on a case-insensitive filesystem is the same file.
        for candidate in dict.fromkeys((rel, rel.lower())):
            if self._quick is not None and not (self._quick.match(candidate) or self._quick.match(candidate + "/_")):
                continue
            if self._spec.match_file(candidate) or self._spec.match_file(candidate + "/_"):
                return True
        return False


def is_repository_config(path: str) -> bool:
    """Whether `path` is a git repository's own config wherever the repository sits: a file named
    `config` or `config.worktree` beside a `HEAD` file and an `objects/` folder (or a `commondir`
    file), as in a bare repository vendored as `deps/lib.git/`, which no name pattern can know."""
    folder, name = os.path.split(path)
    if name == ".gitmodules":
        return _holds_url_credentials(path)
    if name not in ("config", "config.worktree"):
        return False
    try:
        return os.path.isfile(os.path.join(folder, "HEAD")) and (
            os.path.isdir(os.path.join(folder, "objects")) or os.path.isfile(os.path.join(folder, "commondir")))
    except (OSError, ValueError):
        return False


_URL_USERINFO = re.compile(rb"[A-Za-z][A-Za-z0-9+.-]*://[^/\s@]+@")


def _holds_url_credentials(path: str) -> bool:
    """A `.gitmodules` whose URL carries a user and token (https://x-access-token:TOKEN@host/)."""
    try:
        with open(path, "rb") as f:
            return _URL_USERINFO.search(f.read(65536)) is not None
    except (OSError, ValueError):
        return False
