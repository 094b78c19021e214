"""Git commands that print a sensitive file's content ask.

`git diff` of a `.env` committed by mistake, `git log -p`, `git show` of a commit that touched
it, `git stash show -p --include-untracked` of a stash holding it: each prints the file's lines
although no word of the command names it. Before such a command runs, the same command is run
by mrsmith with `--name-only -z` added after its own options (git lets the last output format
win), so the files it would show are known; one that looks like a secret (or any repository's
config) makes it ask. A log-like command prints content only with a patch option (`-p`, `-U3`,
`--word-diff`, ...). An object given by its id (`git show 3b18e51`, `git cat-file -p 3b18e51`)
that is a blob asks too: which file it is cannot be told.
"""

from __future__ import annotations

import os

from mrsmith_tui.tools.shell.context import Context, Problem
from mrsmith_tui.tools.shell.git_objects import object_problem
from mrsmith_tui.tools.shell.options import Opt
from mrsmith_tui.tools.shell.repo_config import helper_git_read as helper_git
from mrsmith_tui.tools.shell.scope import secret_in
from mrsmith_tui.tools.shell.words import Word

DIFF_LIKE = frozenset({"diff", "show", "stash show"})
LOG_LIKE = frozenset({"log", "whatchanged", "reflog", "reflog show", "stash list"})
PATCH_OPTS = frozenset({"-p", "-u", "--patch", "-U", "--unified", "--word-diff", "--color-words", "-W",
                        "--function-context", "--patch-with-raw", "--patch-with-stat", "--cc", "--dd",
                        "--remerge-diff", "--word-diff-regex", "--color-moved", "--binary", "--full-index"})
# diff/show print only these (no content) when no patch option is given with them
SUMMARY_OPTS = frozenset({"--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--summary",
                          "--dirstat", "--compact-summary", "--raw", "--quiet", "-s", "--no-patch", "--check"})
_NAME_FORMATS = frozenset({"--name-status", "--check", "-s", "--no-patch", "--name-only", "--relative", "--no-relative"})
_NAME_CHANGERS = ("--line-prefix", "--relative", "--src-prefix", "--dst-prefix")


def check_git_content(key: str, opts: list[Opt], operands: list[Word], sub_args: list[Word], ctx: Context) -> list[Problem]:
    if any(w.value is None for w in sub_args):
        return []  # asked about already
    names = {o.name for o in opts}
    if key in ("cat-file", "show", "diff"):
        for w in operands:
            if (p := object_problem(key, w, ctx)) is not None:
                return [p]
    if key == "cat-file":
        return []
    patch = bool(names & PATCH_OPTS) or any(o.name == "--submodule" for o in opts)
    if key == "stash show" and not patch and not _config_true("stash.showpatch", ctx):
        return []  # a stash's stat: names and counts
    if key in LOG_LIKE and not patch:
        return []
    if key in DIFF_LIKE and not patch and names & SUMMARY_OPTS:
        return []
    if any(o.name == "--submodule" and o.value is not None and o.value.value == "diff" for o in opts):
        return [Problem("secret", f"git {key} --submodule=diff shows the content of the submodules' files, secrets included")]
    words = [w.value or "" for w in sub_args]
    cut = words.index("--") if "--" in words else len(words)
    # --name-status: a rename or copy shows both names (`.env` renamed to `notes.txt` and changed
    # prints the secret's lines under the new name)
    extra = ["--name-status", "-z", "--no-ext-diff", "--no-textconv", "--no-color"]
    if key not in ("diff", "stash show"):
        extra.append("--format=")
    for cwd in ctx.cwds:
        argv = _listing_argv(key, words, cut, operands, extra, cwd, ctx)
        done = helper_git(cwd, ctx.root, *argv) if argv is not None else None
        if done is None or done.returncode not in (0, 1):
            if _not_a_repository(cwd, ctx):
                continue  # git reads nothing here (outside every repository)
            return [Problem("other", f"the files git {key} would show could not be listed first")]
        listed = [n.strip("\n") for n in done.stdout.split("\0") if n.strip()]
        top = helper_git(cwd, ctx.root, "rev-parse", "--show-toplevel")  # git prints names from the top
        base = top.stdout.strip() if top is not None and top.returncode == 0 and top.stdout.strip() else cwd
        hit = secret_in((os.path.relpath(os.path.join(base, n), ctx.root) for n in listed), ctx)
        if hit is not None:
            return [Problem("secret", f"git {key} would show the content of `{hit}`, which looks like a secret; "
                                      "leave it out with a pathspec like -- . ':!NAME'")]
    return []


def _listing_argv(key: str, words: list[str], cut: int, operands: list[Word], extra: list[str],
                  cwd: str, ctx: Context) -> list[str] | None:
    """The command with the listing options after its own options and before its paths: git
    refuses an option after a path (`git log -p . --name-status`), and without `--` the paths are
    the operands git cannot read as revisions (`git diff A B .`), found as git finds them."""
    head, tail = words[:cut], words[cut + 1 :] if cut < len(words) else []
    values = [w.value or "" for w in operands if (w.value or "") in head]
    paths: list[str] = []
    if values and "--no-index" not in head:
        done = helper_git(cwd, ctx.root, "rev-parse", "--no-revs", "--no-flags", *values)
        if done is None or done.returncode != 0:
            return None
        paths = [n for n in done.stdout.split("\n") if n]
        if paths and head[len(head) - len(paths):] != paths:
            return None  # not the tail git would take as paths: unsure
    own = _own_words(head[: len(head) - len(paths)])
    rest = [*paths, *tail]
    return ["-c", "core.quotepath=off", *key.split(), *own, *extra, *(["--", *rest] if rest else [])]


def _not_a_repository(cwd: str, ctx: Context) -> bool:
    done = helper_git(cwd, ctx.root, "rev-parse", "--git-dir")
    return done is not None and done.returncode != 0


def _own_words(words: list[str]) -> list[str]:
    """The command's own words without those that change how names are printed (a prefix, paths
    relative to a folder) or that git refuses beside --name-status: the listing is of full names."""
    out: list[str] = []
    skip = False
    for w in words:
        if skip:
            skip = False
            continue
        if w in _NAME_FORMATS or w.startswith(_NAME_CHANGERS):
            skip = w in ("--line-prefix", "--src-prefix", "--dst-prefix")  # `--line-prefix x`: the value is the next word
            continue
        out.append(w)
    return out


def _config_true(key: str, ctx: Context) -> bool:
    for cwd in ctx.cwds:
        done = helper_git(cwd, ctx.root, "config", "--type=bool", "--get", key)
        if done is not None and done.stdout.strip() == "true":
            return True
    return False
