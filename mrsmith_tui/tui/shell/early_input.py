"""Keys and pastes that arrive before the prompt's editor is mounted (start-up time, issue #26).

The first frame shows a stand-in for the editor (view/prompt_stand_in.py); the editor is imported
and mounted right after it. Until then nothing has the focus, so Textual hands the keys that no
priority binding took (Ctrl-C, Ctrl-D and the like still act at once) and the pastes to the main
screen, which gives them here (shell/key_first.py) in the order they came. When the editor is
mounted they are handed to it in that order, before any later key, and the editor takes the focus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events

from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui.shell.key_first import KeyFirstScreen
from mrsmith_tui.tui.view.prompt_stand_in import PromptStandIn

if TYPE_CHECKING:
    from textual.widget import Widget

    from mrsmith_tui.tui.shell.host import AppHost


class EarlyInput:
    def __init__(self, stand_in: PromptStandIn) -> None:
        self._stand_in = stand_in
        self._events: list[events.Key | events.Paste] = []
        self.typed = ""  # what the editor will hold once the keys are in: echoed by the stand-in

    def take(self, event: events.Key | events.Paste) -> None:
        self._events.append(event)
        if isinstance(event, events.Paste):
            self.typed += event.text
        elif event.key == "backspace":
            self.typed = self.typed[:-1]
        elif event.key in ("ctrl+j", "shift+enter", "alt+enter"):
            self.typed += "\n"
        elif event.is_printable and event.character:
            self.typed += event.character
        self._stand_in.echo(clean(self.typed.replace("\r\n", "\n").replace("\r", "\n")))

    def hand_over(self, editor: Widget) -> None:
        """Each kept key and paste, as a new event, to the editor (as Textual forwards a key to the
        focused widget: the editor's own handlers, then its bindings and the app's as it bubbles)."""
        for event in self._events:
            again = events.Key(event.key, event.character) if isinstance(event, events.Key) else events.Paste(event.text)
            editor._forward_event(again)
        self._events.clear()


def keep_early_input(app: AppHost) -> None:
    """From the first frame on, the main screen keeps the keys and pastes for the editor."""
    screen = app.screen_stack[0]
    assert isinstance(screen, KeyFirstScreen)  # the app's default screen
    screen.early_input = EarlyInput(screen.query_one(PromptStandIn))


async def mount_editor(app: AppHost) -> None:
    """The editor in the stand-in's place, the keys typed meanwhile handed to it, and the focus. The
    app takes no other message while the editor mounts, so a key that comes meanwhile follows those."""
    from mrsmith_tui.tui.view.prompt_box import PromptArea  # TextArea's import: after the first frame

    screen = app.screen_stack[0]
    stand_ins = screen.query(PromptStandIn)
    if not isinstance(screen, KeyFirstScreen) or not stand_ins or not screen.is_attached:
        return  # quitting already
    stand_in = stand_ins.first()
    editor = PromptArea(id="prompt")
    editor.display = False  # until the stand-in goes: never both on screen
    await screen.mount(editor, before=stand_in)
    early, screen.early_input = screen.early_input, None
    app.prompt_area = editor
    stand_in.display, editor.display = False, True
    await stand_in.remove()
    if early is not None:
        early.hand_over(editor)
    screen.AUTO_FOCUS = "#prompt"  # type: ignore[misc]  # as the screen comes back from another
    if screen.focused is None:  # as the screen's AUTO_FOCUS did (another may be on top of it by now)
        screen.set_focus(editor)
    app.painter.request()


def prompt_text(app: AppHost) -> tuple[str, bool]:
    """(what the prompt holds, whether its cursor is short of the end): the editor's, or before it is
    mounted what the keys kept for it will make."""
    editor = app.prompt_area
    if editor is None:
        early = getattr(app.screen_stack[0], "early_input", None)
        return (early.typed if early is not None else ""), False
    return editor.text, editor.has_focus and editor.cursor_location != editor.document.end
