"""The input: a multi-line editor where Enter sends and Ctrl-J breaks the line."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.message import Message
from textual.widgets import TextArea
from textual.widgets.text_area import Edit, EditResult

from mrsmith_tui.msgs import Msg
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.view.prompt_stand_in import PLACEHOLDER


def line_breaks(text: str) -> str:
    """A paste's line breaks as the editor keeps them: CRLF and a lone CR (tmux, GNOME Terminal,
    Terminal.app, iTerm2 and VS Code paste with CR) are each one line break, never a `␍`."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


class PromptArea(TextArea):
    class Send(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Recall(Message):
        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    class Complete(Message):
        """Tab: the completion offered, else the request waiting behind the typed text, else nothing."""

    class JumpToEnd(Message):
        """End while new output waits below the fold: the conversation follows its end again."""

    class Say(Message):
        """A key of the prompt's helpers as the ui Msg it stands for (the app stamps its time)."""

        def __init__(self, cls: type[Msg], **fields: Any) -> None:
            super().__init__()
            self.cls, self.fields = cls, fields

    def __init__(self, **kwargs) -> None:
        super().__init__("", soft_wrap=True, show_line_numbers=False, tab_behavior="focus",
                         compact=True, highlight_cursor_line=False,
                         placeholder=PLACEHOLDER, **kwargs)
        self.cursor_blink = False
        self.output_below = False  # set by the shell while new output waits below the fold
        self.searching = False  # set by the shell while Ctrl-R searches the history

    def edit(self, edit: Edit) -> EditResult:
        # Pasted text (or a recalled draft) can carry terminal controls (a web page's hidden
        # \x1b]0;…): the editor would draw them raw, so they go in as their visible stand-ins.
        edit.text = clean(line_breaks(edit.text))
        return super().edit(edit)

    def set_draft(self, text: str) -> None:
        """Replace the text (history recall, completion, clearing after send); cursor at the end."""
        text = clean(line_breaks(text))
        if text == self.text:
            return
        self.load_text(text)
        self.move_cursor(self.document.end)

    def _helper_key(self, event: events.Key) -> bool:
        """Ctrl-G (editor), Ctrl-R (history search) and the keys of a search going on: True when taken."""
        key = event.key
        if key == "ctrl+g":
            self.post_message(self.Say(ui.EditPrompt, text=self.text))
        elif key == "ctrl+r":
            self.searching = True  # at once: keys typed before the next paint are the query, not the prompt's
            self.post_message(self.Say(ui.SearchKey, action="start"))
        elif not self.searching:
            return False
        elif key in ("enter", "tab"):
            self.searching = False
            self.post_message(self.Say(ui.SearchKey, action="accept"))
        elif key == "escape":
            self.searching = False
            self.post_message(self.Say(ui.SearchKey, action="cancel"))
        elif key == "backspace":
            self.post_message(self.Say(ui.SearchKey, action="erase"))
        elif event.is_printable and event.character:
            self.post_message(self.Say(ui.SearchKey, action="type", text=event.character))
        else:  # any other key ends the search with the match in the prompt
            self.searching = False
            self.post_message(self.Say(ui.SearchKey, action="accept"))
        event.stop()
        event.prevent_default()
        return True

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        if self._helper_key(event):
            return
        if key == "enter":
            event.stop()
            event.prevent_default()
            self.post_message(self.Send(self.text))
            if self.text.strip():
                # A sent prompt leaves the editor now, as update will clear the draft: keys typed in
                # the same burst (a fast typist, a paste without brackets) start the next prompt instead
                # of landing behind the sent text before the clearing is painted ("first⏎second" sent
                # "first" and left "firstsecond").
                self.load_text("")
            return
        if key in ("ctrl+j", "shift+enter", "alt+enter"):
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return
        if key in ("tab", "shift+tab"):
            # Never a move of the focus away, where the next words typed would be lost. Whether Tab takes a
            # completion or opens a waiting request is the app's to say, on the model as it is then: what
            # the shell last painted here trails a burst of keys ("/per" and Tab typed fast lost the Tab).
            event.stop()
            event.prevent_default()
            if key == "tab":
                self.post_message(self.Complete())
            return
        if key == "end" and self.output_below:
            event.stop()
            event.prevent_default()
            self.post_message(self.JumpToEnd())
            return
        row, _ = self.cursor_location
        if key == "up" and row == 0:
            event.stop()
            event.prevent_default()
            self.post_message(self.Recall(-1))
            return
        if key == "down" and row == self.document.line_count - 1:
            event.stop()
            event.prevent_default()
            self.post_message(self.Recall(+1))
            return
        bound = self._bindings.key_to_bindings.get(key)
        if bound:
            # Run the editor's own binding now, in key order. Left to Textual it runs when the key
            # has bubbled up to the App, so in a burst of keys queued behind a busy moment a
            # backspace could land after the next character and erase it (measured: a lost key).
            event.stop()
            event.prevent_default()
            await self.run_action(bound[0].action)
            return
        await super()._on_key(event)
