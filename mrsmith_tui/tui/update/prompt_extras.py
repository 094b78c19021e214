"""What a typed prompt's syntax did, in the conversation: the `@path` mentions attached (a notice)
and refused (a warning each). A `!command` needs nothing here: it arrives as a prompt and a shell
block (UserPrompt, ToolCallStarted / ToolOutput / ToolCallFinished).
"""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.tui.model import Model
from mrsmith_tui.tui.update.blocks import note_block
from mrsmith_tui.tui.update.effects import Effects, Handler


def _mentions_read(model: Model, msg: m.MentionsRead) -> tuple[Model, Effects]:
    if msg.attached:
        model = note_block(model, "notice", "attached " + " · ".join(msg.attached), msg.at)
    for line in msg.refused:
        model = note_block(model, "warning", line, msg.at)
    return model, ()


HANDLERS: dict[type, Handler] = {
    m.MentionsRead: _mentions_read,
}
