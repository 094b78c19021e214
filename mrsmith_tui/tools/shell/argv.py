"""Judge one simple command's argv against the allowlist tables (allowlist.py and the
shell_allow_*.py tables it joins).

`judge(words, ctx)` returns the problems that make the command ask (empty: read-only). Every
option word is parsed the way the program's own parser would (clusters, attached values,
`--`), and any word the table does not name is a problem; operands that are paths are
checked against the working directory and the sensitive-path list.
"""

from __future__ import annotations

import os
import re

from mrsmith_tui.security.environment import child_environment
from mrsmith_tui.tools.shell.allow_bash import ENV_PRINTERS, SHELL_BUILTINS, WRAPPERS
from mrsmith_tui.tools.shell.allow_git import GIT, GIT_GLOBAL, GIT_NEEDS_SUB, GIT_PRINTS_CONFIG, GIT_WITH_SUB
from mrsmith_tui.tools.shell.allow_search import NAMES_ONLY
from mrsmith_tui.tools.shell.allowlist import PROGRAMS
from mrsmith_tui.tools.shell.check_files import secret_matching
from mrsmith_tui.tools.shell.checks import CHECKS, RAW_CHECKS
from mrsmith_tui.tools.shell.context import Context, Problem, hard_link_problem, path_problem
from mrsmith_tui.tools.shell.git_content import DIFF_LIKE, LOG_LIKE, check_git_content
from mrsmith_tui.tools.shell.git_objects import object_problem
from mrsmith_tui.tools.shell.options import Opt, given, one_word, parse_options
from mrsmith_tui.tools.shell.program import Program
from mrsmith_tui.tools.shell.scope import check_git_grep_scope
from mrsmith_tui.tools.shell.words import Word
from mrsmith_tui.words import counted

MAX_DEPTH = 8  # wrappers of wrappers of ...


def judge(words: list[Word], ctx: Context, *, depth: int = 0) -> list[Problem]:
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
    if depth > MAX_DEPTH:
        return [Problem("runs", f"{name} wraps too many commands", spec)]
    configured = name in ctx.harmless or spec in ctx.harmless  # e.g. the project's own .venv/bin/pytest
    if not configured and not (depth == 0 and name in SHELL_BUILTINS) and (where := _program_in_root(name, ctx)):
        return [Problem("runs", f"`{name}` would run {where}, a program inside the working directory (PATH leads there)")]
    args = words[1:]
    if name in WRAPPERS:  # even a wrapper configured harmless: what it runs is judged (`timeout 5 rm x`)
        return _wrapper(name, args, ctx, depth)
    if configured:
        return []
    if name in ENV_PRINTERS:
        return [Problem("secret", f"{name} prints environment variables, keys included", name)]
    if name == "git":
        return _git(args, ctx)
    prog = PROGRAMS.get(name)
    if prog is None:
        return [Problem("runs", f"{name} is not in the read-only set", spec)]
    return _exact(check_program(name, prog, args, ctx, spec))


def _exact(problems: list[Problem]) -> list[Problem]:
    """A read-only program used in a way that asks: an "always" covers only this exact command.

    (`shell:git log` from `git log --ext-diff` must not let `git log --output=x` through.)
    """
    return [Problem(p.rule, p.reason) for p in problems]


def _program_in_root(name: str, ctx: Context) -> str | None:
    """Where bash's PATH look-up finds `name` when that is in the working directory: a relative or
    empty PATH entry, or one inside the root (a cloned repository's `bin/ls` would run instead of ls)."""
    inside = ctx.root.rstrip("/") + "/"
    for cwd in ctx.cwds:
        for entry in child_environment(root=ctx.root).get("PATH", "").split(":"):  # what the child gets
            folder = entry if os.path.isabs(entry) else os.path.join(cwd, entry)  # "" is the cwd itself
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                real = os.path.realpath(candidate)
                if real.startswith(inside):
                    return candidate
                break
    return None


def spec_of(words: list[Word], ctx: Context) -> str:
    """`git commit` for tools with subcommands (and configured `prog sub` specs), else the program."""
    binary = words[0].value or "?"
    sub = None
    if binary == "git":
        _, rest, _ = parse_options(GIT_GLOBAL, "git", words[1:])
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

