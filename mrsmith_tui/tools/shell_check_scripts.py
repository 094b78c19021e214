"""Checks of what a program's words say, beyond its options: sed scripts, find expressions,
jq programs, printf formats, test operators, cd targets, git's listing and format forms."""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable

from mrsmith_tui.tools.shell_allow_bash import SECRET_VARIABLE, TEST_EVALUATES, TEST_FILE_BINARY, TEST_FILE_UNARY
from mrsmith_tui.tools.shell_allow_git import GIT_CONFIG_SECRET_KEY, GIT_FORMAT_RUNS
from mrsmith_tui.tools.shell_allow_scripts import JQ_FORBIDDEN, SED_EXIT, SED_LABEL, SED_PLAIN, SED_S_FLAGS, SED_TEXT
from mrsmith_tui.tools.shell_allow_search import FIND_LEADING, FIND_NEWER_XY, FIND_PRIMARIES, SEARCH_GLOB_OPTS
from mrsmith_tui.tools.shell_context import Context, Problem, path_problem
from mrsmith_tui.tools.shell_options import Opt, given
from mrsmith_tui.tools.shell_words import Word


def _git_format(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    for o in opts:
        value = o.value.value if o.value is not None else None
        if o.name in ("--format", "--pretty") and value is not None and GIT_FORMAT_RUNS.search(value):
            return [Problem("runs", f"{name} {o.name}={value} verifies signatures (runs gpg)", "x")]
    return []


def _git_list(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    if operands and not given(opts, {"l", "list"}):
        return [Problem("runs", f"{name} {operands[0].text} creates or changes a {name.split()[-1]}", "x")]
    return _git_format(name, opts, operands, ctx)  # %(signature) verifies with gpg


def _git_log(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    """`git log -L 1,9:.env`: the file after the last colon is read like a path operand."""
    for o in opts:
        if o.name == "-L" and o.value is not None:
            if o.value.value is None:
                return [Problem("runs", f"{name} -L `{o.value.text}` is only known when it runs", "x")]
            path = o.value.value.rsplit(":", 1)[-1]
            if path.startswith(("/", "~")) or ".." in path.split("/") or ctx.sensitive.matches(re.sub(r"^(\./)+", "", path) or "."):
                return [Problem("secret", f"{name} -L reads `{path}`, a secret or a file outside the working directory")]
    return _git_format(name, opts, operands, ctx)


def _search_globs(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
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


def _diff_dirs(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
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


def _git_config(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    given = {o.name.lstrip("-") for o in opts}
    if given & {"get", "get-all"}:
        if len(operands) > 2:
            return [Problem("runs", "git config with a value sets it", "x")]
        key = operands[0] if operands else None
        if key is not None and (key.value is None or GIT_CONFIG_SECRET_KEY.search(key.value) or SECRET_VARIABLE.search(key.value)):
            return [Problem("secret", f"git config --get {key.text} may print a token", "x")]
        return []
    if given & {"list", "l", "get-regexp"}:
        if "local" in given:
            return []
        return [Problem("secret", "git config --list/--get-regexp without --local prints your global config (it can hold tokens)", "x")]
    return [Problem("runs", "git config without --get or --list --local may change the configuration", "x")]


# --------------------------------------------------------------------------- sed, jq, find, printf, test, cd


def _sed(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    scripts = [o.value for o in opts if o.name in ("-e", "--expression") and o.value is not None]
    if not scripts and operands:
        scripts = [operands[0]]
    for s in scripts:
        if s.value is None:
            return [Problem("runs", f"sed script `{s.text}` is only known when it runs", "sed")]
        bad = sed_script_problem(s.value)
        if bad:
            return [Problem("runs", f"sed script {s.value!r}: {bad}", "sed")]
    return []


def sed_script_problem(script: str) -> str | None:
    """None when the script only prints and edits its stream; else what it does beyond."""
    i, n = 0, len(script)

    def skip_ws(k: int) -> int:
        while k < n and script[k] in " \t":
            k += 1
        return k

    def delimited(k: int, delim: str) -> int | None:
        """Index after the closing delimiter of a part starting at k."""
        while k < n:
            if script[k] == "\\":
                k += 2
                continue
            if script[k] == delim:
                return k + 1
            if script[k] == "\n" and delim != "\n":
                return None
            k += 1
        return None

    def address(k: int) -> int | None:
        if k < n and script[k].isdigit():
            while k < n and script[k].isdigit():
                k += 1
            if k < n and script[k] == "~":
                k += 1
                while k < n and script[k].isdigit():
                    k += 1
            return k
        if k < n and script[k] == "$":
            return k + 1
        if k < n and script[k] in "/\\":
            if script[k] == "\\":
                if k + 1 >= n:
                    return None
                delim, k = script[k + 1], k + 2
            else:
                delim, k = "/", k + 1
            k2 = delimited(k, delim)
            if k2 is None:
                return None
            while k2 < n and script[k2] in "IM":
                k2 += 1
            return k2
        return k

    while i < n:
        i = skip_ws(i)
        if i >= n:
            break
        c = script[i]
        if c in ";\n}":
            i += 1
            continue
        if c == "#":
            while i < n and script[i] != "\n":
                i += 1
            continue
        a = address(i)
        if a is None:
            return "an address it cannot read"
        i = skip_ws(a)
        if i < n and script[i] == ",":
            i = skip_ws(i + 1)
            if i < n and script[i] in "+~":
                i += 1
                while i < n and script[i].isdigit():
                    i += 1
            else:
                a = address(i)
                if a is None:
                    return "an address it cannot read"
                i = a
            i = skip_ws(i)
        while i < n and script[i] == "!":
            i = skip_ws(i + 1)
        if i >= n:
            return "a missing command"
        c = script[i]
        i += 1
        if c == "{" or c in SED_PLAIN:
            continue
        if c in SED_EXIT:
            i = skip_ws(i)
            while i < n and script[i].isdigit():
                i += 1
            continue
        if c in SED_LABEL:  # GNU sed ends a label at a blank too: `b end w file` writes
            i = skip_ws(i)
            while i < n and script[i] not in "; \t\n":
                i += 1
            continue
        if c in SED_TEXT:
            while i < n and script[i] != "\n":
                if script[i] == "\\":
                    i += 1
                i += 1
            continue
        if c in "sy":
            if i >= n or script[i] in "\\\n":
                return f"a {c} command it cannot read"
            delim = script[i]
            k = delimited(i + 1, delim)
            k = delimited(k, delim) if k is not None else None
            if k is None:
                return f"a {c} command it cannot read"
            i = k
            if c == "s":
                while i < n and script[i] not in ";\n}":
                    if script[i] in " \t":
                        i += 1
                        continue
                    if script[i] not in SED_S_FLAGS:
                        f = script[i]
                        return {"e": "the s///e flag runs the pattern space as a command",
                                "w": "the s///w flag writes a file"}.get(f, f"the s flag {f!r} is not read-only")
                    i += 1
            continue
        what = {"e": "runs a command", "w": "writes a file", "W": "writes a file", "r": "reads another file",
                "R": "reads another file"}.get(c)
        return f"the {c} command {what}" if what else f"the command {c!r} is not known to be read-only"
    return None


def _jq(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    if not operands:
        return []
    f = operands[0]
    if f.value is None:
        return [Problem("runs", f"jq program `{f.text}` is only known when it runs", "jq")]
    m = JQ_FORBIDDEN.search(f.value)
    if m:
        return [Problem("secret", f"jq program uses {m.group(0)} (environment, files or modules)", "jq")]
    return []


def _no_response_file(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    hit = next((w for w in operands if w.value is None or w.value.startswith("@")), None)
    return [Problem("runs", f"{name} reads its options from `{hit.text}`", name)] if hit else []


def _cd(name: str, opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    if not operands:
        return [Problem("outside", "cd without a directory goes home, outside the working directory")]
    w = operands[0]
    if w.value is None:
        return [Problem("outside", f"cd `{w.text}`: a directory only known when it runs")]
    if w.value == "-":
        return [Problem("outside", "cd - goes back to a directory outside this command")]
    if os.environ.get("CDPATH") and not w.value.startswith(("/", ".")):
        return [Problem("outside", f"cd {w.value} may follow CDPATH outside the working directory")]
    if path_problem(w, ctx) is None:
        ctx.cd_targets.append(w.value)
    return []  # the operand itself was checked as a path


def _find(name: str, args: list[Word], ctx: Context) -> list[Problem]:
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


def _printf(name: str, args: list[Word], ctx: Context) -> list[Problem]:
    if not args:
        return []
    first = args[0]
    if first.value is None:
        return [Problem("runs", f"printf `{first.text}` could be -v, which assigns a variable", "printf")]
    if first.value.startswith("-") and first.value not in ("-", "--"):
        return [Problem("runs", f"printf {first.value} assigns a variable (bash evaluates its subscript as code)", "printf")]
    fmt = args[1] if first.value == "--" and len(args) > 1 else first
    if fmt.value is None:
        return [Problem("runs", f"printf format `{fmt.text}` is only known when it runs (%n assigns a variable)", "printf")]
    if re.search(r"%[-+ #0'*.0-9]*[hlLqjzt]*n", fmt.value.replace("%%", "")):
        return [Problem("runs", f"printf format {fmt.value!r} uses %n, which assigns a variable", "printf")]
    return []


def _test(name: str, args: list[Word], ctx: Context) -> list[Problem]:
    for k, w in enumerate(args):
        if w.value is None:
            if not w.text.startswith('"'):
                return [Problem("runs", f"{name} gets `{w.text}`, which could split into an operator that runs code", name)]
            continue
        if w.value in TEST_EVALUATES:
            return [Problem("runs", f"{name} {w.value} evaluates its operand (an array subscript can run commands)", name)]
        if (w.value in TEST_FILE_UNARY and k + 1 < len(args)) or (w.value in TEST_FILE_BINARY and 0 < k < len(args) - 1):
            for operand in ([args[k - 1]] if w.value in TEST_FILE_BINARY else []) + [args[k + 1]]:
                if (p := test_path_problem(operand, ctx)) is not None:
                    return [p]
    return []


def test_path_problem(w: Word, ctx: Context) -> Problem | None:
    """`[ -r /etc/shadow ]` tells what exists outside the working directory (as `ls` would)."""
    if w.value is None:
        return None  # a variable's value: already judged by what set it
    return path_problem(w, ctx, names_only=True)


# A check reads the options and operands parse_options found ...
CHECKS: dict[str, Callable[[str, list[Opt], list[Word], Context], list[Problem]]] = {
    "sed": _sed, "jq": _jq, "no_response_file": _no_response_file, "cd": _cd,
    "git_format": _git_format, "git_log": _git_log, "diff_dirs": _diff_dirs, "search_globs": _search_globs, "git_list": _git_list, "git_config": _git_config,
}
# ... or, for a program with a grammar of its own, the raw words.
RAW_CHECKS: dict[str, Callable[[str, list[Word], Context], list[Problem]]] = {
    "find": _find, "printf": _printf, "test": _test,
}
