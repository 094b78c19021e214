"""A question's options, every mark a glyph (NO_COLOR reads the same): `( )`/`(•)` for a single
choice, whose dot follows the cursor, `[ ]`/`[x]` for several, ticked with Space; `›` is the cursor."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class ChoiceList(OptionList):
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

    @property
    def selected(self) -> list[str]:
        """The ticked values, in the options' order."""
        return [v for v in self.values if v in self.ticked]
