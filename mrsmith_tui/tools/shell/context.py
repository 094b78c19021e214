"""What a shell command would meet: the root, its secrets, its repository's configuration.

`Problem` is why a command asks; `Context` carries the root, the sensitive-path list and the
directories the command may run in; `path_problem` judges one path a read-only program would
read (repo_config.py reads what the repository's own config could make git do).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mrsmith_tui.security.sensitive import SensitivePaths, is_repository_config
from mrsmith_tui.tools.base import Rule
from mrsmith_tui.tools.dirfd import links_inside
from mrsmith_tui.tools.shell.allow_bash import HARMLESS_DEVICES
from mrsmith_tui.tools.shell.repo_config import git_local_secrets
from mrsmith_tui.tools.shell.words import Word


@dataclass(frozen=True)
class Problem:
    rule: Rule
    reason: str
    spec: str | None = None  # "git commit", "rm"; None: only the exact command text


@dataclass
class Context:
    root: str
    sensitive: SensitivePaths
    cwds: list[str]
    harmless: frozenset[str] = frozenset()
    dangerous: frozenset[str] = frozenset()
    cd_targets: list[str] = field(default_factory=list)
    git_config: Callable[[str], list[str]] | None = None  # cwd -> dangerous keys the repo sets
    loops: dict[str, list[Word]] = field(default_factory=dict)  # for-loop variable -> the words it takes
    _listed: dict[str, str | None] = field(default_factory=dict)
    _git_secrets: dict[str, list[str]] = field(default_factory=dict)

    def git_secrets(self, cwd: str) -> list[str]:
        """Keys of the repository's own config that hold a token (see `git_local_secrets`)."""
        if cwd not in self._git_secrets:
            self._git_secrets[cwd] = git_local_secrets(cwd, self.root)
        return self._git_secrets[cwd]


def path_problem(w: Word, ctx: Context, *, names_only: bool = False) -> Problem | None:
    """Why reading this path should ask (outside the root, a secret, a socket), or None.

    `names_only`: the program shows names, sizes or types, never content (ls, stat, du): a
    secret inside the root may be named, as list_dir shows it; outside still asks.
    """
    if w.value is None:
        if w.origin == "procsub":
            return None  # /dev/fd/N: what the judged command inside writes
        return _run_time_name(w)
    v = w.value
    if v == "-" or v in HARMLESS_DEVICES:
        return None
    if re.match(r"^/dev/(tcp|udp)/", v):
        return Problem("network", f"`{v}` opens a network connection")
    if re.match(r"^/proc/[^/]+/(environ|cmdline)$", os.path.normpath(v)):
        return Problem("secret", f"`{v}` holds a process's environment or command line")
    shown = f"`{v}` (from `{w.text}`)" if w.origin == "glob" or "$" in w.text else f"`{w.text}`"
    for cwd in ctx.cwds:
        full = v if os.path.isabs(v) else os.path.join(cwd, v)
        why = ctx.sensitive.reason(full, ctx.root)
        if why is None:
            continue
        if A_OUTSIDE in why:
            secret = ctx.sensitive.matches(os.path.normpath(full).lstrip("/"))
            return Problem("secret" if secret else "outside", f"{shown}: {why}" + (" and looks like a secret" if secret else ""))
        real = os.path.relpath(os.path.realpath(full), os.path.realpath(ctx.root))
        if names_only and not (real == ".." or real.startswith("../") or os.path.isabs(real)):
            continue
        return Problem("secret", f"{shown}: {why}")
    if not names_only:
        for cwd in ctx.cwds:
            if (p := hard_link_problem(v if os.path.isabs(v) else os.path.join(cwd, v), ctx, shown)) is not None:
                return p
    return None


def hard_link_problem(full: str, ctx: Context, shown: str) -> Problem | None:
    """A file with more than one name is judged by all of them, as the file tools judge it: a hard
    link whose other names are not all inside the root may be a file from outside (`ln ~/.ssh/id_rsa
    notes.txt`), and one whose other name looks like a secret is that secret."""
    try:
        st = os.stat(full)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_nlink <= 1:
        return None
    names = links_inside(Path(ctx.root), st.st_dev, st.st_ino, st.st_nlink)
    if len(names) < st.st_nlink:
        return Problem("outside", f"{shown} has {st.st_nlink} hard links and not all of them are inside the working directory")
    secret = next((n for n in names if ctx.sensitive.matches(n) or is_repository_config(os.path.join(ctx.root, n))), None)
    if secret is not None:
        return Problem("secret", f"{shown} is a hard link to `{secret}`, which looks like a secret")
    return None


A_OUTSIDE = "outside the working directory"


def _run_time_name(w: Word) -> Problem:
    """A path operand only known when it runs asks: bash splits, globs and drops NUL bytes from
    what a substitution prints, after the command was judged (a tracked file named `.e*` or
    `.gi?/config` turns `cat $(git ls-files)` into a reader of secrets)."""
    if w.origin == "xargs":
        return Problem("secret", "xargs hands it names read when it runs, which may name a secret or a file outside")
    if w.origin == "substitution":
        return Problem("secret", f"`{w.text}` gives names only known when it runs (bash splits and globs them), which may name a secret")
    return Problem("outside", f"`{w.text}` is a path only known when it runs")
