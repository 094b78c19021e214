"""A yes/no question about a list of things (`/undo`'s files): y does it, n or Esc does not."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.terminal_text import clean

MAX_LINES = 200  # listed; the rest are counted


class ConfirmModal(ModalScreen[bool]):
    DEFAULT_CSS = """
    ConfirmModal { align: center middle; background: $background 60%; }
    ConfirmModal > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 90%; padding: 1 2;
        border: round $warning; background: $surface;
    }
    ConfirmModal Static { height: auto; }
    ConfirmModal VerticalScroll { height: auto; max-height: 20; }
    ConfirmModal .keys { margin: 1 0 0 0; }
    """

    def __init__(self, title: str, lines: list[str], yes: str, note: str = "") -> None:
        super().__init__()
        self.title_text, self.lines, self.yes, self.note = title, lines, yes, note

    def compose(self) -> ComposeResult:
        shown = self.lines[:MAX_LINES]
        more = len(self.lines) - len(shown)
        body = "\n".join(shown) + (f"\n…and {more} more" if more > 0 else "")
        with Vertical():
            yield Static(Content.assemble(("◆ ", "$warning"), (self.title_text, "bold")))
            with VerticalScroll():
                yield Static(Content(clean(PROCESS.redact(body))))  # paths from a record: text, never markup
            if self.note:
                yield Static(Content.styled(self.note, "$text-muted"))
            yield Static(Content.assemble(("y", "bold $accent"), (f" {self.yes}  ", "$text-muted"),
                                          ("n", "bold $accent"), ("/", "$text-muted"), ("esc", "bold $accent"),
                                          (" no", "$text-muted")), classes="keys")

    def on_key(self, event: events.Key) -> None:
        if event.key in ("y", "n", "escape"):
            event.stop()
            event.prevent_default()
            self.dismiss(event.key == "y")
