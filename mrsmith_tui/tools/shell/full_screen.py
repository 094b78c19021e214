"""Full-screen programs, refused before they start: the shell tool (and `!cmd`, which runs through it)
gives a command no terminal: stdin is /dev/null, the output is captured, and it runs in a session of
its own. An editor or a monitor started there draws screen codes into the output (and so into the
model's context) and waits for keys that never come, until the timeout or Esc.

Only the name decides, wherever bash would run it: a command of a list or a pipeline, inside `( )`
or `$( )`, behind a wrapper (`env`, `nice`, `timeout`, `command`, `xargs`, ... as argv.py peels them,
and `exec`), or in the script of `bash -c`. A name only known when it runs (`$EDITOR x`) is not
guessed: the child's environment sets no editor that waits (security.environment.NO_TERMINAL).

Pagers are not here: with no terminal on stdout, `less FILE`, `more FILE` and `man ls` print the
text and exit like `cat`, which is useful; a pager another program starts is `cat` (NO_TERMINAL).
"""

from __future__ import annotations

import os
import re
from itertools import pairwise

from tree_sitter import Node

from mrsmith_tui.tools.shell.allow_bash import WRAPPERS
from mrsmith_tui.tools.shell.options import parse_options
from mrsmith_tui.tools.shell.parse import node_text, parser
from mrsmith_tui.tools.shell.words import Word

__all__ = ["FULL_SCREEN", "refusal"]

_ONCE = "`top -b -n 1` prints the processes once"
# program -> what works instead, when something does ("": just another terminal)
FULL_SCREEN: dict[str, str] = {
    **dict.fromkeys(("vi", "vim", "nvim", "view", "vimdiff", "nano", "pico", "emacs", "emacsclient", "micro", "joe",
                     "jed", "mcedit", "kak", "hx"), ""),
    **dict.fromkeys(("top", "htop", "btop", "atop"), _ONCE),
    "watch": "run the command itself, once (or in the background)",
    **dict.fromkeys(("tmux", "screen", "mc", "ranger", "nnn", "tig", "lazygit", "nmtui", "ncdu"), ""),
}
# Options that make one of them run without a terminal.
BATCH = {"top": re.compile(r"^-[A-Za-z]*b"), "emacs": re.compile(r"^--?(batch|script)")}
SHELLS = frozenset({"bash", "sh", "dash", "zsh"})
_SCRIPT_OPTION = re.compile(r"-[a-z]*c")  # `bash -c SCRIPT`, `sh -lc SCRIPT`
_QUOTES = re.compile(r"""["'\\]""")
_SKIPPED = frozenset({"variable_assignment", "file_redirect", "heredoc_redirect", "herestring_redirect", "comment"})
MAX_DEPTH = 8


def refusal(command: str) -> str | None:
    """The one line that refuses `command`, when it would start a full-screen program; else None."""
    name = _first_full_screen(command, 0)
    if name is None:
        return None
    hint = FULL_SCREEN[name]
    return (f"cannot run {name} here: it is a full-screen program and commands here run without a terminal "
            f"(no keyboard; the output is captured); run it in another terminal{'; ' + hint if hint else ''}")


def _first_full_screen(command: str, depth: int) -> str | None:
    if depth > MAX_DEPTH:
        return None
    stack = [parser().parse(command.encode("utf-8", "replace")).root_node]
    while stack:
        node = stack.pop()
        if node.type == "command" and (found := _in_words(_words(node), depth)):
            return found
        stack += reversed(node.children)
    return None


def _words(node: Node) -> list[Word]:
    out = []
    for child in node.named_children:
        if child.type in _SKIPPED:
            continue
        text = node_text(child)
        value = _QUOTES.sub("", text)
        out.append(Word(None if "$" in value or "`" in value else value, text))
    return out


def _in_words(words: list[Word], depth: int) -> str | None:
    while words and words[0].value is not None:
        name = os.path.basename(words[0].value)
        args = words[1:]
        if name in FULL_SCREEN:
            batch = BATCH.get(name)
            return None if batch and any(w.value and batch.match(w.value) for w in args) else name
        if name in SHELLS:
            script = next((b for a, b in pairwise(args) if a.value and _SCRIPT_OPTION.fullmatch(a.value)), None)
            return _first_full_screen(script.value, depth + 1) if script and script.value else None
        if name == "exec":
            words = [w for w in args if not (w.value or "").startswith("-")]
            continue
        wrap = WRAPPERS.get(name)
        if wrap is None:
            return None
        opts, rest, _ = parse_options(wrap.options, name, args)
        if any(o.name.lstrip("-") in wrap.lookup_opts for o in opts):
            return None  # `command -v vim`: looks it up, runs nothing
        while name == "env" and rest and "=" in (rest[0].value or ""):
            rest = rest[1:]
        words = rest[wrap.leading :]
    return None
