"""Trusting a project tool: the prompt shows the whole file, or there is no prompt.

A project's `.mrsmith/tools/` came with the repository, so none of its files loads before the person
trusts it: "always" is remembered in the per-user trust store (security.trust_store, the one the MCP
servers use) under the file's digest, so an edited file asks again; "yes" holds for this session.

The prompt must never hide code: the approval dialog shows at most SHOWN_LINES lines of at most
LINE_CAP characters (longer lines are wrapped up to that cap). A file that does not fit, or that
holds characters that can make code look other than it runs (terminal controls, a lone carriage
return, bidirectional overrides, line separators, any character drawn as nothing: zero-width and
default-ignorable ones, some of which Python takes into names), is not asked about: one
warning says why, and `--trust-project-tools` (after reading the file elsewhere) still loads it.
"""

from __future__ import annotations

import re

from mrsmith_tui.tools.base import ApprovalQuery

__all__ = ["KIND", "LINE_CAP", "SHOWN_LINES", "trust_query", "unshowable"]

KIND = "tool"
SHOWN_LINES = 400  # tui.view.blocks / screens.modals: the lines of a diff the dialog shows
LINE_CAP = 998  # tui.view.blocks.LINE_CAP (1000) less the diff's "+" and a margin
# Controls, line separators, and every Unicode default-ignorable character (drawn as nothing): Python takes
# some into names (the Hangul fillers U+115F/U+1160/U+3164/U+FFA0 are letters; variation selectors and U+034F
# continue a name), so `f(args, ㅤ="…")` reads as blank space. A variation selector 16 after a pictograph is an
# emoji's look (✔️), never part of a name.
_PICTO = "\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff"
_HIDING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
                     "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0e\ufeff\uffa0\ufff0-\ufffb"
                     "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
                     f"|(?<![{_PICTO}])\ufe0f")


def _lines(text: str) -> list[str]:
    return [line[:-1] if line.endswith("\r") else line for line in text.rstrip("\n").split("\n")]


def unshowable(text: str) -> str | None:
    """None when the whole of `text` fits the trust prompt as it is; otherwise why not (one line)."""
    lines = _lines(text)
    if len(lines) > SHOWN_LINES:
        return f"{len(lines)} lines; the trust prompt shows {SHOWN_LINES} at most"
    for i, line in enumerate(lines, 1):
        if len(line.expandtabs(4)) > LINE_CAP:
            return f"line {i} has {len(line.expandtabs(4))} characters; the trust prompt shows {LINE_CAP} at most"
        hit = _HIDING.search(line)
        if hit:
            return (f"line {i} holds U+{ord(hit.group()):04X}, a control or invisible character that can make code "
                    "look other than it runs")
    return None


def trust_query(shown_path: str, text: str) -> ApprovalQuery:
    """The prompt for one project tool file whose text `unshowable` passed: every line of it, below."""
    lines = _lines(text)
    arguments = (f"{shown_path} (this project's) asks to become a tool: the code below runs in a child process "
                 "each time the model calls it, and each call still asks unless you allow it.\n"
                 f"All {len(lines)} lines are shown below; PageUp/PageDown scroll.\n"
                 '"always" trusts this file in this folder until it changes; "yes" for this session only.')
    return ApprovalQuery(
        tool=f"project tool {shown_path}", arguments=arguments,
        reason=f"load the project tool {shown_path}", spec=f"project tool {shown_path} trusted in this folder (until it changes)",
        diff="\n".join(f"+{line}" for line in lines), rule="runs",
    )
