"""A question's options, every mark a glyph (NO_COLOR reads the same): `( )`/`(•)` for a single
choice, whose dot follows the cursor, `[ ]`/`[x]` for several, ticked with Space; `›` is the cursor.

The list takes its moving keys, Space and Enter itself, in the order they were pressed: left to
Textual, a cursor key's binding runs only once the key has bubbled up to the App, so in a burst
(`space down down space`) the second Space ticked where the cursor had been, not where it went.
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class ChoiceList(OptionList):
    class Chosen(Message):
        """Enter on the options: what was ticked, and the option under the cursor, as they were then."""

        def __init__(self, ticked: list[str], under_cursor: str | None) -> None:
            super().__init__()
            self.ticked = ticked
            self.under_cursor = under_cursor

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.multiple = False
        self.labels: list[str] = []  # each option's text, as the modal gave it
        self.values: list[str] = []
        self.ticked: set[str] = set()

    def set_choices(self, choices: list[tuple[str, str]], *, multiple: bool) -> None:
        """(shown text, value) per option; nothing ticked."""
        self.multiple = multiple
        self.labels = [label for label, _ in choices]
        self.values = [value for _, value in choices]
        self.ticked = set()
        self.clear_options()
        self.add_options([Option(self._prompt(i, cursor=i == 0)) for i in range(len(choices))])
        if choices:
            self.highlighted = 0

    def _prompt(self, i: int, *, cursor: bool) -> Content:
        ticked = self.values[i] in self.ticked if self.multiple else cursor
        mark = ("[x]" if ticked else "[ ]") if self.multiple else ("(•)" if ticked else "( )")
        return Content.assemble(("› " if cursor else "  ", "bold"), (mark + " ", "bold" if cursor else ""),
                                (self.labels[i], ""))

    def _redraw(self) -> None:
        for i in range(len(self.values)):
            self.replace_option_prompt_at_index(i, self._prompt(i, cursor=i == self.highlighted))

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        if self.values:
            self._redraw()

    def toggle(self, value: str) -> None:
        self.ticked ^= {value}
        self._redraw()

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        if key == "space" and self.multiple:
            event.stop()
            event.prevent_default()
            if self.highlighted is not None:
                self.toggle(self.values[self.highlighted])
            return
        if key == "enter":
            event.stop()
            event.prevent_default()
            under = self.values[self.highlighted] if self.highlighted is not None and self.values else None
            self.post_message(self.Chosen(self.selected, under))
            return
        bound = self._bindings.key_to_bindings.get(key)
        if bound and key != "space":  # up, down, home, end, page keys: now, in key order
            event.stop()
            event.prevent_default()
            await self.run_action(bound[0].action)
            return
        await super()._on_key(event)

    @property
    def selected(self) -> list[str]:
        """The ticked values, in the options' order."""
        return [v for v in self.values if v in self.ticked]
