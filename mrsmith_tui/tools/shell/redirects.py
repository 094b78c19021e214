"""What a redirection does: where a here-document really ends, and whether a file redirection
only duplicates a descriptor, reads a file, or writes, or opens a network connection.

The walk (syntax.py) scans the words inside a redirection; these judge what is left."""

from __future__ import annotations

import re

from tree_sitter import Node

from mrsmith_tui.tools.shell.context import Context, Problem, path_problem
from mrsmith_tui.tools.shell.parse import node_text
from mrsmith_tui.tools.shell.words import Word, lex


def heredoc_misread(node: Node, start: Node) -> bool:
    """Bash ends a here-document at its delimiter with quotes removed (`<<E'OF'` ends at `EOF`);
    the parser may not, and lines it takes for the body would run. True when they disagree."""
    segs = lex(node_text(start))
    if segs is None:
        return True
    delimiter = "".join(c for c, _ in segs)
    strip_tabs = any(not c.is_named and c.type == "<<-" for c in node.children)
    ends = [c for c in node.named_children if c.type == "heredoc_end"]
    if ends and (node_text(ends[0]).lstrip("\t") if strip_tabs else node_text(ends[0])) != delimiter:
        return True
    for body in (c for c in node.named_children if c.type == "heredoc_body"):
        for line in node_text(body).split("\n"):
            if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                return True
    return False


def file_redirect_problems(node: Node, has_targets: bool, words: list[Word], ctx: Context) -> list[Problem]:
    """The problems of `>`, `<`, `>&`, ... once its target words are known (`words`)."""
    op = next((c.type for c in node.children if not c.is_named), "")
    shown = node_text(node)
    if not has_targets:
        return [Problem("other", f"a redirection it cannot read (`{shown}`)")]
    if op in (">&", "<&") and len(words) == 1 and words[0].value is not None and re.match(r"^(\d+|-|\d+-)$", words[0].value):
        return []  # 2>&1, >&-: duplicating or closing a descriptor
    if len(words) != 1:
        return [Problem("writes", f"a redirection target that is not one known file (`{shown}`)")]
    w = words[0]
    if w.value is not None and re.match(r"^/dev/(tcp|udp)/", w.value):
        return [Problem("network", f"`{shown}` opens a network connection")]
    if op == "<":
        p = path_problem(w, ctx)
        return [p] if p is not None else []
    if w.value == "/dev/null" or (w.value in ("/dev/stdout", "/dev/stderr") and op in (">", ">>")):
        return []
    return [Problem("writes", f"it redirects output into a file (`{shown}`)")]