def check_program(name: str, prog: Program, args: list[Word], ctx: Context, spec: str) -> list[Problem]:
    if prog.check == "anything":
        return []
    raw = RAW_CHECKS.get(prog.check)
    if raw is not None:
        return raw(name, args, ctx)
    special = CHECKS.get(prog.check)
    opts, operands, problems = parse_options(prog, name, args)
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
                                f"{name} takes at most {counted(allowed, 'operand')}; `{extra.text}` may be written or run", name))
    kind = prog.operands
    paths = list(operands)
    if kind == "none":
        paths = []
    elif kind == "pattern":
        paths = operands if given(opts, prog.pattern_set) else operands[1:]
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
        paths += [w for w in words if w.value is None and not one_word(w) and w not in paths]
    for w in paths:
        p = path_problem(w, ctx, names_only=name in NAMES_ONLY)
        if p is not None:
            problems.append(p)
    if special is not None:
        problems += special(name, opts, operands, ctx)
    return problems


# --------------------------------------------------------------------------- wrappers


def _wrapper(name: str, args: list[Word], ctx: Context, depth: int) -> list[Problem]:
    wrap = WRAPPERS[name]
    opts, rest, problems = parse_options(wrap.options, name, args)
    if problems:  # the wrapper's own options: only this exact command (`env -S …` is not all of env)
        return [Problem(p.rule, p.reason) for p in problems]
    if any(o.value is not None and o.value.value is None for o in opts):
        return [Problem("runs", f"{name} gets an option value only known when it runs")]
    if any(o.name.lstrip("-") in wrap.lookup_opts for o in opts):
        return []  # `command -v x`: looks x up, runs nothing
    if name == "env":
        sets = [w.value for w in rest if w.value is not None and "=" in w.value and not w.value.startswith("=")]
        while rest and rest[0].value is not None and "=" in rest[0].value:
            rest = rest[1:]
        if sets:
            return [Problem("runs", f"env sets {sets[0].split('=')[0]} for the command it runs")]
        if rest and rest[0].value is None:
            return [Problem("runs", f"env runs `{rest[0].text}`, only known when it runs")]
    if len(rest) < wrap.leading:
        return [Problem("runs", f"{name} lacks its operands", name)]
    if any(w.value is None for w in rest[: wrap.leading]):
        return [Problem("runs", f"{name} gets an operand only known when it runs", name)]
    inner = rest[wrap.leading :]
    if not inner:
        if name == "env":
            return [Problem("secret", "env without a command prints every environment variable, keys included")]
        if wrap.needs_command:
            return [Problem("runs", f"{name} without a command", name)]
        return []
    if name == "xargs":
        inner = inner + [Word(None, "<words read by xargs>", "xargs")]
    return judge(inner, ctx, depth=depth + 1)


# --------------------------------------------------------------------------- git


def _git(args: list[Word], ctx: Context) -> list[Problem]:
    _gopts, rest, problems = parse_options(GIT_GLOBAL, "git", args)
    if problems:
        # only this exact command: an "always" for `git -c …` must not cover every git
        return [Problem("runs", p.reason.replace("git option", "git global option")) for p in problems]
    if not rest:
        return []  # prints usage
    sub_word = rest[0]
    if sub_word.value is None:
        return [Problem("runs", f"git subcommand `{sub_word.text}` is only known when it runs")]
    sub = sub_word.value
    spec = f"git {sub}" if re.match(r"^[a-z][a-z0-9._-]*$", sub) else "git"
    sub_args = rest[1:]
    key = sub
    subs = GIT_WITH_SUB.get(sub)
    if subs is not None and sub_args and sub_args[0].value in subs:
        key = f"{sub} {sub_args[0].value}"
        sub_args = sub_args[1:]
    elif sub in GIT_NEEDS_SUB:
        shown = " ".join(w.text for w in rest[:2])
        return [Problem("runs", f"git {shown} changes the repository (only {', '.join(sorted(subs or ()))} are read-only)", spec)]
    table = GIT.get(key)
    if table is None:
        return [Problem("runs", f"git {sub} is not in the read-only set", spec)]
    opts, operands, problems = parse_options(table, f"git {key}", sub_args)
    problems = [Problem(p.rule, p.reason, spec) for p in problems]
    for o in opts:
        if o.value is not None and o.value.value is None:
            problems.append(Problem("runs", f"git {key} {o.name} gets `{o.value.text}`, only known when it runs", spec))
    if table.max_operands is not None and len(operands) > table.max_operands:
        problems.append(Problem("runs", f"git {key} with `{operands[table.max_operands].text}` changes the repository", spec))
    for o in opts:
        if o.name.lstrip("-") in table.path_set and o.value is not None and (p := path_problem(o.value, ctx)) is not None:
            problems.append(p)
    pattern_first = table.operands == "pattern" and not given(opts, table.pattern_set)
    for k, w in enumerate(operands):
        if pattern_first and k == 0:
            continue
        if (p := _git_operand(w, ctx)) is not None:
            problems.append(p)
    if table.check:
        problems += [Problem(p.rule, p.reason, p.spec and spec) for p in CHECKS[table.check](f"git {key}", opts, operands, ctx)]
    # the repository's own config first: the look-ups below run git in it
    if not problems and ctx.git_config is not None:
        for cwd in ctx.cwds:
            keys = ctx.git_config(cwd)
            if keys:
                problems.append(Problem("runs", f"this repository's own {', '.join(keys)} could make git {sub} run a program or read elsewhere", None))
                break
    if not problems and key == "grep":  # its trees: what they resolve to (`HEAD:.docker`), then its scope
        rest = operands if given(opts, frozenset({"e", "f"})) else operands[1:]
        problems += [p for w in rest if w.value is not None and (p := object_problem("grep", w, ctx)) is not None][:1]
    if not problems and key == "grep":
        problems += check_git_grep_scope(opts, operands, ctx)
    if not problems and (key in DIFF_LIKE or key in LOG_LIKE or key == "cat-file"):
        problems += check_git_content(key, opts, operands, sub_args, ctx)
    if not problems and key == "status":
        problems += _status_diffs(opts, operands, ctx)
    if key in GIT_PRINTS_CONFIG and ctx.git_config is not None:
        for cwd in ctx.cwds:
            if keys := ctx.git_secrets(cwd):
                problems.append(Problem("secret", f"git {key} would print this repository's {keys[0]}, which holds a token"))
                break
    return _exact(problems)


