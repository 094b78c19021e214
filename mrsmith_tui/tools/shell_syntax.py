"""Is a shell command read-only? Parsed with tree-sitter-bash, judged by an allowlist.

A command runs without asking only when every part of it is known to be read-only:
- its syntax is from a small known set (lists, pipes, subshells, if/while/case/for, `[[ ]]`
  without code-evaluating operators, `$(…)`, `<(…)`): anything else asks;
- every simple command, after bash's own expansions (quotes, braces, `~`, globs against the
  root's files), fits its program's table in shell_allow_files.py exactly (shell_argv.py);
  wrappers (`xargs`, `env`, `timeout`, ...) are peeled and what they run is judged again;
- nothing is written (redirections only to /dev/null or between descriptors), nothing is
  assigned, no here-doc body expands, no `/dev/tcp` or `/dev/udp`;
- every path it reads is inside the working directory and does not look like a secret;
- a read-only git command runs only when the repository's own config sets no program git
  would run (core.fsmonitor, diff textconv/external, filters, gpg, ...).

The approval spec (what an "always" answer allows from then on):
- the programs that need approval, each as `binary` or `binary subcommand` for tools with
  subcommands (`shell:git commit`, `shell:rm`), joined with ", " when several do;
- the whole command text (`shell:echo hi > notes.txt`) when what needs approval is not a
  program (a redirection, an assignment, a path outside the root or a secret, a parse error).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import tree_sitter_bash
from tree_sitter import Language, Node, Parser

from mrsmith_tui.security.environment import looks_secret
from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.tools.base import Rule
from mrsmith_tui.tools.shell_allow_bash import (
    LOOP_VARIABLE,
    PROXY_VARIABLES,
    SECRET_VARIABLE,
    TEST_EVALUATES,
    TEST_FILE_BINARY,
    TEST_FILE_UNARY,
)
from mrsmith_tui.tools.shell_argv import is_filter, is_lister, judge
from mrsmith_tui.tools.shell_check_scripts import test_path_problem
from mrsmith_tui.tools.shell_context import Context, Problem, git_config_keys, git_toplevel, path_problem
from mrsmith_tui.tools.shell_words import Word, expand, lex

RULE_ORDER: tuple[Rule, ...] = ("runs", "writes", "network", "secret", "outside", "other")


@dataclass(frozen=True)
class Verdict:
    read_only: bool
    spec: str = ""  # "shell:..." when approval is needed
    reason: str = ""
    rule: Rule = "other"


@lru_cache(maxsize=1)
def _parser() -> Parser:
    return Parser(Language(tree_sitter_bash.language()))


def classify(
    command: str,
    harmless: Iterable[str] = (),
    dangerous: Iterable[str] = (),
    *,
    root: str | os.PathLike[str] | None = None,
    sensitive: SensitivePaths | None = None,
) -> Verdict:
    try:
        return _classify(command, harmless, dangerous, root, sensitive)
    except (RecursionError, OSError, ValueError, UnicodeError) as e:  # nested too deep, an odd path: ask
        text = command.strip()
        return Verdict(False, f"shell:{text}", f"the command could not be judged ({type(e).__name__})", "other")


def _classify(
    command: str,
    harmless: Iterable[str],
    dangerous: Iterable[str],
    root: str | os.PathLike[str] | None,
    sensitive: SensitivePaths | None,
) -> Verdict:
    text = command.strip()
    if not text:
        return Verdict(False, "shell:", "the command is empty", "other")
    if re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text):
        return Verdict(False, f"shell:{text}", "the command holds control characters (bash and the parser may split it differently)", "other")
    if _VARIABLE_REDIRECT.search(text):  # the parser reads `{PATH}<a` as a word and a redirection
        return Verdict(False, f"shell:{text}", "a `{name}<…` redirection assigns a variable (`true {PATH}<a; ls` runs ./11/ls)", "runs")
    tree = _parser().parse(text.encode("utf-8"))
    if tree.root_node.has_error or _has_missing(tree.root_node):
        return Verdict(False, f"shell:{text}", "the command could not be parsed with certainty", "other")
    if _unseen_substitutions(tree.root_node, text.encode("utf-8")):
        return Verdict(False, f"shell:{text}", "it has a command substitution the parser did not see", "runs")
    real_root = os.path.realpath(root if root is not None else os.getcwd())
    config_cache: dict[str, list[str]] = {}

    def git_config(cwd: str) -> list[str]:
        if cwd not in config_cache:
            config_cache[cwd] = git_config_keys(cwd)
            top = git_toplevel(cwd)  # a dotfiles repository in $HOME: `git log -p` shows files above the root
            if top is not None and os.path.commonpath([real_root, os.path.realpath(top)]) != real_root:
                config_cache[cwd] = [f"work tree at {top} (above the working directory)", *config_cache[cwd]]
        return config_cache[cwd]

    ctx = Context(real_root, sensitive or SensitivePaths(), [real_root], frozenset(_norm(harmless)),
                  frozenset(_norm(dangerous)), git_config=git_config)
    problems = _walk(tree.root_node, ctx)
    # a `cd` inside the root moves where later relative paths point: judge again from there too
    for _ in range(3):
        targets = {os.path.normpath(t if os.path.isabs(t) else os.path.join(c, t)) for t in ctx.cd_targets for c in ctx.cwds}
        new = sorted(t for t in targets if t not in ctx.cwds)
        if not new:
            break
        ctx.cwds += new
        ctx.cd_targets = []
        problems = _walk(tree.root_node, ctx)
    if not problems:
        return Verdict(True)
    reasons = "; ".join(dict.fromkeys(p.reason for p in problems))
    rule = min((p.rule for p in problems), key=RULE_ORDER.index)
    if any(p.spec is None for p in problems):
        return Verdict(False, f"shell:{text}", reasons, rule)
    specs = sorted({p.spec for p in problems if p.spec})
    return Verdict(False, ", ".join(f"shell:{s}" for s in specs), reasons, rule)


_VARIABLE_REDIRECT = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\}(?:[<>]|&>)")


def _norm(specs: Iterable[str]) -> list[str]:
    return [" ".join(s.split()) for s in specs if s and s.strip()]


def _has_missing(node: Node) -> bool:
    return node.is_missing or any(_has_missing(c) for c in node.children)


def _unseen_substitutions(root: Node, raw: bytes) -> bool:
    """A second, independent look: does the text hold more `$(`, backticks, `<(`, `>(` than the tree?

    tree-sitter-bash misses some (a backtick inside `"${x:-…}"`); anything it does not show as
    a node would run unjudged. Comments and here-document bodies are blanked first (a quoted
    here-document's body is literal; an unquoted one with `$` or backticks asks anyway).
    """
    buf = bytearray(raw)
    seen = 0
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in ("comment", "heredoc_body"):
            buf[n.start_byte : n.end_byte] = b" " * (n.end_byte - n.start_byte)
            continue
        if n.type in ("command_substitution", "process_substitution"):
            seen += 1
        stack += n.children
    return _count_substitutions(buf.decode("utf-8", "replace")) > seen


def _count_substitutions(text: str) -> int:
    """Substitutions bash could run, counted generously (over-counting only makes it ask)."""
    count = ticks = 0
    i, n = 0, len(text)
    in_double = False
    braces = 0  # inside ${…}: quotes there do not protect
    while i < n:
        c = text[i]
        if c == "\\":
            if ticks % 2 and text[i + 1 : i + 2] == "`":
                count += 1  # `echo \`touch y\`` inside backticks: a nested substitution
            i += 2
            continue
        if c == "'" and not in_double and not braces:
            j = text.find("'", i + 1)
            i = n if j < 0 else j + 1
            continue
        if c == "$" and text[i + 1 : i + 2] == "'" and not in_double and not braces:
            j = i + 2
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == '"':
            in_double = not in_double
        elif c == "$" and text[i + 1 : i + 2] == "{":
            braces += 1
        elif c == "}" and braces:
            braces -= 1
        elif c == "$" and text[i + 1 : i + 2] == "(" and text[i + 2 : i + 3] != "(":
            count += 1
        elif c in "<>" and text[i + 1 : i + 2] == "(" and not in_double and not braces:
            count += 1
        elif c == "`":
            ticks += 1
        i += 1
    return count + (ticks + 1) // 2


def specs_in(verdict: Verdict) -> Sequence[str]:
    """The individual specs of a verdict (one, or several joined by ', ')."""
    return [s for s in verdict.spec.split(", ") if s]


# --------------------------------------------------------------------------- the tree

_CONTAINERS = frozenset({
    "program", "list", "subshell", "do_group", "if_statement", "elif_clause", "else_clause", "while_statement",
    "negated_command", "case_statement", "case_item", "compound_statement",
})
_WORDS = frozenset({
    "word", "string", "raw_string", "ansi_c_string", "translated_string", "concatenation", "simple_expansion",
    "expansion", "command_substitution", "process_substitution", "arithmetic_expansion", "number",
    "brace_expression", "string_content", "extglob_pattern",
})
_SIMPLE_EXPANSION_OPS = r"(?::?[-+?]|%%?|##?|//?|/#|/%|\^\^?|,,?)"
_EXPANSION = re.compile(
    r"^\$\{#?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?:\[[@*]\]|\[[0-9]+\])?(?:" + _SIMPLE_EXPANSION_OPS + r".*)?\}$",
    re.S,
)
_ARITH_PLAIN = re.compile(r"^[\s0-9+\-*/%()<>=!&|^~?:,]*$")


def _walk(node: Node, ctx: Context) -> list[Problem]:
    out: list[Problem] = []
    _stmt(node, ctx, out)
    return out


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")  # None only for a tree parsed without its source


def _stmt(node: Node, ctx: Context, out: list[Problem], stdin_lister: str | None = None) -> None:
    kind = node.type
    if kind == "comment":
        return
    if kind == "command":
        _simple(node, ctx, out, stdin_lister)
    elif kind == "pipeline":
        _pipeline(node, ctx, out)
    elif kind == "redirected_statement":
        for c in node.named_children:
            if c.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                _redirect(c, ctx, out)
            else:
                _stmt(c, ctx, out, stdin_lister)
    elif kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
        _redirect(node, ctx, out)
    elif kind == "compound_statement" and node.children and node.children[0].type == "((":
        _arith(node, out)
    elif kind == "test_command":
        _test_command(node, ctx, out)
    elif kind == "for_statement":
        _for(node, ctx, out)
    elif kind in _CONTAINERS:
        for c in node.named_children:
            if c.type in _WORDS:
                _scan(c, ctx, out)
            else:
                _stmt(c, ctx, out)
    elif kind in ("variable_assignment", "variable_assignments"):
        out.append(Problem("runs", f"it assigns a variable (`{_text(node)[:60]}`)"))
    elif kind in _WORDS:
        _scan(node, ctx, out)
    else:
        out.append(Problem("runs", f"it uses {kind.replace('_', ' ')} (`{_text(node)[:60]}`)"))


def _pipeline(node: Node, ctx: Context, out: list[Problem]) -> None:
    feeding: str | None = None  # the previous stage prints file names: "git" (tracked) or "tree"
    for c in node.named_children:
        _stmt(c, ctx, out, stdin_lister=feeding)
        words = _plain_words(c, ctx)
        if words is None:
            feeding = None
        else:
            feeding = is_lister(words, ctx) or (feeding if feeding and is_filter(words) else None)


def _plain_words(node: Node, ctx: Context) -> list[Word] | None:
    if node.type != "command":
        return None
    words: list[Word] = []
    for c in node.named_children:
        if c.type == "command_name":
            words += expand(_text(c), ctx.cwds)
        elif c.type in _WORDS:
            words += expand(_text(c), ctx.cwds)
        else:
            return None
    return words


def _simple(node: Node, ctx: Context, out: list[Problem], stdin_lister: str | None) -> None:
    args: list[Node] = []
    for c in node.named_children:
        kind = c.type
        if kind in ("variable_assignment", "variable_assignments"):
            out.append(Problem("runs", f"it sets a variable for the command (`{_text(c)[:60]}`)"))
            _scan(c, ctx, out)
        elif kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
            _redirect(c, ctx, out)
        elif kind == "command_name" or kind in _WORDS:
            _scan(c, ctx, out)
            args.append(c)
        else:
            out.append(Problem("runs", f"it uses {kind.replace('_', ' ')} (`{_text(c)[:60]}`)"))
    # inside `for f in a b`, a command using $f runs once with each value: judge each
    loop = next((m.group(2) for a in args if (m := _LOOP_REF.match(_text(a))) and m.group(2) in ctx.loops), None)
    for value in ctx.loops[loop] if loop else [None]:
        words = [w for a in args for w in _argument(a, ctx, (loop, value) if loop else None)]
        out += [p for p in judge(words, ctx, stdin_lister=stdin_lister) if p not in out]


_LOOP_REF = re.compile(r'^("?)\$\{?([a-z][a-z0-9_]*)\}?\1$')


def _argument(node: Node, ctx: Context, loop: tuple[str, Word | None] | None = None) -> list[Word]:
    inner = node.named_children[0] if node.type == "command_name" and node.named_child_count == 1 else node
    text = _text(node)
    m = _LOOP_REF.match(text)
    if loop is not None and m and m.group(2) == loop[0] and loop[1] is not None:
        value = loop[1]
        quoted = bool(m.group(1))
        if value.value is None:
            return [Word(None, text, value.origin)]  # a lister's name stays a lister's name
        if quoted or not re.search(r"[\s*?\[]", value.value):
            return [Word(value.value, text, value.origin)]
        return [Word(None, text, "dynamic")]  # unquoted: split and matched again
    if inner.type == "string" and inner.named_child_count == 1 and inner.named_children[0].type == "command_substitution":
        inner = inner.named_children[0]
    if inner.type == "process_substitution":
        return [Word(None, text, "procsub")]
    if inner.type == "command_substitution":
        body = [c for c in inner.named_children if c.type != "comment"]
        kind = _lister_kind(body[0], ctx) if len(body) == 1 else None
        return [Word(None, text, f"lister:{kind}" if kind else "dynamic")]
    return expand(text, ctx.cwds)


def _lister_kind(node: Node, ctx: Context) -> str | None:
    if node.type == "command":
        words = _plain_words(node, ctx)
        return is_lister(words, ctx) if words is not None else None
    if node.type == "pipeline":
        stages = [_plain_words(c, ctx) for c in node.named_children]
        if any(s is None for s in stages) or not all(is_filter(s) for s in stages[1:]):  # type: ignore[arg-type]
            return None
        return is_lister(stages[0], ctx)  # type: ignore[arg-type]
    return None


def _scan(node: Node, ctx: Context, out: list[Problem]) -> None:
    """The commands and code hidden inside a word: substitutions, arithmetic, expansions."""
    kind = node.type
    if kind in ("command_substitution", "process_substitution"):
        for c in node.named_children:
            _stmt(c, ctx, out)
        return
    if kind == "arithmetic_expansion":
        _arith(node, out)
        return
    if kind == "expansion" and not _EXPANSION.match(_text(node)):
        out.append(Problem("runs", f"the expansion `{_text(node)[:60]}` can assign or evaluate code"))
    if kind in ("expansion", "simple_expansion"):
        name = re.match(r"^\$\{?#?([A-Za-z_][A-Za-z0-9_]*)", _text(node))
        if name and (SECRET_VARIABLE.search(name.group(1)) or looks_secret(name.group(1))):
            out.append(Problem("secret", f"`{_text(node)[:60]}` expands {name.group(1)}, which looks like a credential"))
    for c in node.named_children:
        _scan(c, ctx, out)


def _arith(node: Node, out: list[Problem]) -> None:
    text = _text(node)
    body = text[3:-2] if text.startswith("$((") else text[2:-1] if text.startswith("$[") else text[2:-2]
    if not _ARITH_PLAIN.match(body) or re.search(r"(?<![=!<>])=(?!=)", body):
        out.append(Problem("runs", f"the arithmetic `{text[:60]}` names variables, which bash evaluates as code"))


def _test_command(node: Node, ctx: Context, out: list[Problem]) -> None:
    """`[[ … ]]`: -v/-R and arithmetic comparisons evaluate operands as code unless plain numbers.

    A variable there is evaluated too, and its value may hold `a[$(…)]` (a loop variable can).
    """
    def visit(n: Node) -> None:
        if n.type == "test_operator" or (not n.is_named and n.type.startswith("-")):
            op = _text(n)
            if op in TEST_EVALUATES:
                out.append(Problem("runs", f"[[ {op} … ]] evaluates its operand (an array subscript can run commands)"))
            if (op in TEST_FILE_UNARY or op in TEST_FILE_BINARY) and n.parent is not None:
                for operand in n.parent.named_children:
                    plain = operand.type in _WORDS or (  # `~/.ssh` parses as an operator-less unary expression
                        operand.type == "unary_expression" and not any(c.type == "test_operator" for c in operand.children))
                    if plain and operand.type not in ("simple_expansion", "expansion"):
                        for w in expand(_text(operand), ctx.cwds):
                            if (p := test_path_problem(w, ctx)) is not None:
                                out.append(p)
            if op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge") and n.parent is not None:
                for operand in n.parent.named_children:
                    if operand.type == "test_operator":
                        continue
                    t = _text(operand)
                    if not re.match(r"^-?[0-9]+$", t) and not re.match(r"^\"?\$(?:[#?$!]|\{[#?$!]\})\"?$", t):
                        out.append(Problem("runs", f"[[ {t} {op} … ]] evaluates `{t}` as arithmetic code"))
            return
        if n.type in ("command_substitution", "process_substitution", "arithmetic_expansion", "expansion", "simple_expansion"):
            _scan(n, ctx, out)  # `[[ $OPENAI_API_KEY == sk-a* ]]` guesses a secret one letter at a time
            return
        for c in n.children:
            visit(c)

    for c in node.children:
        visit(c)
    if node.children and node.children[0].type == "[":
        _split_operands(node, out)


def _split_operands(node: Node, out: list[Problem]) -> None:
    """`[ $x ]` splits an unquoted value into words: `-v a[$(…)]` (a loop variable can hold it) runs code."""
    for c in node.named_children:
        if c.type in ("string", "raw_string", "ansi_c_string", "word", "number", "test_operator"):
            continue
        expands = ("simple_expansion", "expansion", "command_substitution")
        if c.type in expands or (c.type == "concatenation" and any(g.type in expands for g in c.children)):
            out.append(Problem("runs", f"[ gets `{_text(c)[:60]}` unquoted, which could split into an operator that runs code"))
        else:
            _split_operands(c, out)


def _for(node: Node, ctx: Context, out: list[Problem]) -> None:
    if node.children and node.children[0].type == "select":
        out.append(Problem("runs", "select reads a choice and assigns a variable"))
    name, values, has_in = None, [], any(c.type == "in" for c in node.children)
    for c in node.named_children:
        if c.type == "variable_name":
            name = _text(c)
            if not LOOP_VARIABLE.match(name) or name in PROXY_VARIABLES:
                out.append(Problem("runs", f"the loop assigns {name}, which changes what later commands run or read"))
        elif c.type in _WORDS:
            _scan(c, ctx, out)
            values += _argument(c, ctx)
    saved = dict(ctx.loops)
    if name is not None:
        ctx.loops.pop(name, None)
        if has_in and len(values) <= MAX_LOOP_VALUES:
            ctx.loops[name] = values
    try:
        for c in node.named_children:
            if c.type not in _WORDS and c.type != "variable_name":
                _stmt(c, ctx, out)
    finally:
        ctx.loops = saved
        if name is not None and name in saved:  # an inner loop leaves its last value behind
            ctx.loops[name] = saved[name] + values
            if not has_in or len(ctx.loops[name]) > MAX_LOOP_VALUES:
                ctx.loops.pop(name)


MAX_LOOP_VALUES = 64


def _heredoc_misread(node: Node, start: Node) -> bool:
    """Bash ends a here-document at its delimiter with quotes removed (`<<E'OF'` ends at `EOF`);
    the parser may not, and lines it takes for the body would run. True when they disagree."""
    segs = lex(_text(start))
    if segs is None:
        return True
    delimiter = "".join(c for c, _ in segs)
    strip_tabs = any(not c.is_named and c.type == "<<-" for c in node.children)
    ends = [c for c in node.named_children if c.type == "heredoc_end"]
    if ends and (_text(ends[0]).lstrip("\t") if strip_tabs else _text(ends[0])) != delimiter:
        return True
    for body in (c for c in node.named_children if c.type == "heredoc_body"):
        for line in _text(body).split("\n"):
            if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                return True
    return False


def _redirect(node: Node, ctx: Context, out: list[Problem]) -> None:
    if node.type == "herestring_redirect":
        for c in node.named_children:
            _scan(c, ctx, out)
        return
    if node.type == "heredoc_redirect":
        start = next((c for c in node.named_children if c.type == "heredoc_start"), None)
        quoted = start is not None and re.search(r"['\"\\]", _text(start))
        if start is not None and _heredoc_misread(node, start):
            out.append(Problem("runs", f"the here-document `{_text(start)}` ends where bash, not the parser, says"))
            return
        for c in node.named_children:
            if c.type == "heredoc_body":
                if not quoted and re.search(r"[$`]", _text(c)):
                    out.append(Problem("runs", "the here-document expands `$…` or backticks in its body"))
            elif c.type in ("file_redirect", "herestring_redirect"):
                _redirect(c, ctx, out)
            elif c.type in ("heredoc_start", "heredoc_end", "heredoc_content"):
                continue
            elif c.type in _WORDS:
                _scan(c, ctx, out)
            else:
                _stmt(c, ctx, out)
        return
    op = next((c.type for c in node.children if not c.is_named), "")
    targets = [c for c in node.named_children if c.type != "file_descriptor"]
    for t in targets:
        _scan(t, ctx, out)
    shown = _text(node)
    if not targets:
        out.append(Problem("other", f"a redirection it cannot read (`{shown}`)"))
        return
    words = [w for t in targets for w in _argument(t, ctx)]
    if op in (">&", "<&") and len(words) == 1 and words[0].value is not None and re.match(r"^(\d+|-|\d+-)$", words[0].value):
        return  # 2>&1, >&-: duplicating or closing a descriptor
    if len(words) != 1:
        out.append(Problem("writes", f"a redirection target that is not one known file (`{shown}`)"))
        return
    w = words[0]
    if w.value is not None and re.match(r"^/dev/(tcp|udp)/", w.value):
        out.append(Problem("network", f"`{shown}` opens a network connection"))
        return
    if op == "<":
        p = path_problem(w, ctx)
        if p is not None:
            out.append(p)
        return
    if w.value == "/dev/null" or (w.value in ("/dev/stdout", "/dev/stderr") and op in (">", ">>")):
        return
    out.append(Problem("writes", f"it redirects output into a file (`{shown}`)"))
