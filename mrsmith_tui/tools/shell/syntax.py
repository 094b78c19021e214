"""The walk over bash's syntax tree: which statements, words, loops, tests and expansions a
command holds, each judged as it is met (simple commands by argv.py, redirections by
redirects.py). Anything outside the small known set of syntax asks."""

from __future__ import annotations

import re

from tree_sitter import Node

from mrsmith_tui.security.environment import looks_secret
from mrsmith_tui.tools.shell.allow_bash import (
    LOOP_VARIABLE,
    PROXY_VARIABLES,
    SECRET_VARIABLE,
    TEST_EVALUATES,
    TEST_FILE_BINARY,
    TEST_FILE_UNARY,
)
from mrsmith_tui.tools.shell.argv import judge
from mrsmith_tui.tools.shell.check_builtins import test_path_problem
from mrsmith_tui.tools.shell.context import Context, Problem
from mrsmith_tui.tools.shell.parse import node_text
from mrsmith_tui.tools.shell.redirects import file_redirect_problems, heredoc_misread
from mrsmith_tui.tools.shell.words import Word, expand

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


def walk(node: Node, ctx: Context) -> list[Problem]:
    out: list[Problem] = []
    _stmt(node, ctx, out)
    return out


def _stmt(node: Node, ctx: Context, out: list[Problem]) -> None:
    kind = node.type
    if kind == "comment":
        return
    if kind == "command":
        _simple(node, ctx, out)
    elif kind == "pipeline":
        _pipeline(node, ctx, out)
    elif kind == "redirected_statement":
        for c in node.named_children:
            if c.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                _redirect(c, ctx, out)
            else:
                _stmt(c, ctx, out)
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
        out.append(Problem("runs", f"it assigns a variable (`{node_text(node)[:60]}`)"))
    elif kind in _WORDS:
        _scan(node, ctx, out)
    else:
        out.append(Problem("runs", f"it uses {kind.replace('_', ' ')} (`{node_text(node)[:60]}`)"))


def _pipeline(node: Node, ctx: Context, out: list[Problem]) -> None:
    for c in node.named_children:
        _stmt(c, ctx, out)


def _simple(node: Node, ctx: Context, out: list[Problem]) -> None:
    args: list[Node] = []
    for c in node.named_children:
        kind = c.type
        if kind in ("variable_assignment", "variable_assignments"):
            out.append(Problem("runs", f"it sets a variable for the command (`{node_text(c)[:60]}`)"))
            _scan(c, ctx, out)
        elif kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
            _redirect(c, ctx, out)
        elif kind == "command_name" or kind in _WORDS:
            _scan(c, ctx, out)
            args.append(c)
        else:
            out.append(Problem("runs", f"it uses {kind.replace('_', ' ')} (`{node_text(c)[:60]}`)"))
    # inside `for f in a b`, a command using $f runs once with each value: judge each
    loop = next((m.group(2) for a in args if (m := _LOOP_REF.match(node_text(a))) and m.group(2) in ctx.loops), None)
    for value in ctx.loops[loop] if loop else [None]:
        words = [w for a in args for w in _argument(a, ctx, (loop, value) if loop else None)]
        out += [p for p in judge(words, ctx) if p not in out]


_LOOP_REF = re.compile(r'^("?)\$\{?([a-z][a-z0-9_]*)\}?\1$')