def _status_diffs(opts: list[Opt], operands: list[Word], ctx: Context) -> list[Problem]:
    """`git status -v` prints the staged diff (`git diff --cached`), `-vv` the unstaged one too."""
    level = sum(1 for o in opts if o.name in ("-v", "--verbose"))
    if level == 0:
        return []
    paths = [Word("--", "--"), *operands]
    for words in ([["--cached", "-p"]] + ([["-p"]] if level > 1 else [])):
        diff_args = [*(Word(x, x) for x in words), *paths]
        if problems := check_git_content("diff", [], [], diff_args, ctx):
            return problems
    return []


def _git_operand(w: Word, ctx: Context) -> Problem | None:
    if w.value is None:
        return Problem("runs", f"git gets `{w.text}`, only known when it runs")
    v = w.value
    magic = ""
    if m := re.match(r"^:\(([^)]*)\)(.*)$", v, re.S):  # pathspec magic: `:(top,icase).ENV`
        magic, candidates = m.group(1), [m.group(2)]
    elif m := re.match(r"^:([!^/]+):?(.*)$", v, re.S):  # short magic: `:!x`, `:/x`
        magic, candidates = m.group(1).replace("!", "exclude,").replace("^", "exclude,").replace("/", "top,"), [m.group(2)]
    else:  # `REV:PATH` (a revision may hold colons too: every tail is looked at)
        candidates = [v] + [v[k + 1 :] for k, c in enumerate(v) if c == ":"]
    if "exclude" in magic and "attr" not in magic:
        return None  # it only leaves files out
    if "attr" in magic:
        return Problem("secret", f"`{w.text}` picks files by attributes, which may be secrets")
    if "top" in magic:
        return Problem("outside", f"`{w.text}` names paths from the repository's top, which may be above the working directory")
    fold = "icase" in magic
    for path in candidates:
        # git's own reading: `src/../.e*` and `.//.e*` are `.e*`, `\e` is `e`
        path = os.path.normpath(path.replace("\\", "")) if path else path
        if path.startswith(("/", "~")) or ".." in path.split("/"):
            if (p := path_problem(Word(path, w.text), ctx)) is not None:
                return p
            continue
        plain = re.sub(r"^(\./)+", "", path) or "."
        if path and ctx.sensitive.matches(plain.lower() if fold else plain):
            return Problem("secret", f"`{w.text}`: this looks like a secret")
        for cwd in ctx.cwds if path else ():  # `git blame notes.txt`, a hard link to a file outside: as cat
            if (p := hard_link_problem(os.path.join(cwd, path), ctx, f"`{w.text}`")) is not None:
                return p
        if path and (("literal" not in magic and re.search(r"[*?\[]", path)) or fold):
            hit = secret_matching(plain, ctx, fold=fold, prefix=True)  # git pathspecs are globs (`*` crosses `/`)
            if hit is not None:
                return Problem("secret", f"`{w.text}` matches `{hit}`, which looks like a secret" if hit
                               else f"`{w.text}`: too many files to check it against")
    return None
