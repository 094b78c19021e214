"""What a shell command would meet: the root, its secrets, its repository's configuration.

`Problem` is why a command asks; `Context` carries the root, the sensitive-path list and the
directories the command may run in; `path_problem` judges one path a read-only program would
read; `git_config_keys` reads the settings a repository could use to make git run a program.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mrsmith_tui.security.sensitive import SensitivePaths, is_repository_config
from mrsmith_tui.tools.base import Rule
from mrsmith_tui.tools.dirfd import links_inside
from mrsmith_tui.tools.shell.allow_bash import HARMLESS_DEVICES, SECRET_VARIABLE
from mrsmith_tui.tools.shell.allow_git import GIT_CONFIG_DANGER, GIT_CONFIG_OFF, GIT_CONFIG_SECRET_KEY, GIT_READ_HOOKS
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
            self._git_secrets[cwd] = git_local_secrets(cwd)
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


# --------------------------------------------------------------------------- repository config


def git_toplevel(cwd: str) -> str | None:
    """The work tree git would use from cwd (None when there is none or no git)."""
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=cwd, capture_output=True, text=True,
                             timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def git_config_keys(cwd: str, depth: int = 0) -> list[str]:
    """What in the repository (not your own config) could make a read-only git command run code.

    Its config keys (local and worktree scope with includes, and each submodule's config under
    the git dir) that name a program or another tree, and the hooks read-only commands fire:
    `git status` writes the index and so runs a `post-index-change` hook. Gitlinks of the index
    are looked into as well: an embedded repository (`sub/.git` a directory, or a `.git` file
    pointing anywhere) has a config of its own, and `git status` runs git in there.
    """
    def run(*argv: str) -> str | None:
        try:
            return subprocess.run(["git", *argv], cwd=cwd, capture_output=True, text=True, timeout=10,
                                  stdin=subprocess.DEVNULL).stdout
        except (OSError, subprocess.SubprocessError):
            return None

    listing = run("config", "--list", "--show-scope", "--includes")
    if listing is None:
        return []  # no git: nothing of git's can run
    entries = [line.partition("\t") for line in listing.splitlines()]
    lines = [entry for scope, _, entry in entries if scope in ("local", "worktree")]
    found: list[str] = []
    hooks = (run("rev-parse", "--git-path", "hooks") or "").strip()
    hook_dirs = [Path(cwd, hooks)] if hooks else []
    git_dir = (run("rev-parse", "--git-common-dir") or "").strip()
    modules = Path(cwd, git_dir, "modules") if git_dir else None
    if modules is not None and modules.is_dir():  # submodules: `git status` goes in there too
        for config in sorted(modules.rglob("config"))[:200]:
            more = run("config", "--file", str(config), "--list", "--includes")
            if more is None:
                return ["a submodule configuration that could not be read"]
            lines += more.splitlines()
            hook_dirs.append(config.parent / "hooks")
    # the index as is, no fsmonitor query (a repository's core.fsmonitor would run right here)
    stage = run("-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "-c", "core.hooksPath=/dev/null",
                "ls-files", "--stage", "-z")
    gitlinks = [e.partition("\t")[2] for e in (stage or "").split("\0") if e.startswith("160000 ")]
    for path in gitlinks[:50]:
        sub = Path(cwd, path)
        if not (sub / ".git").exists():
            continue  # not checked out: git does not go in
        if depth >= 3:
            return [f"submodules nested too deep ({path})"]
        found += [f"{path}: {key}" for key in git_config_keys(str(sub), depth + 1) if f"{path}: {key}" not in found]
    for entry in lines:
        key, _, value = entry.partition("=")
        if GIT_CONFIG_DANGER.match(key.lower()) and value.strip().lower() not in GIT_CONFIG_OFF and key not in found:
            found.append(key)
    for d in hook_dirs:
        for name in GIT_READ_HOOKS:
            if os.access(d / name, os.X_OK) and f"the {name} hook" not in found:
                found.append(f"the {name} hook")
    return found


_URL_USERINFO = re.compile(r"://[^/\s@]*:[^/\s@]+@|://[^/\s@:]{20,}@")  # https://user:TOKEN@host, https://TOKEN@host


def git_local_secrets(cwd: str) -> list[str]:
    """Keys of the repository's own config whose value is a token: an extra header (CI checkouts
    keep `http.….extraheader = AUTHORIZATION: basic …` there), a URL with a password in it.
    `git config --local --list`, `git remote -v` would print them."""
    try:
        out = subprocess.run(["git", "config", "--local", "--list"], cwd=cwd, capture_output=True, text=True,
                             timeout=10, stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for entry in out.splitlines():
        key, _, value = entry.partition("=")
        if GIT_CONFIG_SECRET_KEY.search(key) or SECRET_VARIABLE.search(key.rsplit(".", 1)[-1]) or _URL_USERINFO.search(value):
            found.append(key)
    return found
