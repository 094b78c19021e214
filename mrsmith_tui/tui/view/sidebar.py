"""The sidebar: the task list and the sub-agent panel, drawn by one Static (one widget, not one per row)."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from mrsmith_tui.tui.model import AgentRow, Sidebar
from mrsmith_tui.tui.update import TASK_GLYPH, _k, _one_line, _seconds

TASK_STYLE = {"pending": "", "in_progress": "bold $accent", "completed": "$text-muted strike",
              "cancelled": "$text-muted strike"}
PRIORITY = {"high": "!", "medium": " ", "low": "·"}
AGENT_GLYPH = {"running": "●", "waiting": "◆", "stopping": "◌", "stopped": "⊘", "done": "✓", "failed": "✗"}
AGENT_STYLE = {"running": "$accent", "waiting": "$warning", "stopping": "$text-muted", "stopped": "$text-muted",
               "done": "$success", "failed": "$error"}


def sidebar_content(sb: Sidebar, now: float, width: int) -> Content:
    text_width = max(10, width - 4)
    lines: list[Content] = []
    if sb.tasks:
        done = sum(1 for t in sb.tasks if t.status == "completed")
        lines.append(Content.styled(f"Tasks {done}/{len(sb.tasks)}", "bold"))
        for t in sb.tasks:
            lines.append(Content.assemble(
                (PRIORITY.get(t.priority, " "), "$warning" if t.priority == "high" else "$text-muted"),
                (TASK_GLYPH.get(t.status, "○") + " ", TASK_STYLE.get(t.status, "")),
                (_one_line(t.content, text_width - 3), TASK_STYLE.get(t.status, "")),
            ))
        lines.append(Content(""))
    if sb.agents:
        running = sum(1 for a in sb.agents if a.ended is None)
        lines.append(Content.styled(f"Agents {running} running", "bold"))
        for a in sb.agents:
            lines.extend(_agent_lines(a, now, text_width))
    if not lines:
        lines.append(Content.styled("no tasks or agents yet", "$text-muted italic"))
    return Content("\n").join(lines)


def _agent_lines(a: AgentRow, now: float, width: int) -> list[Content]:
    end = a.ended if a.ended is not None else now
    took = _seconds(max(0.0, end - a.started))
    head = Content.assemble(
        (AGENT_GLYPH.get(a.state, "○") + " ", AGENT_STYLE.get(a.state, "")),
        (a.agent_id, "bold"), (" " + _one_line(a.label, max(4, width - len(a.agent_id) - 3)), ""),
    )
    facts = f"{a.state} · {took} · {a.tool_calls} tools · {_k(a.tokens)} tok"
    lines = [head, Content.assemble(("│ ", "$text-muted"), (_one_line(facts, width - 2), "$text-muted"))]
    if a.last_action:
        lines.append(Content.assemble(("│ ", "$text-muted"), (_one_line(a.last_action, width - 2), "$text-muted italic")))
    return lines


class SidebarView(Static):
    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self._sb: Sidebar | None = None
        self._shown: tuple | None = None

    def show(self, sb: Sidebar, now: float) -> None:
        # Elapsed times of running agents move with the clock: bucket to whole seconds.
        live = any(a.ended is None for a in sb.agents)
        key = (int(now) if live else 0, self.size.width)
        if sb is self._sb and key == self._shown:
            return
        self._sb, self._shown = sb, key
        self.update(sidebar_content(sb, now, self.size.width or 34))
