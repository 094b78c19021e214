"""`/reset`'s question when "always" answers are remembered: keep those permissions (y), forget them
(n), or Esc: no reset."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui.model import counted, one_line


class KeepPermissionsModal(ModalScreen[bool | None]):
    """`/reset` with "always" answers remembered: keep them (y), forget them (n), or Esc: no reset."""

    DEFAULT_CSS = """
    KeepPermissionsModal { align: center middle; background: $background 60%; }
    KeepPermissionsModal > Vertical {
        width: 90%; max-width: 80; height: auto; max-height: 90%; padding: 1 2;
        border: round $warning; background: $surface;
    }
    KeepPermissionsModal Static { height: auto; }
    KeepPermissionsModal .keys { margin: 1 0 0 0; }
    """

    KEYS: ClassVar[dict[str, bool]] = {"y": True, "n": False}

    def __init__(self, specs: list[str]) -> None:
        super().__init__()
        self.specs = specs

    def compose(self) -> ComposeResult:
        shown = ", ".join(one_line(s, 40) for s in self.specs[:6]) \
            + (f" and {len(self.specs) - 6} more" if len(self.specs) > 6 else "")
        with Vertical():
            yield Static(Content.assemble(("◆ ", "$warning"),
                                          (f"Keep the {counted(len(self.specs), 'permission')} from \"always\" answers?", "bold"),
                                          (" (forgotten ones ask again)", "$text-muted")))
            yield Static(Content.styled(clean(PROCESS.redact(shown)), "$text-muted"))  # specs quote the model's commands
            yield Static(Content.assemble(("y", "bold $accent"), (" keep  ", "$text-muted"), ("n", "bold $accent"),
                                          (" forget  ", "$text-muted"), ("esc", "bold $accent"),
                                          (" no reset", "$text-muted")), classes="keys")

    def on_key(self, event: events.Key) -> None:
        if event.key in self.KEYS:
            event.stop()
            self.dismiss(self.KEYS[event.key])
        elif event.key == "escape":
            event.stop()
            event.prevent_default()
            self.dismiss(None)
