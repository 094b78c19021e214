"""Keys and pastes that arrive before the prompt's editor is mounted (start-up time, issue #26).

The first frame shows a stand-in for the editor (view/prompt_stand_in.py); the editor is imported
and mounted right after it. Until then nothing has the focus (a click does not take it), so Textual hands
the keys that no priority binding took and the pastes to the main screen, which gives them here
(shell/key_first.py) in the order they came. When the editor is mounted it takes the focus and they
are handed to it in that order, before any later key. Priority keys act at once (Ctrl-C), except
Ctrl-D on kept keys: it waits for them (after_early_keys), since what it does depends on the text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import events

from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui.shell.key_first import KeyFirstScreen
from mrsmith_tui.tui.view.prompt_stand_in import PromptStandIn

if TYPE_CHECKING:
    from textual.widget import Widget

    from mrsmith_tui.tui.shell.host import AppHost


ECHO_TAIL = 4_000  # characters of what was typed that the stand-in shows: it has ten rows at most


class EarlyInput:
    def __init__(self, stand_in: PromptStandIn) -> None:
        self._stand_in = stand_in
        self._events: list[events.Key | events.Paste] = []
        self._after: list[Callable[[], object]] = []  # app actions that wait for the kept keys (Ctrl-D)
        self.typed = ""  # what the editor will hold once the keys are in, as near as the stand-in can tell

    @property
    def kept(self) -> bool:
        return bool(self._events)

    def take(self, event: events.Key | events.Paste) -> None:
        self._events.append(event)
        if isinstance(event, events.Paste):
            self.typed += event.text
        elif event.key == "backspace":
            self.typed = self.typed[:-1]
        elif event.key == "enter":
            self.typed = self.typed if not self.typed.strip() else ""  # sent, as the editor will
        elif event.key in ("ctrl+j", "shift+enter", "alt+enter"):
            self.typed += "\n"
        elif event.is_printable and event.character:
            self.typed += event.character
        tail = self.typed[-ECHO_TAIL:]  # a megabyte pasted is not re-drawn at each key
        self._stand_in.echo(clean(tail.replace("\r\n", "\n").replace("\r", "\n")))

    def defer(self, action: Callable[[], object]) -> None:
        """An app action on the prompt's text, taken after the kept keys have reached the editor."""
        self._after.append(action)

    def hand_over(self, editor: Widget) -> None:
        """Each kept key and paste, as a new event, to the editor (as Textual forwards a key to the
        focused widget: the editor's own handlers, then its bindings and the app's as it bubbles);
        then the actions that waited for them, in the editor's turn, after those keys."""
        for event in self._events:
            again = events.Key(event.key, event.character) if isinstance(event, events.Key) else events.Paste(event.text)
            editor._forward_event(again)
        for action in self._after:
            editor.call_later(action)
        self._events.clear()
        self._after.clear()


def keep_early_input(app: AppHost) -> None:
    """From the first frame on, the main screen keeps the keys and pastes for the editor."""
    screen = app.screen_stack[0]
    assert isinstance(screen, KeyFirstScreen)  # the app's default screen
    screen.early_input = EarlyInput(screen.query_one(PromptStandIn))


def after_early_keys(app: AppHost, action: Callable[[], object]) -> bool:
    """True when keys typed before the editor was mounted are still kept: `action` then waits for
    them to reach it (Ctrl-D after "abc←" deletes right, after "abc^U" quits)."""
    early = getattr(app.screen_stack[0], "early_input", None)
    if app.prompt_area is not None or early is None or not early.kept:
        return False
    early.defer(action)
    return True


async def mount_editor(app: AppHost) -> None:
    """The editor in the stand-in's place, the keys typed meanwhile handed to it, and the focus.
    This runs in the screen's task while the app goes on taking keys: the screen keeps them until the
    editor has been handed the kept ones and the focus, with no await in between."""
    screen = app.screen_stack[0]
    stand_ins = screen.query(PromptStandIn)
    if not isinstance(screen, KeyFirstScreen) or not stand_ins or not screen.is_attached:
        return  # `mrsmith view` (no prompt), or quitting already
    from mrsmith_tui.tui.view.prompt_box import PromptArea  # TextArea's import: after the first frame

    stand_in = stand_ins.first()
    editor = PromptArea(id="prompt")
    editor.display = False  # until the stand-in goes: never both on screen
    await screen.mount(editor, before=stand_in)
    early, screen.early_input = screen.early_input, None
    app.prompt_area = editor
    stand_in.display, editor.display = False, True
    screen.AUTO_FOCUS = "#prompt"  # type: ignore[misc]  # as the screen comes back from another
    screen.set_focus(editor)  # nothing took it meanwhile (KeyFirstScreen.set_focus); before the keys, as it was
    if early is not None:
        early.hand_over(editor)
    app.painter.request()
    await stand_in.remove()


def prompt_text(app: AppHost) -> tuple[str, bool]:
    """(what the prompt holds, whether its cursor is short of the end); nothing before the editor is
    mounted (keys typed by then make the caller wait: after_early_keys)."""
    editor = app.prompt_area
    if editor is None:
        return "", False
    return editor.text, editor.has_focus and editor.cursor_location != editor.document.end
