"""Is a shell command read-only? Parsed with tree-sitter-bash, judged conservatively.

A command runs without asking only when every simple command in it (across pipes, `&&`,
`;`, subshells, command and process substitutions) is a known read-only program called
with read-only arguments, and nothing writes: no output redirection except to /dev/null,
no variable assignments, function definitions or declarations, no command name that is an
expansion or a path. A parse with errors needs approval.

The approval spec (what an "always" answer allows from then on):
- the commands that need approval, each as `binary` or `binary subcommand` for tools with
  subcommands (`shell:git commit`, `shell:rm`), joined with ", " when several do
  (`shell:git commit, shell:rm`): an "always" covers exactly that set again, not all of git;
- the whole command text (`shell:echo hi > notes.txt`) when what needs approval is not a
  program (a redirection into a file, an assignment, a parse error): only that exact
  command is allowed from then on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable, Sequence

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

Words = list["str | None"]  # None: a word whose value is not known before it runs


@dataclass(frozen=True)
class Verdict:
    read_only: bool
    spec: str = ""  # "shell:..." when approval is needed
    reason: str = ""


@lru_cache(maxsize=1)
def _parser() -> Parser:
    return Parser(Language(tree_sitter_bash.language()))


# Programs that only read, whatever their (non-flagged) arguments; the checked ones below too.
READ_ONLY = frozenset(
    """ls cat head tail wc grep egrep fgrep pwd echo printf which stat du df cut diff basename dirname
    realpath readlink true false test [ id whoami uname printenv nl tac rev od md5sum sha1sum sha256sum
    sha512sum cksum cmp comm fold expand unexpand paste join tr seq sleep type cd column fmt numfmt
    hexdump strings locale nproc arch groups getconf jq ps uptime free""".split()
)
WRAPPERS = frozenset({"xargs", "env", "nice", "timeout", "time", "command", "nohup", "stdbuf"})
ALWAYS_ASK = frozenset({"sudo", "doas", "su", "eval", "exec", "source", ".", "bash", "sh", "zsh", "dash"})
SUBCOMMAND_TOOLS = frozenset(
    "git npm npx pnpm yarn cargo go pip pip3 uv poetry docker podman kubectl gh make apt apt-get brew "
    "systemctl dotnet mvn gradle conda rustup python -m".split()
)
_SUB = re.compile(r"^[a-z][a-z0-9._-]*$")
_GLOB = re.compile(r"[*?\[]")


@dataclass
class _Walk:
    harmless: frozenset[str]
    dangerous: frozenset[str]
    commands: list[str] = field(default_factory=list)  # specs of programs needing approval
    whole: list[str] = field(default_factory=list)  # reasons that are not one program
    reasons: list[str] = field(default_factory=list)


def classify(command: str, harmless: Iterable[str] = (), dangerous: Iterable[str] = ()) -> Verdict:
    text = command.strip()
    if not text:
        return Verdict(False, "shell:", "the command is empty")
    tree = _parser().parse(text.encode("utf-8"))
    if tree.root_node.has_error:
        return Verdict(False, f"shell:{text}", "the command could not be parsed with certainty")
    walk = _Walk(frozenset(_norm(harmless)), frozenset(_norm(dangerous)))
    _visit(tree.root_node, walk)
    if walk.whole:
        return Verdict(False, f"shell:{text}", "; ".join(dict.fromkeys(walk.whole + walk.reasons)))
    if walk.commands:
        specs = sorted(set(walk.commands))
        return Verdict(False, ", ".join(f"shell:{s}" for s in specs), "; ".join(dict.fromkeys(walk.reasons)))
    return Verdict(True)


def _norm(specs: Iterable[str]) -> list[str]:
    return [" ".join(s.split()) for s in specs if s and s.strip()]


# --------------------------------------------------------------------------- the tree


def _visit(node: Node, walk: _Walk) -> None:
    kind = node.type
    if kind == "command":
        _simple_command(node, walk)
    elif kind == "file_redirect":
        _redirect(node, walk)
    elif kind == "variable_assignment":
        walk.whole.append("it assigns a variable")
    elif kind in ("function_definition", "declaration_command", "unset_command"):
        walk.whole.append(f"it contains a {kind.replace('_', ' ')}")
    for child in node.children:
        _visit(child, walk)


def _literal(node: Node) -> str | None:
    """The value bash would give this word, or None when it depends on expansion."""
    text = node.text.decode("utf-8", "replace")
    kind = node.type
    if kind == "word":
        if _GLOB.search(text):
            return None  # a glob could expand to any file name, "-delete" included
        return re.sub(r"\\(.)", r"\1", text)
    if kind == "number":
        return text
    if kind == "raw_string":
        return text[1:-1]
    if kind == "string":
        parts = []
        for c in node.children:
            if c.type == '"':
                continue
            if c.type != "string_content":
                return None
            parts.append(c.text.decode("utf-8", "replace"))
        return "".join(parts)
    if kind in ("concatenation", "command_name"):
        parts = [_literal(c) for c in node.children]
        return None if any(p is None for p in parts) else "".join(parts)  # type: ignore[arg-type]
    return None


def _redirect(node: Node, walk: _Walk) -> None:
    op, target = "", None
    for c in node.children:
        if c.type == "file_descriptor":
            continue
        if not op:
            op = c.type
        else:
            target = c
    if op == "<":
        return
    if op in (">&", "<&") and target is not None and (target.type == "number" or target.text == b"-"):
        return  # 2>&1, >&-: duplicating or closing a descriptor
    if target is not None and _literal(target) == "/dev/null":
        return
    shown = node.text.decode("utf-8", "replace")
    walk.whole.append(f"it redirects output into a file ({shown})")


def _simple_command(node: Node, walk: _Walk) -> None:
    words: Words = []
    for c in node.children:
        if c.type == "command_name":
            words.append(_literal(c))
        elif c.type in ("variable_assignment", "file_redirect", "herestring_redirect", "heredoc_redirect"):
            continue
        elif words:
            words.append(_literal(c))
    if not words:
        return
    _judge(words, walk)


# --------------------------------------------------------------------------- programs


def _spec_of(words: Words, walk: _Walk) -> str:
    binary = words[0] or "?"
    rest = _positionals(words[1:], binary)
    sub = rest[0] if rest else None
    configured = {s.split(" ", 1)[1] for s in walk.harmless | walk.dangerous if s.startswith(binary + " ")}
    if sub and _SUB.match(sub) and (binary in SUBCOMMAND_TOOLS or sub in configured):
        return f"{binary} {sub}"
    return binary


def _positionals(args: Words, binary: str) -> list[str]:
    if binary == "git":
        return [w for w in _git_split(args)[1] if w is not None][:1]
    return [w for w in args if w is not None and not w.startswith("-")]


def _judge(words: Words, walk: _Walk) -> None:
    binary = words[0]
    if binary is None:
        walk.whole.append("its command name is computed when it runs")
        return
    if "/" in binary:
        walk.commands.append(binary)
        walk.reasons.append(f"{binary} is a program given by path")
        return
    spec = _spec_of(words, walk)
    if binary in walk.dangerous or spec in walk.dangerous:
        walk.commands.append(spec)
        walk.reasons.append(f"{spec} is configured as dangerous")
        return
    if binary in walk.harmless or spec in walk.harmless:
        return
    if binary in WRAPPERS:
        _wrapper(words, walk)
        return
    problem = _read_only_problem(binary, words[1:])
    if problem is not None:
        walk.commands.append(spec)
        walk.reasons.append(problem)


def _read_only_problem(binary: str, args: Words) -> str | None:
    if binary in ALWAYS_ASK:
        return f"{binary} runs other commands or with other rights"
    checker = CHECKERS.get(binary)
    if checker is not None:
        return checker(args)
    if binary in READ_ONLY:
        return None
    return f"{binary} is not known to be read-only"


def _unknown(args: Words, binary: str) -> str | None:
    if any(a is None for a in args):
        return f"{binary} has an argument whose value is only known when it runs"
    return None


def _find(args: Words) -> str | None:
    bad = {"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}
    hit = next((a for a in args if a in bad), None)
    return f"find {hit} changes files or runs commands" if hit else _unknown(args, "find")


_SED_SCRIPT = re.compile(
    r"^\s*(?:(?:\d+|\$|/[^/]*/)(?:,(?:\d+|\$|/[^/]*/))?)?\s*"
    r"(?:[pdq=]|s(?P<d>[^\w\s\\])(?:\\.|(?!(?P=d)).)*(?P=d)(?:\\.|(?!(?P=d)).)*(?P=d)[gpiI0-9]*)\s*$"
)


def _sed(args: Words) -> str | None:
    if (u := _unknown(args, "sed")) is not None:
        return u
    scripts, files, i = [], [], 0
    while i < len(args):
        a = args[i] or ""
        if a in ("-e", "--expression"):
            scripts.append(args[i + 1] if i + 1 < len(args) else "")
            i += 2
            continue
        if a.startswith("--expression="):
            scripts.append(a.split("=", 1)[1])
        elif a.startswith("--"):
            if a not in ("--quiet", "--silent", "--regexp-extended", "--null-data", "--posix", "--unbuffered"):
                return f"sed {a} is not a read-only option"
        elif a.startswith("-") and len(a) > 1:
            if set(a[1:]) - set("nErszu"):
                return f"sed {a} may edit files in place or run a script file"
        else:
            files.append(a)
        i += 1
    if not scripts:
        if not files:
            return None
        scripts.append(files.pop(0))
    for s in scripts:
        if not all(_SED_SCRIPT.match(part) for part in s.split(";") if part.strip()):
            return f"sed script {s!r} is not a plain print/substitute (it could write or run commands)"
    return None


def _sort(args: Words) -> str | None:
    for a in args:
        if a and (a.startswith(("--output", "--compress-program")) or (a.startswith("-") and not a.startswith("--") and "o" in a)):
            return f"sort {a} writes a file or runs a program"
    return _unknown(args, "sort")


def _uniq(args: Words) -> str | None:
    positional = [a for a in args if a is None or not a.startswith("-")]
    return "uniq with an output file writes it" if len(positional) > 1 else _unknown(args, "uniq")


def _tree(args: Words) -> str | None:
    hit = next((a for a in args if a and (a == "-o" or a.startswith("-o") or a == "-R")), None)
    return f"tree {hit} writes files" if hit else _unknown(args, "tree")


def _rg(args: Words) -> str | None:
    hit = next((a for a in args if a and a.startswith("--pre")), None)
    return f"rg {hit} runs a program" if hit else _unknown(args, "rg")


def _file(args: Words) -> str | None:
    hit = next((a for a in args if a and (a == "--compile" or (a.startswith("-") and not a.startswith("--") and "C" in a))), None)
    return f"file {hit} writes a magic file" if hit else None


def _date(args: Words) -> str | None:
    hit = next((a for a in args if a and (a.startswith("--set") or (a.startswith("-") and not a.startswith("--") and "s" in a))), None)
    return f"date {hit} sets the clock" if hit else None


_GIT_READ = frozenset(
    "status log diff show blame rev-parse ls-files shortlog describe ls-tree cat-file rev-list name-rev "
    "merge-base whatchanged count-objects show-ref for-each-ref version grep".split()
)
_GIT_GLOBAL_OK = frozenset({"--no-pager", "--no-optional-locks", "--literal-pathspecs", "--no-replace-objects"})


def _git_split(args: Words) -> tuple[str | None, Words]:
    """(the first global option that is not known safe, the words from the subcommand on)."""
    for i, a in enumerate(args):
        if a is None:
            return "an argument computed when it runs", args[i:]
        if not a.startswith("-"):
            return None, args[i:]
        if a not in _GIT_GLOBAL_OK:
            return a, args[i + 1 :]
    return None, []


def _git(args: Words) -> str | None:
    bad_global, rest = _git_split(args)
    if bad_global is not None:
        return f"git {bad_global} can change what git runs or where it writes"
    if not rest:
        return None
    sub, sub_args = rest[0], rest[1:]
    if (u := _unknown(sub_args, f"git {sub}")) is not None:
        return u
    flags = [a for a in sub_args if a and a.startswith("-")]
    positional = [a for a in sub_args if a and not a.startswith("-")]
    if sub in _GIT_READ:
        hit = next((f for f in flags if f.startswith(("--output", "--ext-diff", "--open-files-in-pager")) or (sub == "grep" and f.startswith("-O"))), None)
        return f"git {sub} {hit} writes a file or runs a program" if hit else None
    listing = {
        "branch": not positional and set(flags) <= {"-a", "-r", "-v", "-vv", "--list", "-l", "--show-current", "--all", "--remotes", "--verbose"},
        "tag": not positional and set(flags) <= {"-l", "--list"},
        "remote": (not sub_args or sub_args in (["-v"], ["--verbose"])) or (positional[:1] == ["get-url"]),
        "stash": positional[:1] in (["list"], ["show"]),
        "worktree": positional[:1] == ["list"],
        "reflog": not positional or positional[:1] == ["show"],
        "config": bool(flags) and all(f in ("--get", "--list", "-l", "--get-regexp", "--get-all", "--show-origin", "--global", "--local") for f in flags) and any(f in ("--get", "--list", "-l", "--get-regexp", "--get-all") for f in flags),
    }
    if listing.get(sub):
        return None
    return f"git {sub} may change the repository"


CHECKERS: dict[str, Callable[[Words], str | None]] = {
    "find": _find, "sed": _sed, "sort": _sort, "uniq": _uniq, "tree": _tree, "rg": _rg, "file": _file,
    "date": _date, "git": _git,
}

# --------------------------------------------------------------------------- wrappers

_WRAPPER_ARG_OPTS = {
    "xargs": {"-I", "-n", "-P", "-d", "-E", "-L", "-s", "-a", "--arg-file", "--max-args", "--max-procs", "--delimiter"},
    "env": {"-u", "--unset", "-C", "--chdir"},
    "nice": {"-n", "--adjustment"},
    "timeout": {"-s", "--signal", "-k", "--kill-after"},
    "stdbuf": {"-i", "-o", "-e"},
    "command": set(),
    "time": {"-f", "-o"},
    "nohup": set(),
}


def _wrapper(words: Words, walk: _Walk) -> None:
    binary = words[0] or ""
    args = words[1:]
    if any(a is None for a in args):
        walk.commands.append(binary)
        walk.reasons.append(f"{binary} has an argument whose value is only known when it runs")
        return
    i = 0
    takes = _WRAPPER_ARG_OPTS[binary]
    while i < len(args) and (args[i] or "").startswith("-") and args[i] != "-":
        a = args[i] or ""
        if binary == "env" and a.startswith(("-S", "--split-string")):
            walk.commands.append("env")
            walk.reasons.append("env -S runs a command line")
            return
        if binary == "time" and a == "-o":
            walk.commands.append("time")
            walk.reasons.append("time -o writes a file")
            return
        if binary == "command" and a in ("-v", "-V"):
            return  # a lookup, runs nothing
        i += 2 if a in takes else 1
    inner = list(args[i:])
    if binary == "env":
        while inner and "=" in (inner[0] or ""):
            walk.whole.append("env sets a variable for the command it runs")
            inner.pop(0)
        if not inner:
            return  # prints the environment
    elif binary == "timeout":
        inner = inner[1:]  # the duration
    elif binary == "xargs":
        if not inner:
            return  # echo
        if _read_only_problem(inner[0] or "", []) is None and (inner[0] or "") in CHECKERS:
            walk.commands.append(_spec_of(inner, walk))
            walk.reasons.append(f"xargs gives {inner[0]} arguments only known when it runs")
            return
    if not inner:
        walk.commands.append(binary)
        walk.reasons.append(f"{binary} without a command")
        return
    _judge(inner, walk)


def specs_in(verdict: Verdict) -> Sequence[str]:
    """The individual specs of a verdict (one, or several joined by ', ')."""
    return [s for s in verdict.spec.split(", ") if s]
