"""Judge one simple command's argv against the allowlist tables (shell_allowlist.py).

`judge(words, ctx)` returns the problems that make the command ask (empty: read-only). Every
option word is parsed the way the program's own parser would (clusters, attached values,
`--`), and any word the table does not name is a problem; operands that are paths are
checked against the working directory and the sensitive-path list.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools import shell_allowlist as A
from mrsmith_tui.tools.shell_words import Word

MAX_DEPTH = 8  # wrappers of wrappers of ...


@dataclass(frozen=True)
class Problem:
    rule: str  # runs | writes | secret | outside | network | other
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
    _listed: dict[str, str | None] = field(default_factory=dict)

    def listed_problem(self, kind: str) -> str | None:
        """Why names a lister prints could lead a reader astray, or None.

        A lister's output (`$(git ls-files)`, `… | xargs`) is split at blanks, so a committed
        file named `x /etc/passwd` would hand `/etc/passwd` to the reader; a listed link may
        lead outside the root, and a listed `.env` is a secret. "git" listers print tracked
        files (checked with `git ls-files`); "tree" listers anything under the root.
        """
        if kind not in self._listed:
            self._listed[kind] = _listed_problem(self, kind)
        return self._listed[kind]


def judge(words: list[Word], ctx: Context, *, depth: int = 0, stdin_lister: str | None = None) -> list[Problem]:
    if not words:
        return []
    head = words[0]
    if head.value is None:
        return [Problem("runs", f"its program name `{head.text}` is only known when it runs")]
    name = head.value
    if "/" in name:
        return [Problem("runs", f"{name} is a program given by path", name)]
    spec = spec_of(words, ctx)
    if name in ctx.dangerous or spec in ctx.dangerous:
        return [Problem("runs", f"{spec} is configured as dangerous", spec)]
    if name in ctx.harmless or spec in ctx.harmless:
        return []
    if depth > MAX_DEPTH:
        return [Problem("runs", f"{name} wraps too many commands", spec)]
    args = words[1:]
    if name in A.WRAPPERS:
        return _wrapper(name, args, ctx, depth, stdin_lister)
    if name in A.ENV_PRINTERS:
        return [Problem("secret", f"{name} prints environment variables, keys included", name)]
    if name == "git":
        return _git(args, ctx)
    prog = A.PROGRAMS.get(name)
    if prog is None:
        return [Problem("runs", f"{name} is not in the read-only set", spec)]
    return check_program(name, prog, args, ctx, spec)


def spec_of(words: list[Word], ctx: Context) -> str:
    """`git commit` for tools with subcommands (and configured `prog sub` specs), else the program."""
    binary = words[0].value or "?"
    sub = None
    if binary == "git":
        _, rest, _ = _parse(A.GIT_GLOBAL, "git", words[1:])
        sub = rest[0].value if rest else None
    else:
        sub = next((w.value for w in words[1:] if w.value is not None and not w.value.startswith("-")), None)
    configured = {s.split(" ", 1)[1] for s in ctx.harmless | ctx.dangerous if s.startswith(binary + " ")}
    if sub and re.match(r"^[a-z][a-z0-9._-]*$", sub) and (binary in SUBCOMMAND_TOOLS or sub in configured):
        return f"{binary} {sub}"
    return binary


SUBCOMMAND_TOOLS = frozenset(
    "git npm npx pnpm yarn cargo go pip pip3 uv poetry docker podman kubectl gh make apt apt-get brew "
    "systemctl dotnet mvn gradle conda rustup".split()
)

# --------------------------------------------------------------------------- option parsing


@dataclass
class _Opt:
    name: str  # "-x" or "--name"
    value: Word | None  # the value word, when the option takes one


def _parse(prog: A.Program, name: str, args: list[Word]) -> tuple[list[_Opt], list[Word], list[Problem]]:
    """(options, operands, problems) as the program's own option parser would see `args`."""
    opts: list[_Opt] = []
    operands: list[Word] = []
    problems: list[Problem] = []
    ended = False
    i = 0
    while i < len(args):
        w = args[i]
        i += 1
        v = w.value
        if ended or w.origin == "procsub":  # <(…) is one /dev/fd/N path, never an option
            operands.append(w)
            continue
        if v is None:
            if not prog.dynamic_ok:
                problems.append(Problem("runs", f"{name} gets `{w.text}`, a word only known when it runs (it could be any option)", name))
            operands.append(w)
            if not prog.permute:
                ended = True
            continue
        if v == "--" and prog.dashdash:
            ended = True
            continue
        if v == "-" or not v.startswith("-"):
            operands.append(w)
            if not prog.permute:
                ended = True
            continue
        if v.startswith("--"):
            key, eq, attached = v[2:].partition("=")
            arity = prog.longs.get(key)
            if arity is None:
                problems.append(Problem("runs", f"{name} option --{key} is not in its read-only table (options must be spelled in full)", name))
                continue
            if arity == 0 and eq:
                problems.append(Problem("runs", f"{name} option --{key} takes no value (`{v}`)", name))
                continue
            value = None
            if eq:
                value = Word(attached, w.text, w.origin)
            elif arity == 1:
                if i >= len(args):
                    problems.append(Problem("runs", f"{name} option --{key} lacks its value", name))
                    continue
                value = args[i]
                i += 1
            opts.append(_Opt("--" + key, value))
            if name == "jq" and key in A.JQ_TWO_VALUES:
                if i >= len(args):
                    problems.append(Problem("runs", f"{name} option --{key} lacks its value", name))
                i += 1  # --arg NAME VALUE
            continue
        if prog.numeric and v[1:].isdigit():
            opts.append(_Opt("-NUM", Word(v[1:], w.text)))
            continue
        j = 1
        while j < len(v):
            letter = v[j]
            arity = prog.shorts.get(letter)
            if arity is None:
                shown = f"-{letter}" if len(v) == 2 else f"-{letter} (in `{v}`)"
                problems.append(Problem("runs", f"{name} option {shown} is not in its read-only table", name))
                break
            if arity == 0:
                opts.append(_Opt("-" + letter, None))
                j += 1
                continue
            rest = v[j + 1 :]
            if rest or arity == 2:
                opts.append(_Opt("-" + letter, Word(rest, w.text, w.origin) if rest else None))
            elif i < len(args):
                opts.append(_Opt("-" + letter, args[i]))
                i += 1
            else:
                problems.append(Problem("runs", f"{name} option -{letter} lacks its value", name))
            break
    return opts, operands, problems


