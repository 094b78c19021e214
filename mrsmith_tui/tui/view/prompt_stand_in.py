"""What the prompt shows in the first frame, before its editor is mounted (start-up time, issue #26).

The editor is Textual's TextArea, whose import and first layout cost ~12 ms of CPU: about a
quarter of what mrsmith adds to a bare Textual app's first frame. So the first frame shows this
stand-in in the editor's place, drawn as the empty editor draws itself (the placeholder, the cursor
on its first cell), and the editor replaces it right after (shell/early_input.py). Keys typed in
between are kept and given to the editor in order; meanwhile they are echoed here.
"""

from __future__ import annotations

from typing import ClassVar

from textual.content import Content
from textual.geometry import Size
from textual.style import Style
from textual.widgets import Static

PLACEHOLDER = "Ask mrsmith…  (Enter send · Ctrl-J newline · /help)"
MAX_ROWS = 10  # the prompt's max-height (app.tcss)


class PromptStandIn(Static):
    # The editor's look, in the editor's own variables (TextArea's placeholder and cursor).
    DEFAULT_CSS = """
    PromptStandIn {
        & > .prompt-stand-in--placeholder { color: $text 40%; }
        & > .prompt-stand-in--cursor { text-style: $input-cursor-text-style; }
        &:ansi > .prompt-stand-in--cursor { color: $input-cursor-foreground; background: $input-cursor-background; text-style: reverse; }
        &:dark > .prompt-stand-in--cursor { color: $input-cursor-foreground; background: $input-cursor-background; }
        &:light > .prompt-stand-in--cursor { color: $text 90%; background: $foreground 70%; }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"prompt-stand-in--placeholder", "prompt-stand-in--cursor"}

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.typed = ""

    def echo(self, typed: str) -> None:
        """Show what has been typed so far (the keys wait for the editor)."""
        if typed != self.typed:
            self.typed = typed
            self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # The editor's height is its text's: one row while empty, whatever the placeholder's length.
        return len(self._typed_rows(width)) if self.typed else 1

    def _typed_rows(self, width: int) -> list[Content]:
        """The last rows of the typed text as the editor wraps it: its last column kept for the
        cursor, a tab four columns."""
        rows = Content(self.typed.expandtabs(4)).wrap(max(1, width - 1)) if width else [Content(self.typed)]
        return rows[-MAX_ROWS:]

    def render(self) -> Content:
        # The cursor as the editor draws it: the component's style as Rich has it (its reverse, in an ANSI theme).
        cursor = Style.from_rich_style(self.get_component_rich_style("prompt-stand-in--cursor"))
        width = self.content_size.width
        if self.typed:
            rows = self._typed_rows(width)
            return Content("\n").join([*rows[:-1], rows[-1] + Content(" ").stylize(cursor)])
        lines = Content(PLACEHOLDER).wrap(width) if width else [Content(PLACEHOLDER)]
        first = lines[0].stylize(self.get_visual_style("prompt-stand-in--placeholder"))
        return first.stylize(cursor, 0, 1)
