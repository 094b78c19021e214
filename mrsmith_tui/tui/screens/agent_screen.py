"""One agent's own screen: its conversation with the same folded blocks, its status line, a stop key.

A view like the others: `show` draws the agent's slice of the model (its ChatLog and its
panel row); keys become Msgs through the app, which owns the model.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from mrsmith_tui.tui.model import AgentRow, ChatLog, one_line, spinner
from mrsmith_tui.tui.screens.screen_css import ScreensCss
from mrsmith_tui.tui.view.chat_view import ConversationView
from mrsmith_tui.tui.view.sidebar import AGENT_GLYPH, AGENT_STYLE, TypedAway, agent_facts

KEYS = "Esc back · x stop · ↑/↓ blocks · Enter fold · c copy · Ctrl-O review · typing goes to the prompt"


def agent_status(row: AgentRow | None, agent_id: str, now: float, width: int) -> Content:
    if row is None:
        return Content(one_line(f" {agent_id} · gone", width))
    glyph = spinner(now) if row.state == "running" else AGENT_GLYPH.get(row.state, "○")
    facts = "".join(f" · {fact}" for fact in agent_facts(row, now))
    head = Content.assemble((f" {glyph} ", AGENT_STYLE.get(row.state, "")), (row.agent_id, "bold"),
                            (" " + row.label, ""), (facts, ""))
    rest = width - head.cell_length
    if row.last_action and rest > 8:
        head = Content.assemble(head, (" · ", ""), (one_line(row.last_action, rest - 3), "italic"))
    return head.truncate(width) if head.cell_length > width else head


class AgentScreen(ScreensCss, Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.close_agent", "back", show=False),
        Binding("x,delete", "app.stop_agent", "stop the agent", show=False),
    ]

    def __init__(self, agent_id: str) -> None:
        super().__init__(id="agent-screen")
        self.agent_id = agent_id
        self._status_key: tuple | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="agent-status")
        yield ConversationView(id="agent-conversation")
        yield Static(f" {KEYS}", id="agent-keys")

    def on_mount(self) -> None:
        self.conversation.focus()

    def on_key(self, event: events.Key) -> None:
        # Keys the conversation did not take (it binds j k c i): text belongs in the prompt.
        if event.is_printable and event.character and event.key != "x":
            event.stop()
            event.prevent_default()
            self.post_message(TypedAway(event.character))

    @property
    def conversation(self) -> ConversationView:
        return self.query_one("#agent-conversation", ConversationView)

    def show(self, conv: ChatLog | None, row: AgentRow | None, now: float) -> None:
        if not self.is_attached:
            return
        self.conversation.sync(conv or ChatLog(), now)
        live = row is not None and row.ended is None
        key = (row, int(now * 10) if live else 0, self.size.width)
        if key != self._status_key:
            self._status_key = key
            self.query_one("#agent-status", Static).update(agent_status(row, self.agent_id, now, self.size.width or 80))