def _argument(node: Node, ctx: Context, loop: tuple[str, Word | None] | None = None) -> list[Word]:
    inner = node.named_children[0] if node.type == "command_name" and node.named_child_count == 1 else node
    text = node_text(node)
    m = _LOOP_REF.match(text)
    if loop is not None and m and m.group(2) == loop[0] and loop[1] is not None:
        value = loop[1]
        quoted = bool(m.group(1))
        if value.value is None:
            return [Word(None, text, value.origin)]  # a substitution's output stays unknown
        if quoted or not re.search(r"[\s*?\[]", value.value):
            return [Word(value.value, text, value.origin)]
        return [Word(None, text, "dynamic")]  # unquoted: split and matched again
    if inner.type == "string" and inner.named_child_count == 1 and inner.named_children[0].type == "command_substitution":
        inner = inner.named_children[0]
    if inner.type == "process_substitution":
        return [Word(None, text, "procsub")]
    if inner.type == "command_substitution":
        return [Word(None, text, "substitution")]
    return expand(text, ctx.cwds)


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
    if kind == "expansion" and not _EXPANSION.match(node_text(node)):
        out.append(Problem("runs", f"the expansion `{node_text(node)[:60]}` can assign or evaluate code"))
    if kind in ("expansion", "simple_expansion"):
        name = re.match(r"^\$\{?#?([A-Za-z_][A-Za-z0-9_]*)", node_text(node))
        if name and (SECRET_VARIABLE.search(name.group(1)) or looks_secret(name.group(1))):
            out.append(Problem("secret", f"`{node_text(node)[:60]}` expands {name.group(1)}, which looks like a credential"))
    for c in node.named_children:
        _scan(c, ctx, out)


def _arith(node: Node, out: list[Problem]) -> None:
    text = node_text(node)
    body = text[3:-2] if text.startswith("$((") else text[2:-1] if text.startswith("$[") else text[2:-2]
    if not _ARITH_PLAIN.match(body) or re.search(r"(?<![=!<>])=(?!=)", body):
        out.append(Problem("runs", f"the arithmetic `{text[:60]}` names variables, which bash evaluates as code"))


def _test_command(node: Node, ctx: Context, out: list[Problem]) -> None:
    """`[[ … ]]`: -v/-R and arithmetic comparisons evaluate operands as code unless plain numbers.

    A variable there is evaluated too, and its value may hold `a[$(…)]` (a loop variable can).
    """
    def visit(n: Node) -> None:
        if n.type == "test_operator" or (not n.is_named and n.type.startswith("-")):
            op = node_text(n)
            if op in TEST_EVALUATES:
                out.append(Problem("runs", f"[[ {op} … ]] evaluates its operand (an array subscript can run commands)"))
            if (op in TEST_FILE_UNARY or op in TEST_FILE_BINARY) and n.parent is not None:
                for operand in n.parent.named_children:
                    plain = operand.type in _WORDS or (  # `~/.ssh` parses as an operator-less unary expression
                        operand.type == "unary_expression" and not any(c.type == "test_operator" for c in operand.children))
                    if plain and operand.type not in ("simple_expansion", "expansion"):
                        for w in expand(node_text(operand), ctx.cwds):
                            if (p := test_path_problem(w, ctx)) is not None:
                                out.append(p)
            if op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge") and n.parent is not None:
                for operand in n.parent.named_children:
                    if operand.type == "test_operator":
                        continue
                    t = node_text(operand)
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
            out.append(Problem("runs", f"[ gets `{node_text(c)[:60]}` unquoted, which could split into an operator that runs code"))
        else:
            _split_operands(c, out)


def _for(node: Node, ctx: Context, out: list[Problem]) -> None:
    if node.children and node.children[0].type == "select":
        out.append(Problem("runs", "select reads a choice and assigns a variable"))
    name, values, has_in = None, [], any(c.type == "in" for c in node.children)
    for c in node.named_children:
        if c.type == "variable_name":
            name = node_text(c)
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


def _redirect(node: Node, ctx: Context, out: list[Problem]) -> None:
    if node.type == "herestring_redirect":
        for c in node.named_children:
            _scan(c, ctx, out)
        return
    if node.type == "heredoc_redirect":
        start = next((c for c in node.named_children if c.type == "heredoc_start"), None)
        quoted = start is not None and re.search(r"['\"\\]", node_text(start))
        if start is not None and heredoc_misread(node, start):
            out.append(Problem("runs", f"the here-document `{node_text(start)}` ends where bash, not the parser, says"))
            return
        for c in node.named_children:
            if c.type == "heredoc_body":
                if not quoted and re.search(r"[$`]", node_text(c)):
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
    targets = [c for c in node.named_children if c.type != "file_descriptor"]
    for t in targets:
        _scan(t, ctx, out)
    words = [w for t in targets for w in _argument(t, ctx)]
    out += file_redirect_problems(node, bool(targets), words, ctx)