def _one_word(w: Word) -> bool:
    """A double-quoted expansion stays one word whatever its value (but "$@" may be none or many)."""
    return len(w.text) >= 2 and w.text[0] == '"' and w.text[-1] == '"' and "@" not in w.text


def _given(opts: list[_Opt], names: frozenset[str] | set[str]) -> bool:
    return any(o.name.lstrip("-") in names for o in opts)


def check_program(name: str, prog: A.Program, args: list[Word], ctx: Context, spec: str) -> list[Problem]:
    if prog.check == "anything":
        return []
    special = _SPECIAL.get(prog.check)
    if prog.check in ("find", "printf", "test"):
        return special(name, args, ctx)  # type: ignore[misc]
    opts, operands, problems = _parse(prog, name, args)
    # a dynamic value for a value-taking option could also split into several words
    for o in opts:
        if o.value is not None and o.value.value is None and not prog.dynamic_ok:
            problems.append(Problem("runs", f"{name} {o.name} gets `{o.value.text}`, only known when it runs", name))
    allowed = prog.max_operands
    if allowed is not None and prog.dash_output and len(operands) == allowed + 1 and operands[-1].value == "-":
        allowed += 1
    if allowed is not None and len(operands) > allowed:
        extra = operands[-1]
        problems.append(Problem("writes" if name in ("uniq", "join", "comm") else "runs",
                                f"{name} takes at most {allowed} operand(s); `{extra.text}` may be written or run", name))
    kind = prog.operands
    paths = list(operands)
    if kind == "none":
        paths = []
    elif kind == "pattern":
        paths = operands if _given(opts, prog.pattern_set) else operands[1:]
    elif kind == "date":
        paths = []
        for w in operands:
            if w.value is None or not w.value.startswith("+"):
                problems.append(Problem("runs", f"date {w.text} sets the clock (only +FORMAT is read-only)", name))
    for o in opts:
        if o.name.lstrip("-") in prog.path_set and o.value is not None:
            paths.append(o.value)
    if kind != "none":  # an unquoted `$x` anywhere may split into a path operand
        words = operands + [o.value for o in opts if o.value is not None]
        paths += [w for w in words if w.value is None and not _one_word(w) and w not in paths]
    for w in paths:
        p = path_problem(w, ctx)
        if p is not None and not (p.rule == "secret" and w.origin.startswith("lister:") and name in A.SEARCHERS):
            problems.append(p)
    if special is not None:
        problems += special(name, opts, operands, ctx)
    return problems


