"""What a repository could make a read-only git command do: the settings and hooks of its own
config that run a program or read elsewhere, and the keys that hold a token. Read with mrsmith's
own git look-ups (`helper_git`), which get a child's environment with nothing pointing at the tree.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from mrsmith_tui.security.environment import child_environment
from mrsmith_tui.tools.shell.allow_bash import SECRET_VARIABLE
from mrsmith_tui.tools.shell.allow_git import GIT_CONFIG_DANGER, GIT_CONFIG_OFF, GIT_CONFIG_SECRET_KEY, GIT_READ_HOOKS


def helper_git(cwd: str, root: str, *argv: str) -> subprocess.CompletedProcess[str] | None:
    """Run one of mrsmith's own git look-ups: no shell, stdin closed, 10 s at most, and the
    environment a child gets with nothing that points git at the tree (no relative or in-root
    PATH, loader or GIT_* entries: security.tree_paths). None when git could not be run."""
    try:
        return subprocess.run(["git", *argv], cwd=cwd, capture_output=True, text=True, timeout=10,
                              stdin=subprocess.DEVNULL, env=child_environment(root=root, helper=True))
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def helper_git_read(cwd: str, root: str, *argv: str) -> subprocess.CompletedProcess[str] | None:
    """helper_git for a look-up that reads the work tree or history (which files a command would
    show): no optional index write, no hook, no fsmonitor (the config was judged harmless first)."""
    return helper_git(cwd, root, "--no-optional-locks", "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", *argv)


def git_toplevel(cwd: str, root: str) -> str | None:
    """The work tree git would use from cwd (None when there is none or no git)."""
    out = helper_git(cwd, root, "rev-parse", "--show-toplevel")
    if out is None:
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def git_config_keys(cwd: str, root: str, depth: int = 0) -> list[str]:
    """What in the repository (not your own config) could make a read-only git command run code.

    Its config keys (local and worktree scope with includes, and each submodule's config under
    the git dir) that name a program or another tree, and the hooks read-only commands fire:
    `git status` writes the index and so runs a `post-index-change` hook. Gitlinks of the index
    are looked into as well: an embedded repository (`sub/.git` a directory, or a `.git` file
    pointing anywhere) has a config of its own, and `git status` runs git in there.
    """
    def run(*argv: str) -> str | None:
        done = helper_git(cwd, root, *argv)
        return None if done is None else done.stdout

    listing = run("config", "--list", "--show-scope", "--show-origin", "--includes")
    if listing is None:
        return []  # no git: nothing of git's can run
    lines: list[str] = []
    for line in listing.splitlines():
        scope, _, rest = line.partition("\t")
        origin, _, entry = rest.partition("\t")
        # your global or system config is yours, unless the file git read it from is in the tree
        # (HOME or XDG_CONFIG_HOME in it, an include pointing there)
        if scope in ("local", "worktree") or _origin_inside(origin, cwd, root):
            lines.append(entry)
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
            for entry in more.splitlines():
                key, _, value = entry.partition("=")
                if key.lower() == "core.worktree" and _inside(os.path.join(config.parent, value), root):
                    continue  # `git submodule add` points the module at its checkout inside the root
                lines.append(entry)
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
        found += [f"{path}: {key}" for key in git_config_keys(str(sub), root, depth + 1) if f"{path}: {key}" not in found]
    for entry in lines:
        key, _, value = entry.partition("=")
        if key.lower() == "core.worktree" and git_dir and _inside(os.path.join(cwd, git_dir, value), root):
            continue  # a submodule's own checkout, seen from inside it
        if GIT_CONFIG_DANGER.match(key.lower()) and value.strip().lower() not in GIT_CONFIG_OFF and key not in found:
            found.append(key)
    for d in hook_dirs:
        for name in GIT_READ_HOOKS:
            if os.access(d / name, os.X_OK) and f"the {name} hook" not in found:
                found.append(f"the {name} hook")
    return found


def _origin_inside(origin: str, cwd: str, root: str) -> bool:
    kind, _, path = origin.partition(":")
    if kind != "file" or not path:
        return kind not in ("command line", "blob", "standard input", "file")  # an unknown source: judged
    if path.startswith('"') and path.endswith('"'):
        path = path[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape", "replace")
    return _inside(os.path.join(cwd, path), root)


def _inside(path: str, root: str) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top.rstrip("/") + "/")


_URL_USERINFO = re.compile(r"://[^/\s@]*:[^/\s@]+@|://[^/\s@:]{20,}@")  # https://user:TOKEN@host, https://TOKEN@host


def git_local_secrets(cwd: str, root: str) -> list[str]:
    """Keys of the repository's own config whose value is a token: an extra header (CI checkouts
    keep `http.….extraheader = AUTHORIZATION: basic …` there), a URL with a password in it.
    `git config --local --list`, `git remote -v` would print them."""
    done = helper_git(cwd, root, "config", "--local", "--list")
    found: list[str] = []
    for entry in (done.stdout if done is not None else "").splitlines():
        key, _, value = entry.partition("=")
        if GIT_CONFIG_SECRET_KEY.search(key) or SECRET_VARIABLE.search(key.rsplit(".", 1)[-1]) or _URL_USERINFO.search(value):
            found.append(key)
    return found
