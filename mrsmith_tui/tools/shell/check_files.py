"""Checks of which files a program's words make it read: grep/rg globs aimed at a secret, find's
expression, the entries of directories diff compares, and strings' @file."""

from __future__ import annotations

import fnmatch
import os
import re

from mrsmith_tui.tools.shell.allow_search import FIND_LEADING, FIND_NEWER_XY, FIND_PRIMARIES, SEARCH_GLOB_OPTS
from mrsmith_tui.tools.shell.context import Context, Problem, path_problem
from mrsmith_tui.tools.shell.options import Opt
from mrsmith_tui.tools.shell.words import Word


def check_search_globs(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    """`grep -r x --include=.env .`, `rg -g '.e*' x`: a recursive search aimed at a secret asks.

    (A plain `grep -rn x .` still runs: searching the whole root is what it is for.)
    """
    globs = [o.value for o in opts if o.name in SEARCH_GLOB_OPTS and o.value is not None]
    if not globs:
        return []
    if any(g.value is None for g in globs):
        return [Problem("outside", f"{name} gets a file glob only known when it runs", name)]
    fold = any(o.name == "--iglob" for o in opts)
    for g in globs:
        hit = secret_matching((g.value or "").lstrip("!"), ctx, fold=fold)
        if hit is not None:
            return [Problem("secret" if hit else "other", f"{name} {g.text} selects `{hit}`, which looks like a secret"
                            if hit else f"{name}: too many files to check `{g.text}` against")]
    return []


def secret_matching(pattern: str, ctx: Context, *, fold: bool = False, prefix: bool = False) -> str | None:
    """The first secret-looking file under the root the glob matches (by name or by path), "" when
    there are too many files to look at, None when none does. `prefix`: a match of a leading
    directory counts (git pathspecs)."""
    if fold:
        pattern = pattern.lower()
    # rg/gitignore-style globs: `{a,b}` alternatives, `**/` for any depth, `/x` anchored at the top
    patterns = {q for p in _brace_alternatives(pattern) for q in (p, p.replace("**/", ""), p.lstrip("/"), p.replace("**", "*"))}
    seen = 0
    for top, dirs, files in os.walk(ctx.root):
        dirs[:] = [d for d in dirs if d != ".git"]
        for entry in dirs + files:
            seen += 1
            if seen > 50_000:
                return ""
            rel = os.path.normpath(os.path.join(os.path.relpath(top, ctx.root), entry))
            if not ctx.sensitive.matches(rel):
                continue
            names = [entry, rel] + (list(_leading_dirs(rel)) if prefix else [])
            if any(fnmatch.fnmatchcase(n.lower() if fold else n, p) for n in names for p in patterns):
                return rel
    return None


def _brace_alternatives(pattern: str, budget: int = 64) -> list[str]:
    m = re.search(r"\{([^{}]*,[^{}]*)\}", pattern)
    if m is None or budget <= 0:
        return [pattern]
    out: list[str] = []
    for alt in m.group(1).split(","):
        out += _brace_alternatives(pattern[: m.start()] + alt + pattern[m.end() :], budget // 2)
    return out


def _leading_dirs(rel: str) -> list[str]:
    parts = rel.split("/")
    return ["/".join(parts[:k]) for k in range(1, len(parts))]


def check_diff_dirs(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    """`diff d1 d2` compares the files in both directories, following links: check each entry."""
    for w in operands:
        if w.value is None:
            continue
        for cwd in ctx.cwds:
            full = os.path.join(cwd, w.value)
            if not os.path.isdir(full):
                continue
            try:
                entries = sorted(os.listdir(full))[:2000]
            except OSError:
                return [Problem("other", f"diff cannot look into `{w.text}` first", "diff")]
            for entry in entries:
                p = path_problem(Word(os.path.join(w.value, entry), w.text), ctx)
                if p is not None:
                    return [Problem(p.rule, f"diff compares the files in `{w.text}`: {p.reason}")]
    return []


def check_no_response_file(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    hit = next((w for w in operands if w.value is None or w.value.startswith("@")), None)
    return [Problem("runs", f"{name} reads its options from `{hit.text}`", name)] if hit else []


def check_find(name: str, args: list[Word], ctx: Context) -> list[Problem]:
    problems: list[Problem] = []
    i = 0
    while i < len(args) and args[i].value in FIND_LEADING:
        i += 1
    starts: list[Word] = []
    while i < len(args):
        v = args[i].value
        if v is None:
            return [Problem("runs", f"find gets `{args[i].text}`, a word only known when it runs", "find")]
        if v.startswith("-") or v in ("(", "!", ")", ","):
            break
        starts.append(args[i])
        i += 1
    for w in starts:
        if (p := path_problem(w, ctx)) is not None:
            problems.append(p)
    while i < len(args):
        w = args[i]
        i += 1
        v = w.value
        if v is None:
            return problems + [Problem("runs", f"find gets `{w.text}`, a word only known when it runs", "find")]
        kind = FIND_PRIMARIES.get(v, "unknown")
        if kind == "unknown" and FIND_NEWER_XY.match(v):
            kind = "date" if v.endswith("t") else "path"
        if kind == "unknown":
            why = {"-delete": "deletes files", "-exec": "runs a command", "-execdir": "runs a command",
                   "-ok": "runs a command", "-okdir": "runs a command", "-fprint": "writes a file",
                   "-fprint0": "writes a file", "-fprintf": "writes a file", "-fls": "writes a file"}.get(v)
            text = f"find {v} {why}" if why else f"find {w.text} is not in its read-only table"
            return problems + [Problem("writes" if why and "writes" in why else "runs", text, "find")]
        if kind is None:
            continue
        if i >= len(args):
            return problems + [Problem("runs", f"find {v} lacks its value", "find")]
        value = args[i]
        i += 1
        if value.value is None:
            return problems + [Problem("runs", f"find {v} gets `{value.text}`, only known when it runs", "find")]
        if kind == "path" and (p := path_problem(value, ctx)) is not None:
            problems.append(p)
    return problems
