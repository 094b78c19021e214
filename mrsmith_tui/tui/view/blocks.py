"""One conversation block as something a Static can show: Content for the live and the
structural parts, a Rich Markdown for a finished answer.

Folded bodies hang from a `│` gutter, so the structure survives NO_COLOR. Every body is
capped (lines, line length, Markdown size): the full text stays in the model for the
review overlay and /export.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

from textual.content import Content

from mrsmith_tui.security.redact import map_strings
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui.model import Block, counted, duration, one_line, spinner

GUTTER = "│ "
LINE_CAP = 1_000  # chars of one shown line
SHOWN_LINES = 400  # lines of an unfolded body
LIVE_LINES = 60  # lines of a streaming answer shown while it streams ...
LIVE_CHARS = 6_000  # ... and at most this many characters of them (each frame wraps what it shows)
LIVE_TAIL = 3  # lines of streaming reasoning / tool output shown
FOLDED_LINES = 4
DIFF_FOLDED = 14
MARKDOWN_CAP = 24_000  # bigger answers are shown as plain text (highlighting capped)

MUTED = "$text-muted"


def _cut(line: str) -> str:
    if len(line) <= LINE_CAP:
        return line
    return f"{line[:LINE_CAP]} … +{counted(len(line) - LINE_CAP, 'char')}"


def _lines(text: str) -> list[str]:
    return text.rstrip("\n").split("\n") if text.strip() else []


def _head_lines(text: str, n: int) -> tuple[list[str], int]:
    """The first `n` lines and how many more there are, without splitting a huge text whole."""
    out: list[str] = []
    start = 0
    while len(out) < n:
        end = text.find("\n", start)
        if end < 0:
            if start < len(text):
                out.append(text[start:])
            return out, 0
        out.append(text[start:end])
        start = end + 1
    rest = text[start:].rstrip("\n")
    return out, (rest.count("\n") + 1 if rest else 0)


def _tail_lines(text: str, n: int) -> tuple[list[str], int]:
    stripped = text.rstrip("\n")
    cut = len(stripped)
    for _ in range(n):
        cut = stripped.rfind("\n", 0, cut)
        if cut < 0:
            return stripped.split("\n") if stripped else [], 0
    return stripped[cut + 1:].split("\n"), stripped.count("\n", 0, cut) + 1


def _wrap(line: str, width: int, *, hang: bool = False) -> list[str]:
    """A gutter body line cut to `width` (0: not wrapped): wrapped lines keep their `│`, so the
    structure reads the same without colour. `hang`: a table row (`name  what it does`) wraps under
    its second column, not at the left edge."""
    room = width - len(GUTTER)
    if room < 8 or len(line) <= room:
        return [line]
    indent = ""
    column = line.find("  ", len(line) - len(line.lstrip()) + 1) if hang else -1
    if 0 < column < room // 2:
        indent = " " * (column + 2 + len(line[column + 2:]) - len(line[column + 2:].lstrip()))
    return textwrap.wrap(line, room, replace_whitespace=False, drop_whitespace=True, break_long_words=True,
                         break_on_hyphens=False, subsequent_indent=indent) or [""]


def _gutter(lines: list[str], width: int, style: str = MUTED, body_style: str = "", *,
            hang: bool = False) -> list[Content]:
    out = []
    for line in lines:
        for piece in _wrap(_cut(line).expandtabs(4), width, hang=hang):
            out.append(Content.assemble((GUTTER, style), (piece, body_style)))
    return out


def _more(n: int, noun: str = "line", after: str = "") -> Content:
    return Content.assemble((GUTTER, MUTED), (f"… +{counted(n, noun)}{after}", f"{MUTED} italic"))


def join_lines(parts: list[Content]) -> Content:
    return Content("\n").join(parts)


def elapsed(block: Block, now: float) -> float:
    end = block.ended if block.ended is not None else now
    return max(0.0, end - block.started)


# --------------------------------------------------------------------------- kinds


def render_user(b: Block) -> Content:
    lines = b.text.split("\n")
    first = Content.assemble(("› ", "bold $accent"), (_cut(lines[0]), "bold"))
    rest = [Content.assemble(("  ", ""), (_cut(line), "bold")) for line in lines[1:SHOWN_LINES]]
    return join_lines([first, *rest])


def render_reasoning(b: Block, now: float, width: int) -> Content:
    n = b.text.strip().count("\n") + 1 if b.text.strip() else 0
    took = duration(elapsed(b, now))
    if not b.done:
        head = Content.assemble((f"{spinner(now)} thinking", f"italic {MUTED}"),
                                (f" · {counted(n, 'line')} · {took}", MUTED))
        tail, _ = _tail_lines(b.text, LIVE_TAIL)
        return join_lines([head, *_gutter(tail, width, MUTED, f"italic {MUTED}")[-LIVE_TAIL:]])
    if b.folded:
        first = one_line(b.text.strip().split("\n", 1)[0] if b.text.strip() else "", 72)
        more = f" … +{counted(n - 1, 'line')}" if n > 1 else ""
        return Content.assemble(("▸ thought", f"{MUTED}"), (f" · {first}{more} · {took}", f"{MUTED} italic"))
    head = Content.assemble(("▾ thought", MUTED), (f" · {took}", MUTED))
    shown, more_n = _head_lines(b.text, SHOWN_LINES)
    body = _gutter(shown, width, MUTED, f"italic {MUTED}")
    if more_n:
        body.append(_more(more_n, after=" · Ctrl-O to review"))
    return join_lines([head, *body])


def live_tail(b: Block) -> tuple[list[str], int]:
    """The last lines of a streaming answer as shown (LIVE_LINES, LIVE_CHARS, each line cut), and
    how many lines are above them."""
    tail, hidden = _tail_lines(b.text, LIVE_LINES)
    size = sum(len(line) for line in tail)
    while len(tail) > 1 and size > LIVE_CHARS:
        size -= len(tail[0])
        del tail[0]
        hidden += 1
    if tail and len(tail[-1]) > LINE_CAP:  # a long line still being written: its end, where the words arrive
        tail[-1] = "…" + tail[-1][-(LINE_CAP - 1):]
    return [_cut(line) for line in tail], hidden


def lines_above(hidden: int) -> Content:
    return Content.styled(f"… {counted(hidden, 'line')} above (shown whole when the answer ends)", f"{MUTED} italic")


def render_text_live(b: Block) -> Content:
    tail, hidden = live_tail(b)
    parts = [lines_above(hidden)] if hidden else []
    parts.extend(Content(line) for line in tail)
    return join_lines(parts)


def render_text_done(b: Block, width: int) -> Any:
    if b.folded:
        shown, more = _head_lines(b.text, FOLDED_LINES)
        parts = _gutter(shown, width)
        if more:
            parts.append(_more(more))
        return join_lines(parts) if parts else Content("")
    longest = max((len(line) for line in b.text.split("\n")), default=0) if len(b.text) <= MARKDOWN_CAP else 0
    if len(b.text) <= MARKDOWN_CAP and longest <= LINE_CAP:
        from rich.markdown import Markdown

        return Markdown(b.text, code_theme="ansi_dark", hyperlinks=False)
    shown, more = _head_lines(b.text, SHOWN_LINES)
    parts = [Content(_cut(line)) for line in shown]
    if more:
        parts.append(Content.styled(f"… +{counted(more, 'line')} · Ctrl-O to review, /export for all", f"{MUTED} italic"))
    return join_lines(parts)


def tool_summary(b: Block) -> str:
    if b.summary:
        return one_line(b.summary, 80)
    try:
        args = map_strings(json.loads(b.arguments), clean) if b.arguments else {}  # "\u001b" decodes to ESC
    except (ValueError, RecursionError):  # not JSON, or nested past the interpreter's limit
        return one_line(b.arguments, 80)
    if isinstance(args, dict):
        for key in ("command", "path", "file_path", "url", "pattern", "query", "description"):
            if isinstance(args.get(key), str):
                return one_line(args[key], 80)
        for value in args.values():
            if isinstance(value, str):
                return one_line(value, 80)
    return ""


def render_tool(b: Block, now: float, width: int) -> Content:
    took = duration(elapsed(b, now))
    if not b.done:
        glyph, gstyle = spinner(now), "$accent"
        tail_info = f" · {took}"
    elif b.denied:
        glyph, gstyle, tail_info = "⊘", "$warning", " · denied"
    elif b.ok:
        glyph, gstyle = "✓", "$success"
        tail_info = (f" · exit {b.exit_code}" if b.exit_code not in (None, 0) else "") + f" · {took}"
    else:
        glyph, gstyle = "✗", "$error"
        tail_info = (f" · exit {b.exit_code}" if b.exit_code is not None else " · failed") + f" · {took}"
    head = Content.assemble((f"{glyph} ", gstyle), (b.name, "bold"), ("  ", ""),
                            (tool_summary(b), ""), (tail_info, MUTED))
    if not b.done:
        tail, hidden = _tail_lines(b.text, LIVE_TAIL * 2)
        live = _gutter(tail, width, MUTED, MUTED)
        if hidden or b.dropped:
            live.insert(0, _more(hidden, after=" above") if hidden else _more(b.dropped, "char", " above"))
        return join_lines([head, *live])
    body: list[Content] = []
    if b.diff:
        limit = DIFF_FOLDED if b.folded else SHOWN_LINES
        shown, more = _head_lines(b.diff, limit)
        body.extend(diff_line(line, width) for line in shown)
        if more:
            body.append(_more(more, "diff line"))
    elif b.text.strip():
        limit = FOLDED_LINES if b.folded else SHOWN_LINES
        shown, more = _head_lines(b.text, limit)
        style = MUTED if b.ok else ""
        if not more:
            body.extend(_gutter(shown, width, MUTED, style))
        else:  # the middle folds, never the end: an exit code, a summary or the error is in the last lines
            keep_end = max(1, limit // 2)
            tail, _ = _tail_lines(b.text, keep_end)
            body.extend(_gutter(shown[:limit - keep_end], width, MUTED, style))
            body.append(_more(more, after="" if b.folded else " · Ctrl-O to review"))
            body.extend(_gutter(tail, width, MUTED, style))
    return join_lines([head, *body])


def diff_line(line: str, width: int = 0) -> Content:
    """One diff line, coloured, cut to `width` (0: as it is)."""
    line = _cut(line).expandtabs(4)
    room = width - len(GUTTER)
    if room >= 8 and len(line) > room:
        line = line[: room - 1] + "…"
    if line.startswith(("+++", "---")):
        style = f"bold {MUTED}"
    elif line.startswith("+"):
        style = "$success"
    elif line.startswith("-"):
        style = "$error"
    elif line.startswith("@@"):
        style = "$accent"
    else:
        style = MUTED
    return Content.assemble((GUTTER, MUTED), (line, style))


def render_message(b: Block, width: int) -> Content:
    glyph, style = {"warning": ("⚠ ", "$warning"), "error": ("✗ ", "$error"),
                    "usage": ("  ", MUTED), "notice": ("· ", MUTED)}[b.kind]
    lines = b.text.split("\n")
    first = Content.assemble((glyph, style), (_cut(lines[0]), style if b.kind != "notice" else ""))
    rest = _gutter(lines[1:SHOWN_LINES], width, MUTED, "" if b.kind == "notice" else style, hang=True)
    if b.kind == "usage":
        first = Content.styled("  " + lines[0], f"{MUTED}")
    return join_lines([first, *rest])


def render_block(b: Block, now: float, width: int = 0) -> Any:
    if b.kind == "user":
        return render_user(b)
    if b.kind == "reasoning":
        return render_reasoning(b, now, width)
    if b.kind == "text":
        return render_text_done(b, width) if b.done else render_text_live(b)
    if b.kind == "tool":
        return render_tool(b, now, width)
    return render_message(b, width)


def review_text(blocks: tuple[Block, ...]) -> str:
    """Everything unfolded, as plain text (the review overlay)."""
    out: list[str] = []
    for b in blocks:
        if b.kind == "user":
            out.append("› " + b.text.replace("\n", "\n  "))
        elif b.kind == "reasoning":
            out.append("▾ thought\n" + _indent(b.text))
        elif b.kind == "text":
            out.append(b.text)
        elif b.kind == "tool":
            state = "…" if not b.done else ("⊘" if b.denied else "✓" if b.ok else "✗")
            code = f" · exit {b.exit_code}" if b.exit_code is not None else ""
            out.append(f"{state} {b.name}  {tool_summary(b)}{code}")
            if b.arguments and b.name != "shell":
                out.append(_indent(b.arguments))
            if b.diff:
                out.append(_indent(b.diff))
            if b.text:
                out.append(_indent(b.text))
        elif b.kind == "usage":
            out.append("  " + b.text)
        else:
            glyph = {"warning": "⚠", "error": "✗", "notice": "·"}[b.kind]
            out.append(f"{glyph} {b.text}")
        out.append("")
    return "\n".join(out)


def _indent(text: str) -> str:
    return "\n".join(GUTTER + line for line in text.rstrip("\n").split("\n"))


__all__ = ["diff_line", "elapsed", "join_lines", "render_block", "review_text", "tool_summary"]
