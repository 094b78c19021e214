"""Draws the model onto the main screen's widgets, once per batch of Msgs and each region only when
its slice changed; runs the spinner and the wake-up timer that move the model's clock (Tick) while
something waits or a passing note is up.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from textual.content import Content
from textual.timer import Timer
from textual.widgets import Static

from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import NOTE_SECONDS, sidebar_takes_screen, sidebar_visible
from mrsmith_tui.tui.shell.custom_loader import completion_label
from mrsmith_tui.tui.view.chat_view import ConversationView
from mrsmith_tui.tui.view.sidebar import SidebarView
from mrsmith_tui.tui.view.status import StatusBar

if TYPE_CHECKING:
    from mrsmith_tui.tui.shell.host import AppHost
    from mrsmith_tui.tui.view.prompt_box import PromptArea

SPINNER_INTERVAL = 0.1  # 10 fps, only while something runs
SCREEN_FPS = 120  # the most often a changed screen is painted; Textual's default is 60


def paint_sooner() -> None:
    """A key typed while agents stream waits for the screen's next paint tick: at 120 instead of
    60 ticks a second the bench's 100-agent key median went from 11 to 4.5 ms (p95 38–41 -> 34–39).
    An idle screen is never painted (no ticks), so idle costs nothing. TEXTUAL_FPS, if the person
    set it, wins."""
    if os.environ.get("TEXTUAL_FPS"):
        return
    import textual.screen

    textual.screen.UPDATE_PERIOD = 1 / SCREEN_FPS  # type: ignore[misc]  # read each time a screen starts its update timer


class Painter:
    def __init__(self, app: AppHost) -> None:
        self._app = app
        self.draft_in_widget = ""  # the draft the prompt widget was last given or reported
        self.spinner: Timer | None = None
        self._wake: Timer | None = None
        self._wake_at: float | None = None
        self._queued = False

    @property
    def queued(self) -> bool:
        """A draw is queued (the model changed since the last one)."""
        return self._queued

    def request(self) -> None:
        """Draw once the Msgs queued now are folded in; the threads that feed the screen wait for that
        frame (shell/pacing.py)."""
        if not self._queued:
            self._queued = True
            self._app.link.pace.hold()
            self._app.call_later(self._render)

    def _render(self) -> None:
        self._queued = False
        app = self._app
        pace = app.link.pace
        mark = pace.mark()
        if not app.is_running:
            pace.release(mark)
            return
        app.call_after_refresh(pace.release, mark)  # once this frame is on screen
        model = app.model
        try:
            conv = app.query_one(ConversationView)
        except Exception:
            return
        conv.sync(model.conv, model.now)
        conv.show_welcome(model.welcome if not model.conv.blocks else None, model.ledger)
        sidebar = app.query_one(SidebarView)
        visible = sidebar_visible(model)
        if sidebar.display != visible:
            sidebar.display = visible
        # Narrow: a shown sidebar is a strip under the conversation, never over it (at any resize).
        strip = sidebar_takes_screen(model)
        sidebar.set_class(strip, "-strip")
        app.query_one("#main").set_class(strip, "-narrow")
        if visible:
            sidebar.show(model.sidebar, model.now)
        self._render_note(model)
        prompt = app.prompt_area
        if prompt is not None:  # mounted just after the first frame
            self._render_prompt(prompt, model)
        app.query_one(StatusBar).show(model)
        app.routes.sync(model)
        self._sync_spinner(model)

    def _render_prompt(self, prompt: PromptArea, model: ui.Model) -> None:
        # Push the draft into the widget only when update changed it (history recall, completion,
        # clearing after send). A draft that came from the widget is already there; pushing it back
        # on every render would undo keys typed since that DraftChanged was posted.
        if model.input.draft != self.draft_in_widget:
            self.draft_in_widget = model.input.draft
            prompt.set_draft(model.input.draft)
        prompt.searching = model.input.search is not None
        prompt.output_below = model.conv.unseen and not model.conv.follow

    def _render_note(self, model: ui.Model) -> None:
        note = self._app.query_one("#note", Static)
        if model.input.search is not None:
            text = ui.search_note(model.input.search, model.input.history)
        elif model.input.completions:  # the one the draft holds, while Tab cycles, in brackets
            text = ui.completion_note(model.input.completions, model.input.chosen, lambda c: completion_label(model, c))
        elif model.conv.unseen and not model.conv.follow:
            text = "↓ new output below · End jumps there · PageDown pages"
        else:
            text = model.screen.note
            if text:  # a passing note clears itself even when nothing else ticks
                self.wake_up_at(model.screen.note_at + NOTE_SECONDS)
        if getattr(note, "_mrsmith_text", None) != text:
            note._mrsmith_text = text
            note.update(Content(clean(PROCESS.redact(text))), layout=False)  # never markup

    def _sync_spinner(self, model: ui.Model) -> None:
        busy = model.ledger.state not in ("idle", "waiting") or (model.run.running and model.ledger.state != "waiting")
        if model.screen.agent_open and not busy:
            busy = any(r.agent_id == model.screen.agent_open and r.state == "running" for r in model.sidebar.agents)
        if busy and self.spinner is None:
            self.spinner = self._app.set_interval(SPINNER_INTERVAL, self.tick)
        elif not busy and self.spinner is not None:
            self.spinner.stop()
            self.spinner = None

    def tick(self) -> None:
        self._app.ui(ui.Tick)

    def wake_up_at(self, at: float) -> None:
        """A Tick at (about) `at`: one timer, moved earlier when asked for an earlier time."""
        clock = self._app.clock
        if self._wake is not None and self._wake_at is not None and clock() < self._wake_at <= at:
            return
        if self._wake is not None:
            self._wake.stop()
        self._wake_at = at
        self._wake = self._app.set_timer(max(0.01, at - clock() + 0.01), self._woken)

    def _woken(self) -> None:
        self._wake = None
        self._wake_at = None
        self.tick()
