"""Parse a command with tree-sitter-bash, and check that the parse can be trusted: no error
or missing node, no `{name}<…` redirection the parser reads as a word, and no command
substitution in the text that the tree does not show."""

from __future__ import annotations

import re
from functools import lru_cache

import tree_sitter_bash
from tree_sitter import Language, Node, Parser


@lru_cache(maxsize=1)
def parser() -> Parser:
    return Parser(Language(tree_sitter_bash.language()))


VARIABLE_REDIRECT = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\}(?:[<>]|&>)")


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")  # None only for a tree parsed without its source


def has_missing(node: Node) -> bool:
    return node.is_missing or any(has_missing(c) for c in node.children)


def unseen_substitutions(root: Node, raw: bytes) -> bool:
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
    return count_substitutions(buf.decode("utf-8", "replace")) > seen


def count_substitutions(text: str) -> int:
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