# --------------------------------------------------------------------------- paths


def path_problem(w: Word, ctx: Context) -> Problem | None:
    """Why reading this path should ask (outside the root, a secret, a socket), or None."""
    if w.value is None:
        if w.origin == "procsub":
            return None
        if w.origin.startswith("lister:"):
            why = ctx.listed_problem(w.origin.split(":", 1)[1])
            return None if why is None else Problem("secret" if why.endswith("a secret") else "outside", f"`{w.text}` {why}")
        return Problem("outside", f"`{w.text}` is a path only known when it runs")
    v = w.value
    if v == "-" or v in A.HARMLESS_DEVICES:
        return None
    if re.match(r"^/dev/(tcp|udp)/", v):
        return Problem("network", f"`{v}` opens a network connection")
    if re.match(r"^/proc/[^/]+/(environ|cmdline)$", os.path.normpath(v)):
        return Problem("secret", f"`{v}` holds a process's environment or command line")
    shown = f"`{v}` (from `{w.text}`)" if w.origin == "glob" else f"`{w.text}`"
    for cwd in ctx.cwds:
        full = v if os.path.isabs(v) else os.path.join(cwd, v)
        why = ctx.sensitive.reason(full, ctx.root)
        if why is None:
            continue
        if A_OUTSIDE in why:
            secret = ctx.sensitive.matches(os.path.normpath(full).lstrip("/"))
            return Problem("secret" if secret else "outside", f"{shown}: {why}" + (" and looks like a secret" if secret else ""))
        return Problem("secret", f"{shown}: {why}")
    return None


A_OUTSIDE = "outside the working directory"
MAX_NAMES = 50_000
_ODD = re.compile(r"[\s'\"\\]")


