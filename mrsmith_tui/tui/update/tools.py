"""A tool call's blocks: started, its live output (capped, the tail kept), finished.
"""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import Model
from mrsmith_tui.tui.update.blocks import add_block, find_open, set_block, set_state
from mrsmith_tui.tui.update.effects import Effects, Handler


def _tool_started(model: Model, msg: m.ToolCallStarted) -> tuple[Model, Effects]:
    model = add_block(model, "tool", msg.at, source_id=msg.call_id, name=msg.name,
                       summary=msg.summary, arguments=msg.arguments)
    return set_state(model, "tool", msg.at), ()


def _tool_output(model: Model, msg: m.ToolOutput) -> tuple[Model, Effects]:
    i = find_open(model.conv.blocks, "tool", msg.call_id)
    if i is None:
        return model, ()
    b = model.conv.blocks[i]
    text, dropped = b.text + msg.text, b.dropped
    if len(text) > ui.TOOL_OUTPUT_CAP:
        cut = len(text) - ui.TOOL_OUTPUT_CAP
        text, dropped = text[cut:], dropped + cut
    return set_block(model, i, replace(b, text=text, dropped=dropped)), ()


def _tool_finished(model: Model, msg: m.ToolCallFinished) -> tuple[Model, Effects]:
    i = find_open(model.conv.blocks, "tool", msg.call_id)
    if i is None:
        model = add_block(model, "tool", msg.at, source_id=msg.call_id, name=msg.name)
        i = len(model.conv.blocks) - 1
    b = model.conv.blocks[i]
    done = replace(b, text=msg.result, dropped=0, done=True, ended=msg.at, ok=msg.ok, exit_code=msg.exit_code,
                   diff=msg.diff, denied=msg.denied, folded=True,
                   started=msg.at - msg.elapsed if msg.elapsed else b.started)
    model = set_block(model, i, done)
    return set_state(model, "thinking", msg.at) if model.run.running else model, ()


HANDLERS: dict[type, Handler] = {
    m.ToolCallStarted: _tool_started,
    m.ToolOutput: _tool_output,
    m.ToolCallFinished: _tool_finished,
}
