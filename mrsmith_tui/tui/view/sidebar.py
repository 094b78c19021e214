"""The sidebar: the task list, the sub-agent panel and the MCP servers, drawn by one Static (one widget,
not one per row)."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from mrsmith_tui.tui.model import TASK_GLYPH, AgentRow, McpRow, Sidebar, counted, duration, one_line, short_count

TASK_STYLE = {"pending": "", "in_progress": "bold $accent", "completed": "$text-muted strike",
              "cancelled": "$text-muted strike"}
PRIORITY = {"high": "!", "medium": " ", "low": "·"}
AGENT_GLYPH = {"running": "●", "waiting": "◆", "stopping": "◌", "stopped": "⊘", "done": "✓", "failed": "✗"}
MCP_GLYPH = {"starting": "◌", "ready": "●", "failed": "✗", "disabled": "⊘", "stopped": "⊘", "untrusted": "?"}
MCP_STYLE = {"starting": "$text-muted", "ready": "$success", "failed": "$error", "disabled": "$text-muted",
             "stopped": "$text-muted", "untrusted": "$warning"}
AGENT_STYLE = {"running": "$accent", "waiting": "$warning", "stopping": "$text-muted", "stopped": "$text-muted",
               "done": "$success", "failed": "$error"}


AGENT_ROW_LINES = 3  # the most lines one agent takes (head, facts, last action)


def agent_window(count: int, selected: int | None, rows: int) -> tuple[int, int]:
    """Which agents [first, last) the panel draws when `rows` fit: all of them if they fit, else a
    window that holds the selected one (near its middle), else the first ones."""
    rows = max(1, rows)
    if count <= rows:
        return 0, count
    first = 0 if selected is None else min(max(0, selected - rows // 2), count - rows)
    return first, first + rows


def sidebar_lines(sb: Sidebar, now: float, width: int, height: int = 0) -> tuple[Content, dict[int, str]]:
    """The panel's text, and which agent each line belongs to (for clicks). With `height`, only the
    agents that fit are drawn (a window holding the selected one, the others counted above and below
    it): the panel's work per frame is bounded by what is visible, not by how many agents ran."""
    text_width = max(10, width - 1)  # `width` is the content width (inside padding and border)
    lines: list[Content] = []
    owners: dict[int, str] = {}
    if sb.tasks:
        done = sum(1 for t in sb.tasks if t.status == "completed")
        lines.append(Content.styled(f"Tasks {done}/{len(sb.tasks)}", "bold"))
        for t in sb.tasks:
            lines.append(Content.assemble(
                (PRIORITY.get(t.priority, " "), "$warning" if t.priority == "high" else "$text-muted"),
                (TASK_GLYPH.get(t.status, "○") + " ", TASK_STYLE.get(t.status, "")),
                (one_line(t.content, text_width - 3), TASK_STYLE.get(t.status, "")),
            ))
        lines.append(Content(""))
    if sb.mcp:
        ready = sum(1 for r in sb.mcp if r.state == "ready")
        lines.append(Content.styled(one_line(f"MCP {ready}/{len(sb.mcp)} ready · /mcp", width), "bold"))
        lines.extend(_mcp_line(r, text_width) for r in sb.mcp)
        lines.append(Content(""))
    if sb.agents:
        running = sum(1 for a in sb.agents if a.ended is None)
        title = f"Agents {running} running"
        if sb.selected:
            title += " · Enter open · x stop"
        lines.append(Content.styled(one_line(title, width), "bold"))
        count = len(sb.agents)
        first, last = 0, count
        if height:
            fit = (height - len(lines) - 2) // AGENT_ROW_LINES  # two lines kept for "N more" above and below
            selected = next((i for i, a in enumerate(sb.agents) if a.agent_id == sb.selected), None)
            first, last = agent_window(count, selected, fit if count * AGENT_ROW_LINES > height - len(lines) else count)
        if first:
            lines.append(Content.styled(f"↑ {first} more", "$text-muted"))
        for a in sb.agents[first:last]:
            rows = _agent_lines(a, now, text_width, selected=a.agent_id == sb.selected)
            for _ in rows:
                owners[len(lines)] = a.agent_id
                lines.append(_)
        if last < count:
            lines.append(Content.styled(f"↓ {count - last} more", "$text-muted"))
    if not lines:
        lines.append(Content.styled("no tasks or agents yet", "$text-muted italic"))
    return Content("\n").join(lines), owners