def _listed_problem(ctx: Context, kind: str) -> str | None:
    names: list[str] = []  # root-relative paths
    if kind == "git":
        for cwd in ctx.cwds:
            try:
                out = subprocess.run(["git", "ls-files", "-z"], cwd=cwd, capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
            except (OSError, subprocess.SubprocessError):
                return "lists files that could not be looked at first"
            rel = os.path.relpath(cwd, ctx.root)
            names += [os.path.normpath(os.path.join(rel, n)) for n in out.stdout.decode("utf-8", "replace").split("\0") if n]
    else:
        for top, dirs, files in os.walk(ctx.root):
            dirs[:] = [d for d in dirs if d != ".git"]
            rel = os.path.relpath(top, ctx.root)
            names += [os.path.normpath(os.path.join(rel, n)) for n in dirs + files]
            if len(names) > MAX_NAMES:
                return "lists more files than can be looked at first"
    for name in names:
        if _ODD.search(name):
            return f"lists `{name}`, whose blanks or quotes would split it into other paths"
        full = os.path.join(ctx.root, name)
        if os.path.islink(full):
            why = ctx.sensitive.reason(full, ctx.root)
            if why is not None and A_OUTSIDE in why:
                return f"lists `{name}`, a link that leads outside the working directory"
    for name in names:
        if ctx.sensitive.matches(name) or (os.path.islink(os.path.join(ctx.root, name)) and ctx.sensitive.reason(os.path.join(ctx.root, name), ctx.root)):
            return f"lists `{name}`: this looks like a secret"
    return None


# --------------------------------------------------------------------------- wrappers


def _wrapper(name: str, args: list[Word], ctx: Context, depth: int, stdin_lister: str | None) -> list[Problem]:
    wrap = A.WRAPPERS[name]
    opts, rest, problems = _parse(wrap.options, name, args)
    if problems:
        return problems
    if any(o.value is not None and o.value.value is None for o in opts):
        return [Problem("runs", f"{name} gets an option value only known when it runs", name)]
    if any(o.name.lstrip("-") in wrap.lookup_opts for o in opts):
        return []  # `command -v x`: looks x up, runs nothing
    if name == "env":
        sets = [w for w in rest if w.value is not None and "=" in w.value and not w.value.startswith("=")]
        while rest and rest[0].value is not None and "=" in rest[0].value:
            rest = rest[1:]
        if sets:
            return [Problem("runs", f"env sets {sets[0].value.split('=')[0]} for the command it runs")]
        if rest and rest[0].value is None:
            return [Problem("runs", f"env runs `{rest[0].text}`, only known when it runs")]
    if len(rest) < wrap.leading:
        return [Problem("runs", f"{name} lacks its operands", name)]
    if any(w.value is None for w in rest[: wrap.leading]):
        return [Problem("runs", f"{name} gets an operand only known when it runs", name)]
    inner = rest[wrap.leading :]
    if not inner:
        if name == "env":
            return [Problem("secret", "env without a command prints every environment variable, keys included", "env")]
        if wrap.needs_command:
            return [Problem("runs", f"{name} without a command", name)]
        return []
    if name == "xargs":
        inner = inner + [Word(None, "<words read by xargs>", f"lister:{stdin_lister}" if stdin_lister else "dynamic")]
    return judge(inner, ctx, depth=depth + 1)


# --------------------------------------------------------------------------- git


def _git(args: list[Word], ctx: Context) -> list[Problem]:
    gopts, rest, problems = _parse(A.GIT_GLOBAL, "git", args)
    if problems:
        return [Problem("runs", p.reason.replace("git option", "git global option"), "git") for p in problems]
    if not rest:
        return []  # prints usage
    sub_word = rest[0]
    if sub_word.value is None:
        return [Problem("runs", f"git subcommand `{sub_word.text}` is only known when it runs", "git")]
    sub = sub_word.value
    spec = f"git {sub}" if re.match(r"^[a-z][a-z0-9._-]*$", sub) else "git"
    sub_args = rest[1:]
    key = sub
    subs = A.GIT_WITH_SUB.get(sub)
    if subs is not None and sub_args and sub_args[0].value in subs:
        key = f"{sub} {sub_args[0].value}"
        sub_args = sub_args[1:]
    elif sub in A.GIT_NEEDS_SUB:
        shown = " ".join(w.text for w in rest[:2])
        return [Problem("runs", f"git {shown} changes the repository (only {', '.join(sorted(subs or ()))} are read-only)", spec)]
    table = A.GIT.get(key)
    if table is None:
        return [Problem("runs", f"git {sub} is not in the read-only set", spec)]
    opts, operands, problems = _parse(table, f"git {key}", sub_args)
    problems = [Problem(p.rule, p.reason, spec) for p in problems]
    for o in opts:
        if o.value is not None and o.value.value is None:
            problems.append(Problem("runs", f"git {key} {o.name} gets `{o.value.text}`, only known when it runs", spec))
    if table.max_operands is not None and len(operands) > table.max_operands:
        problems.append(Problem("runs", f"git {key} with `{operands[table.max_operands].text}` changes the repository", spec))
    for o in opts:
        if o.name.lstrip("-") in table.path_set and o.value is not None:
            if (p := path_problem(o.value, ctx)) is not None:
                problems.append(p)
    pattern_first = table.operands == "pattern" and not _given(opts, table.pattern_set)
    for k, w in enumerate(operands):
        if pattern_first and k == 0:
            continue
        if (p := _git_operand(w, ctx)) is not None:
            problems.append(p)
    if table.check:
        problems += [Problem(p.rule, p.reason, p.spec and spec) for p in _SPECIAL[table.check](f"git {key}", opts, operands, ctx)]
    if not problems and ctx.git_config is not None:
        for cwd in ctx.cwds:
            keys = ctx.git_config(cwd)
            if keys:
                problems.append(Problem("runs", f"the repository's git config sets {', '.join(keys)}, which git {sub} may run or follow", None))
                break
    return problems


def _git_operand(w: Word, ctx: Context) -> Problem | None:
    if w.value is None:
        return Problem("runs", f"git gets `{w.text}`, only known when it runs")
    v = w.value
    path = v.split(":", 1)[1] if ":" in v and not v.startswith(":(") else v
    if path.startswith(("/", "~")) or ".." in path.split("/"):
        return path_problem(Word(path, w.text), ctx)
    if path and ctx.sensitive.matches(re.sub(r"^(\./)+", "", path) or "."):
        return Problem("secret", f"`{w.text}`: this looks like a secret")
    return None


def _git_format(name: str, opts: list[_Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    for o in opts:
        if o.name in ("--format", "--pretty") and o.value is not None and o.value.value is not None:
            if A.GIT_FORMAT_RUNS.search(o.value.value):
                return [Problem("runs", f"{name} {o.name}={o.value.value} verifies signatures (runs gpg)", "x")]
    return []


def _git_list(name: str, opts: list[_Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    if operands and not _given(opts, {"l", "list"}):
        return [Problem("runs", f"{name} {operands[0].text} creates or changes a {name.split()[-1]}", "x")]
    return []


def _git_config(name: str, opts: list[_Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    given = {o.name.lstrip("-") for o in opts}
    if given & {"get", "get-all", "get-urlmatch"}:
        return [] if len(operands) <= 2 else [Problem("runs", "git config with a value sets it", "x")]
    if given & {"list", "l", "get-regexp"}:
        if "local" in given:
            return []
        return [Problem("secret", "git config --list/--get-regexp without --local prints your global config (it can hold tokens)", "x")]
    return [Problem("runs", "git config without --get or --list --local may change the configuration", "x")]


# --------------------------------------------------------------------------- sed, jq, find, printf, test, cd


def _sed(name: str, opts: list[_Opt], operands: list[Word], ctx: Context) -> list[Problem]:
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
        if c == "{" or c in A.SED_PLAIN:
            continue
        if c in A.SED_EXIT:
            i = skip_ws(i)
            while i < n and script[i].isdigit():
                i += 1
            continue
        if c in A.SED_LABEL:  # GNU sed ends a label at a blank too: `b end w file` writes
            i = skip_ws(i)
            while i < n and script[i] not in "; \t\n":
                i += 1
            continue
        if c in A.SED_TEXT:
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
                    if script[i] not in A.SED_S_FLAGS:
                        f = script[i]
                        return {"e": "the s///e flag runs the pattern space as a command",
                                "w": "the s///w flag writes a file"}.get(f, f"the s flag {f!r} is not read-only")
                    i += 1
            continue
        what = {"e": "runs a command", "w": "writes a file", "W": "writes a file", "r": "reads another file",
                "R": "reads another file"}.get(c)
        return f"the {c} command {what}" if what else f"the command {c!r} is not known to be read-only"
    return None


def _jq(name: str, opts: list[_Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    if not operands:
        return []
    f = operands[0]
    if f.value is None:
        return [Problem("runs", f"jq program `{f.text}` is only known when it runs", "jq")]
    m = A.JQ_FORBIDDEN.search(f.value)
    if m:
        return [Problem("secret", f"jq program uses {m.group(0)} (environment, files or modules)", "jq")]
    return []


def _no_response_file(name: str, opts: list[_Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    hit = next((w for w in operands if w.value is None or w.value.startswith("@")), None)
    return [Problem("runs", f"{name} reads its options from `{hit.text}`", name)] if hit else []


def _cd(name: str, opts: list[_Opt], operands: list[Word], ctx: Context) -> list[Problem]:
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
    while i < len(args) and args[i].value in A.FIND_LEADING:
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
        kind = A.FIND_PRIMARIES.get(v, "unknown")
        if kind == "unknown" and A.FIND_NEWER_XY.match(v):
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
    for w in args:
        if w.value is None:
            if not w.text.startswith('"'):
                return [Problem("runs", f"{name} gets `{w.text}`, which could split into an operator that runs code", name)]
            continue
        if w.value in A.TEST_EVALUATES:
            return [Problem("runs", f"{name} {w.value} evaluates its operand (an array subscript can run commands)", name)]
    return []


_SPECIAL: dict[str, Callable] = {
    "sed": _sed, "jq": _jq, "no_response_file": _no_response_file, "cd": _cd, "find": _find, "printf": _printf,
    "test": _test, "git_format": _git_format, "git_list": _git_list, "git_config": _git_config,
}

# --------------------------------------------------------------------------- listers


def is_lister(words: list[Word]) -> str | None:
    """"git" or "tree" when this command prints only file names (tracked, or any under the root)."""
    if not words or any(w.value is None for w in words):
        return None
    name, args = words[0].value, [w.value or "" for w in words[1:]]
    if name == "git":
        _, rest, problems = _parse(A.GIT_GLOBAL, "git", words[1:])
        if problems or not rest or rest[0].value not in A.LISTERS_GIT:
            return None
        need = A.LISTERS_GIT[rest[0].value or ""].split()
        opts, _, problems = _parse(A.GIT[rest[0].value or ""], "git", rest[1:])
        if problems or any(o.name == "--format" for o in opts) or (need and not any(o.name in need for o in opts)):
            return None
        untracked = any(o.name in ("-o", "--others", "-i", "--ignored", "--untracked", "--no-index") for o in opts)
        return "tree" if untracked else "git"
    if name == "find":
        return None if any(a in A.LISTER_FIND_FORBIDDEN for a in args) else "tree"
    if name == "ls":
        plain = all(a in ("-1", "-a", "-A", "-d", "-t", "-r", "-S") or not a.startswith("-") for a in args)
        return "tree" if plain else None
    if name in A.LISTERS:
        need = A.LISTERS[name].split()
        opts, _, problems = _parse(A.PROGRAMS[name], name, words[1:])
        return "tree" if not problems and any(o.name in need for o in opts) else None
    return None


def is_filter(words: list[Word]) -> bool:
    """A pipeline stage that passes lines of its input through (it reads no file of its own)."""
    if not words or any(w.value is None for w in words) or words[0].value not in A.LISTER_FILTERS:
        return False
    name = words[0].value or ""
    prog = A.PROGRAMS[name]
    opts, operands, problems = _parse(prog, name, words[1:])
    if problems:
        return False
    if prog.operands == "pattern" and not _given(opts, prog.pattern_set):
        operands = operands[1:]
    return not operands and not any(o.name.lstrip("-") in prog.path_set for o in opts) and not _given(opts, {"r", "recursive", "d", "directories"})


# --------------------------------------------------------------------------- repository config


def git_config_keys(cwd: str) -> list[str]:
    """The program-running or tree-changing keys the repository's own config sets (not yours)."""
    try:
        out = subprocess.run(
            ["git", "config", "--list", "--show-scope", "--includes"], cwd=cwd, capture_output=True, text=True,
            timeout=10, stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    entries = [line.partition("\t") for line in out.stdout.splitlines()]
    lines = [entry for scope, _, entry in entries if scope in ("local", "worktree")]
    # submodules keep their own config under the git dir; `git status` and friends go in there
    try:
        git_dir = subprocess.run(["git", "rev-parse", "--git-common-dir"], cwd=cwd, capture_output=True, text=True,
                                 timeout=10, stdin=subprocess.DEVNULL).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        git_dir = ""
    modules = Path(cwd, git_dir, "modules") if git_dir else None
    if modules is not None and modules.is_dir():
        for config in sorted(modules.rglob("config"))[:200]:
            try:
                more = subprocess.run(["git", "config", "--file", str(config), "--list", "--includes"], cwd=cwd,
                                      capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL).stdout
            except (OSError, subprocess.SubprocessError):
                return ["the configuration of a submodule that could not be read"]
            lines += more.splitlines()
    keys: list[str] = []
    for entry in lines:
        key, _, value = entry.partition("=")
        if A.GIT_CONFIG_DANGER.match(key.lower()) and value.strip().lower() not in A.GIT_CONFIG_OFF and key not in keys:
            keys.append(key)
    return keys
