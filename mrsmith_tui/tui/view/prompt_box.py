"""The input: a multi-line editor where Enter sends and Ctrl-J breaks the line."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import TextArea
from textual.widgets.text_area import Edit, EditResult

from mrsmith_tui.security.terminal_text import clean


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
        pass

    class OpenRequest(Message):
        """Tab with no completion offered while a request waits behind the typed text."""

    class JumpToEnd(Message):
        """End while new output waits below the fold: the conversation follows its end again."""

    def __init__(self, **kwargs) -> None:
        super().__init__("", soft_wrap=True, show_line_numbers=False, tab_behavior="focus",
                         compact=True, highlight_cursor_line=False,
                         placeholder="Ask mrsmith…  (Enter send · Ctrl-J newline · /help)", **kwargs)
        self.cursor_blink = False
        self.completing = False  # set by the shell while slash completions are offered
        self.request_waiting = False  # set by the shell while a request waits behind the typed text
        self.output_below = False  # set by the shell while new output waits below the fold

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

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
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
        if key == "tab" and self.completing:
            event.stop()
            event.prevent_default()
            self.post_message(self.Complete())
            return
        if key == "tab" and self.request_waiting:
            event.stop()
            event.prevent_default()
            self.post_message(self.OpenRequest())
            return
        if key in ("tab", "shift+tab"):
            # Nothing to complete or answer: the key does nothing rather than move the focus away,
            # where the next words typed would be lost. (Shift-Tab is kept free for a later use.)
            event.stop()
            event.prevent_default()
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
