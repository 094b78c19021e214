"""The worker threads: a turn of the session, or a command's job (/reset, /compact), one at a time.

Each ends with a WorkerDone Msg through the sink (after the run's own Msgs), carrying a crash as one
line, never a traceback. Esc and Ctrl-C cancel the token of the one running.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TYPE_CHECKING

from mrsmith_tui import msgs as m
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tui import model as ui

if TYPE_CHECKING:
    from mrsmith_tui.tui.shell.host import AppHost


class RunWorker:
    def __init__(self, app: AppHost) -> None:
        self._app = app
        self._token: CancelToken | None = None
        self._waiting: CancelToken | None = None  # the token of a prompt waiting for the session

    def start_run(self, prompt: str, *, literal: bool = False) -> None:
        """A turn for `prompt`; typed by the person unless `literal` (then its `!` and `@` mean nothing)."""
        app = self._app
        if app.session is None:
            app.start_session()  # a prompt sent within the first frame
        token = CancelToken()
        self._token = token
        hold_full_collections()
        # Sent before the session is composed: it goes out the moment the session is ready.
        if app.session is None and app.link.when_ready(lambda: self._run(prompt, token, literal)):
            self._waiting = token
            return
        self._run(prompt, token, literal)

    def _run(self, prompt: str, token: CancelToken, literal: bool = False) -> None:
        app = self._app
        self._waiting = None
        if token.cancelled:  # Esc while it waited for the session: it never starts
            return
        if app.session is None:
            why = "this is a read-only view" if app.link.read_only else "the session could not start (its error is above)"
            app.sink(m.Error(text=f"nothing can run: {why}", at=app.clock()))
            app.sink(ui.WorkerDone(at=app.clock()))
            return
        session, sink, clock = app.session, app.sink, app.clock
        from mrsmith_tui.core.prompt_run import run_prompt  # loaded by then with the session (start-up time, #26)

        def work() -> None:
            crashed = None
            try:
                run_prompt(session, prompt, token, typed=not literal, sink=sink)
            except Exception as e:
                crashed = f"the run failed: {type(e).__name__}: {e}"
            sink(ui.WorkerDone(crashed=crashed, at=clock()))

        app.run_worker(work, thread=True, exit_on_error=False, group="run", name="run")

    def run_job(self, job: Callable[[CancelToken], str | None]) -> None:
        """A command's work in the run's place: its text becomes a note."""
        token = CancelToken()
        self._token = token
        sink, clock = self._app.sink, self._app.clock

        def work() -> None:
            crashed = None
            try:
                text = job(token)
                if text:
                    sink(ui.Note(text=text, at=clock()))
            except Exception as e:
                crashed = getattr(e, "message", None) or f"{type(e).__name__}: {e}"
            sink(ui.WorkerDone(crashed=crashed, at=clock()))

        self._app.run_worker(work, thread=True, exit_on_error=False, group="run", name="job")

    def cancel(self) -> None:
        """Esc, Ctrl-C, quitting: the running turn or job is told to stop (its token); a prompt still
        waiting for the session is dropped, and its run is over at once."""
        if self._token is not None:
            self._token.cancel()
        if self._waiting is not None:
            self._waiting = None
            self._app.link.forget_waiting()
            self._app.sink(ui.WorkerDone(at=self._app.clock()))


def settle_memory(app: AppHost) -> None:
    """Collect once, then freeze what survives (start-up, finished blocks) out of the collector's
    view: a full collection over the ~200k objects of a long session paused the screen for about
    90 ms in the middle of a stream. Done only when no run is going, SETTLE_AFTER seconds after the
    run's last frame (a run started by then puts it off). Soon, not a second later: prompts sent
    one after another (a queue, a script) never left a second between runs, so nothing settled and
    each run's full collections walked every block again (300 ms pauses mid-stream at 5,000 blocks)."""
    if app.model.run.running:
        return
    app.set_timer(SETTLE_AFTER, lambda: _settle_now(app))


def _settle_now(app: AppHost) -> None:
    global _left_frozen
    if app.model.run.running:  # the next run's end settles it
        return
    gc.collect()
    gc.freeze()
    first, second, _third = gc.get_threshold()
    gc.set_threshold(first, second, FULL_EVERY)
    if not _left_frozen:
        _left_frozen = gc.get_freeze_count()
    elif _frozen_grown():
        app.set_timer(DEEP_AFTER, lambda: settle_deep(app))


def settle_deep(app: AppHost) -> bool:
    """Collect everything, the frozen objects too, and freeze what survives; True when it did.

    A frozen object is never looked at again: one that later becomes garbage held in a cycle (a block's
    widgets, once they leave the screen) stays in the permanent generation for good, an empty shell, and a
    long session grows. So once the permanent generation has grown by DEEP_GROWTH since the last time (or
    the first settle), everything is collected again: a pause that grows with the session (~200-300 ms at
    5,000 blocks, bench), taken only when idle — no run and no background agent going, nothing typed in the
    prompt — DEEP_AFTER seconds after a settle; else the next settle tries again. Growing by a share of what
    lives keeps its cost per object allocated bounded, as CPython's own full collections do."""
    global _left_frozen
    model = app.model
    if model.run.running or model.ledger.background or model.input.draft or not _frozen_grown():
        return False
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _left_frozen = gc.get_freeze_count()
    return True


def _frozen_grown() -> bool:
    return gc.get_freeze_count() > _left_frozen * (1 + DEEP_GROWTH)


_left_frozen = 0  # the permanent generation's size after the first settle or the last settle_deep
DEEP_GROWTH = 0.5
DEEP_AFTER = 2.0  # seconds: a person reading what came, not typing the next prompt
SETTLE_AFTER = 0.1
FULL_EVERY = 10  # Python's own: a full collection after this many of the middle generation's
HELD = 100  # ... and while a run goes: ten times fewer (settle_memory collects everything when it ends)


def hold_full_collections() -> None:
    """While a turn streams, full collections are ten times rarer (issue #26): each walked every
    object the last freeze left out, the Markdown worker's lines among them, and paused the screen
    for 15-70 ms in the middle of a stream. Not none: a long run unmounts old blocks, whose widgets
    are cycles only a full collection frees, so memory stays bounded. The young generations collect
    as they did (what a delta leaves behind dies young); settle_memory collects all of it after the run."""
    first, second, _third = gc.get_threshold()
    gc.set_threshold(first, second, HELD)
