"""What the conversation counts reads right at one: "+1 line", never "+1 lines" (mrsmith_tui.words)."""

from __future__ import annotations

import re

import pytest

from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.update.blocks import count_text
from mrsmith_tui.tui.view.blocks import (
    DIFF_FOLDED,
    FOLDED_LINES,
    LINE_CAP,
    SHOWN_LINES,
    lines_above,
    render_reasoning,
    render_text_done,
    render_tool,
)

ONE_MORE = "\n".join(f"line {i}" for i in range(FOLDED_LINES + 1))  # one line past the fold
ONE_PLURAL = re.compile(r"(?<![\d,.])1 (diff )?[a-z]+s\b")  # "1 lines", "+1 diff lines"; not "11 lines"


def tool(**kw) -> ui.Block:
    return ui.Block(key="b", kind="tool", name="shell", **{"done": True, "ok": True, **kw})


@pytest.mark.parametrize(("shown", "one"), [
    (lambda: render_tool(tool(text=ONE_MORE, folded=True), 0, 100), "+1 line"),
    (lambda: render_tool(tool(text="\n".join(map(str, range(SHOWN_LINES + 1))), folded=False), 0, 100),
     "+1 line · Ctrl-O"),
    (lambda: render_tool(tool(diff="\n".join(f"+{i}" for i in range(DIFF_FOLDED + 1)), folded=True), 0, 100),
     "+1 diff line"),
    (lambda: render_tool(tool(done=False, text="out", dropped=1), 0, 100), "+1 char above"),
    (lambda: render_tool(tool(done=False, text="\n".join("abcdefg")), 0, 100), "+1 line above"),
    (lambda: render_text_done(ui.Block(key="t", kind="text", text=ONE_MORE, done=True, folded=True), 100), "+1 line"),
    (lambda: render_text_done(ui.Block(key="t", kind="text", text="x" * (LINE_CAP + 1), done=True), 100), "+1 char"),
    (lambda: render_reasoning(ui.Block(key="r", kind="reasoning", text="a\nb", done=True, folded=True), 0, 100),
     "+1 line"),
    (lambda: render_reasoning(ui.Block(key="r", kind="reasoning", text="a"), 0, 100), "1 line ·"),
    (lambda: lines_above(1), "1 line above"),
])
def test_a_count_of_one_is_singular(shown, one):
    text = shown().plain
    assert one in text and not ONE_PLURAL.search(text), text


def test_a_copied_char_is_one_char():
    assert count_text("x") == "1 line, 1 char"
