"""The MCP servers' rows in the sidebar: one per server, in the order they were first announced."""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import Model, one_line
from mrsmith_tui.tui.update.effects import Effects, Handler


def _server_changed(model: Model, msg: m.McpServerChanged) -> tuple[Model, Effects]:
    row = ui.McpRow(name=one_line(msg.name, 40), state=msg.state, tools=msg.tools, error=one_line(msg.error, 200))
    rows = model.sidebar.mcp
    for i, old in enumerate(rows):
        if old.name == row.name:
            if old == row:
                return model, ()
            rows = rows[:i] + (row,) + rows[i + 1 :]
            break
    else:
        rows = rows + (row,)
    return replace(model, sidebar=replace(model.sidebar, mcp=rows)), ()


HANDLERS: dict[type, Handler] = {m.McpServerChanged: _server_changed}
