"""Git operands that name an object rather than a path: what they resolve to is judged.

`git show f4a91a9^{blob}`, `git cat-file -p envtag` (a tag pointing at a blob) and `git diff
HEAD:src HEAD:.docker` print file content that no path of the command names, or name it from a
folder whose own name is harmless (`.docker` alone is not a secret, `.docker/config.json` is).
Each operand is resolved by git itself (`git cat-file -t`, tags peeled): a blob is allowed only
when it was named by path (`HEAD:src/app.py`, judged as that path); a tree read for its content
(diff, grep) is listed and every file in it is judged under the folder it was named by; a tree
of unknown place (an id) read for its content asks.
"""

from __future__ import annotations

import os
import re

from mrsmith_tui.tools.shell.context import Context, Problem
from mrsmith_tui.tools.shell.repo_config import helper_git_read as helper_git
from mrsmith_tui.tools.shell.scope import secret_in
from mrsmith_tui.tools.shell.words import Word

_BY_PATH = re.compile(r"^[^:]*:(?:[0-3]:)?(?!/)(.+)$", re.S)  # `REV:PATH`, `:0:PATH`, not `:/message`
_ROOT_TREE = re.compile(r"^[^:]*(?::|\^\{tree\})$")  # `HEAD:` or `HEAD^{tree}`


def object_problem(key: str, w: Word, ctx: Context) -> Problem | None:
    value = w.value or ""
    if not value or value.startswith("-") or ".." in value:
        return None
    for cwd in ctx.cwds:
        kind = _kind(cwd, ctx, value)
        if kind == "tag":
            kind = _kind(cwd, ctx, value + "^{}")
        if kind == "blob":
            if _BY_PATH.match(value):
                return None  # judged as the path it names
            return Problem("secret", f"`{w.text}` is a file's content named by its object, which may be a secret's")
        if kind == "tree" and key not in ("cat-file", "show"):  # those print a tree's names only
            if (m := _BY_PATH.match(value)) is not None:
                prefix = os.path.normpath(m.group(1))
            elif _ROOT_TREE.match(value):
                prefix = "."
            else:
                return Problem("secret", f"`{w.text}` is a folder named by its object: where it is, and so "
                                         "whether its files are secrets, cannot be told")
            return _tree_problem(cwd, ctx, value, prefix, w.text)
    return None


def _kind(cwd: str, ctx: Context, value: str) -> str | None:
    done = helper_git(cwd, ctx.root, "cat-file", "-t", "--end-of-options", value) if not value.startswith("-") else None
    if done is None or done.returncode != 0:
        return None
    return done.stdout.strip()


def _tree_problem(cwd: str, ctx: Context, value: str, prefix: str, shown: str) -> Problem | None:
    done = helper_git(cwd, ctx.root, "ls-tree", "-r", "-z", "--name-only", "--full-tree", value)
    top = helper_git(cwd, ctx.root, "rev-parse", "--show-toplevel")
    if done is None or done.returncode != 0 or top is None or top.returncode != 0:
        return Problem("other", f"the files of `{shown}` could not be listed first")
    base = os.path.join(top.stdout.strip(), prefix)
    names = (os.path.relpath(os.path.join(base, n), ctx.root) for n in done.stdout.split("\0") if n)
    hit = secret_in(names, ctx)
    if hit is not None:
        return Problem("secret", f"`{shown}` holds `{hit}`, which looks like a secret")
    return None