def _mcp_line(r: McpRow, width: int) -> Content:
    facts = counted(r.tools, "tool") if r.state == "ready" else r.state
    if r.state in ("failed", "untrusted") and r.error:
        facts += f": {r.error}"
    return Content.assemble(
        (MCP_GLYPH.get(r.state, "○") + " ", MCP_STYLE.get(r.state, "")),
        (one_line(r.name, max(4, width // 2)), "bold"),
        (" " + one_line(facts, max(4, width - len(r.name) - 3)), "$text-muted"),
    )


def agent_facts(a: AgentRow, now: float) -> list[str]:
    """State, elapsed, tool calls, tokens: most important first (the panel sheds from the right). The
    tokens only once the agent has reported a model call's usage: a count of 0 before it would be a guess."""
    end = a.ended if a.ended is not None else now
    facts = ["waiting for you" if a.state == "waiting" else a.state, duration(max(0.0, end - a.started)),
             counted(a.tool_calls, "tool")]
    return facts if a.tokens is None else [*facts, f"{short_count(a.tokens)} tok"]


def _agent_lines(a: AgentRow, now: float, width: int, *, selected: bool = False) -> list[Content]:
    # The cursor is a glyph as well as a highlight, so it survives NO_COLOR.
    head = Content.assemble(
        ("▶ " if selected else "", "bold $accent"),
        (AGENT_GLYPH.get(a.state, "○") + " ", AGENT_STYLE.get(a.state, "")),
        (a.agent_id, "bold reverse" if selected else "bold"),
        (" " + one_line(a.label, max(4, width - len(a.agent_id) - 3 - (2 if selected else 0))), ""),
    )
    state, took, *rest = agent_facts(a, now)
    facts = f"{state} · {took}"
    for part in rest:
        if len(facts) + 3 + len(part) > width - 2:
            break  # shed from the right, like the status bar
        facts += " · " + part
    lines = [head, Content.assemble(("│ ", "$text-muted"), (one_line(facts, width - 2), "$text-muted"))]
    if a.last_action:
        lines.append(Content.assemble(("│ ", "$text-muted"), (one_line(a.last_action, width - 2), "$text-muted italic")))
    return lines


class PanelKeyPressed(Message):
    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action


class PanelRowClicked(Message):
    def __init__(self, agent_id: str) -> None:
        super().__init__()
        self.agent_id = agent_id


class TypedAway(Message):
    """A printable key pressed where nothing takes text: it belongs in the prompt."""

    def __init__(self, character: str, *, send: bool = False) -> None:
        super().__init__()
        self.character = character
        self.send = send  # Enter typed right after: the prompt is sent, not an agent opened


class SidebarView(Static):
    """Focusable when it lists agents: Up/Down move the cursor, Enter opens, x stops, Esc leaves."""

    # One letter only (x): any other printable key goes back to the prompt with the key, so
    # someone who starts typing while the panel has the focus neither loses the key nor stops an agent.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "key('up')", "previous agent", show=False),
        Binding("down", "key('down')", "next agent", show=False),
        Binding("enter", "key('open')", "open agent", show=False),
        Binding("x,delete", "key('stop')", "stop agent", show=False),
        Binding("escape,tab", "key('leave')", "back to the prompt", show=False),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self._sb: Sidebar | None = None
        self._shown: tuple | None = None
        self._owners: dict[int, str] = {}
        self._typed_away = False  # a printable key went to the prompt; the focus is on its way there

    def show(self, sb: Sidebar, now: float) -> None:
        # Elapsed times of running agents move with the clock: bucket to whole seconds.
        live = any(a.ended is None for a in sb.agents)
        key = (int(now) if live else 0, self.size.width, self.size.height)
        if sb is self._sb and key == self._shown:
            return
        self._sb, self._shown = sb, key
        self.can_focus = bool(sb.agents)
        content, self._owners = sidebar_lines(sb, now, self.size.width or 38, self.size.height)
        # Beside the conversation the panel's size is fixed (CSS): new rows repaint it only, no layout.
        self.update(content, layout=self.has_class("-strip"))

    def action_key(self, action: str) -> None:
        self.post_message(PanelKeyPressed(action))

    def on_key(self, event: events.Key) -> None:
        if event.is_printable and event.character and event.key != "x":
            event.stop()
            event.prevent_default()
            self._typed_away = True
            self.post_message(TypedAway(event.character))
        elif self._typed_away and event.key in ("enter", "backspace"):
            # Keys typed faster than the focus moved: they belong to the prompt too, in order (an Enter
            # here would open an agent and leave the text to merge with the next prompt).
            event.stop()
            event.prevent_default()
            self.post_message(TypedAway("", send=True) if event.key == "enter" else TypedAway("\b"))

    def on_focus(self, event: events.Focus) -> None:
        self._typed_away = False
        self.post_message(PanelKeyPressed("focus"))

    def on_blur(self, event: events.Blur) -> None:
        self.post_message(PanelKeyPressed("blur"))

    def on_click(self, event: events.Click) -> None:
        agent_id = self._owners.get(event.y)
        if agent_id is not None:
            event.stop()
            self.post_message(PanelRowClicked(agent_id))
