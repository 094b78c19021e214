"""Keys reaching a request's modal, routed before any widget of the modal (an option list, the
free-text input) can take them. `update` decides by the key's own time (key_route): an answer, a key
dropped within the grace, or the person's typing, which lands in the prompt. An answer key is folded
in at once, so the keys after it (a fast "yes") meet the model it left: none is lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual._time import get_time
from textual.widgets import Input

from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.update import answer_for, key_route

if TYPE_CHECKING:
    from mrsmith_tui.tui.shell.host import AppHost

PASSED_KEYS = ("ctrl+c", "ctrl+d", "f2", "pageup", "pagedown")  # the app's own bindings, over any modal


def take_request_key(app: AppHost, event: events.Event) -> bool:
    """True when the event was taken here (an answer, a dropped key, typing moved to the prompt)."""
    if not (isinstance(event, (events.Key, events.Paste)) and bool(app.screen_stack)
            and getattr(app.screen, "request_id", None) is not None):  # a RequestModal, also one closing
        return False
    if isinstance(event, events.Key) and not event.is_forwarded and event.key not in PASSED_KEYS:
        at = key_at(app, event.time)
        route = key_route(app.model, at, event.key, bool(event.is_printable and event.character))
        if route == "drop":
            app.dispatch(ui.KeyIgnored(at=at))
            return True
        if route == "prompt":
            type_into_prompt(app, event.character or "", at)
            return True
        head = app.model.pending.head
        answer = answer_for(app.model, event.key)
        if answer is not None and head is not None:
            app.dispatch(ui.Answer(request_id=head.request_id, answer=answer, at=at))
            return True
    if isinstance(event, events.Paste) and not _modal_takes_paste(app):
        type_into_prompt(app, event.text, app.clock())  # pasted text is the person's typing
        return True
    return False


def key_at(app: AppHost, key_time: float | None) -> float:
    """When a key was pressed, on the app's clock: Textual stamps events on its own monotonic clock."""
    now = app.clock()
    return now if key_time is None else now - max(0.0, get_time() - key_time)


def _modal_takes_paste(app: AppHost) -> bool:
    """Only a question's free-text box, on screen and past its grace, takes a paste."""
    p = app.model.pending
    return (p.head is not None and (p.head.kind == "question" or p.explaining) and p.keys_from is not None
            and isinstance(app.screen.focused, Input) and app.clock() >= p.keys_from)


def type_into_prompt(app: AppHost, character: str, at: float) -> None:
    """The person was typing, not answering: the key joins the prompt and the request waits again."""
    prompt = app.prompt_area
    if prompt is None:  # a request comes from a session, composed after the editor is mounted
        return
    prompt.insert(character)
    app.painter.draft_in_widget = prompt.text
    app.dispatch(ui.TypedIntoPrompt(text=prompt.text, at=at))
    if app.model.screen.agent_open is not None:
        app.ui(ui.CloseAgent)
