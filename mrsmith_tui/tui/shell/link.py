"""The session and the channel its Msgs reach the screen through.

The channel is a sink and an approver (bridge.py) whose Msgs pass the outbound filter (secrets
redacted, terminal controls shown as text) and arrive in order, from any thread, as `Dispatch`
messages: one for what each flush of the coalescing sink posts. /sessions replaces session and
channel together, and Msgs still queued from the old channel carry its generation and are dropped.

The session is composed off the UI thread (issue #26): after the first frame, `start` hands the
factory to a worker thread, and the prompt takes keys all the while. Everything the factory
composes runs in that worker: the provider, the tools, skills discovery, the add-ons (fleet,
skills) — and the MCP hub, which agents.compose wires in next to them (#24), so that servers
starting up never hold the first frame or a key either. A prompt sent before the session is ready
waits for it (`when_ready`) and goes out the moment it is.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.message import Message

from mrsmith_tui import msgs as m
from mrsmith_tui.core.outbound import OutboundFilter
from mrsmith_tui.errors import message_of
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model import agent_fields
from mrsmith_tui.tui.shell.bridge import CoalescingSink, TuiApprover
from mrsmith_tui.tui.shell.pacing import Pace, PacedSink
from mrsmith_tui.tui.view.markdown_worker import WORKER

if TYPE_CHECKING:  # the session's modules load in the composing worker, after the first frame
    from mrsmith_tui.core.session_api import Session, Sink
    from mrsmith_tui.tools.base import Approver
    from mrsmith_tui.tui.shell.host import AppHost

SessionFactory = Callable[["Sink", "Approver"], "Session"]
ResumeFactory = Callable[[str, "Sink", "Approver"], "Session"]  # (session_id, sink, approver): a recorded session


class Dispatch(Message):
    """The one door into the app for Msgs from any thread: what one flush of the channel posted, in order."""

    def __init__(self, msgs: Sequence[m.Msg], generation: int = 0) -> None:
        super().__init__()
        self.msgs = msgs
        self.generation = generation  # which session's channel posted it


class SessionComposed(Message):
    """From the composing worker: the session, or the one line saying why there is none."""

    def __init__(self, session: Session | None, error: str) -> None:
        super().__init__()
        self.session = session
        self.error = error


class SessionLink:
    def __init__(self, app: AppHost, make_session: SessionFactory | None, resume: ResumeFactory | None) -> None:
        self._app = app
        self._make_session = make_session
        self.read_only = make_session is None  # `mrsmith view`: a recording, no session
        self.resume = resume  # resume(session_id, sink, approver): another recorded session, replayed
        self.session: Session | None = None
        self._tried = False
        self.composing = False  # the worker is composing the session
        self._waiting: list[Callable[[], None]] = []  # run on the UI thread once it is composed (or failed)
        self._closed = False
        self._handed: Session | None = None  # composed by the worker, not yet taken by `composed`
        self._lock = threading.Lock()
        self.generation = 0
        self.pace = Pace()  # the feeders wait for the screen's frames (pacing.py)
        WORKER.pace = self.pace.wait
        self.sink, self.approver = self._open_channel()

    def _open_channel(self) -> tuple[CoalescingSink, TuiApprover]:
        self.generation += 1
        generation, app = self.generation, self._app
        # Between the core and the screen: secrets redacted (a key cut across deltas too) and
        # terminal controls shown as text. The coalescing sink calls post under its lock, in order.
        outbound = OutboundFilter()
        pace = self.pace

        def post_many(batch: list[m.Msg]) -> None:  # called from any thread: one Dispatch a flush
            shown = [out for msg in batch for out in outbound(msg)]
            if shown:
                pace.hold()  # before the post: the frame that shows it releases the feeders
                app.post_message(Dispatch(shown, generation))

        sink = PacedSink(post_many, pace)
        return sink, TuiApprover(sink)

    def is_current(self, event: Dispatch) -> bool:
        return event.generation == self.generation

    def start(self) -> None:
        """Compose the session once, in a worker thread; `composed` takes it on the UI thread."""
        if self._make_session is None or self._tried:
            return
        self._tried = True
        self.composing = True
        # Every Msg model is built here, on the UI thread, before the worker exists: a first use
        # from two threads at once is not safe in every pydantic release (msgs.msg_base).
        m.build_all()
        make, sink, approver, app = self._make_session, self.sink, self.approver, self._app

        def compose() -> None:
            try:
                session = make(sink, approver)
            except Exception as e:
                app.post_message(SessionComposed(None, message_of(e)))
                return
            with self._lock:  # handed over under the lock: `close` closes it if the app quits first
                closed = self._closed
                if not closed:
                    self._handed = session
            if closed:  # the app quit while it was composed: it never runs
                _close_quietly(session)
                return
            app.post_message(SessionComposed(session, ""))

        app.run_worker(compose, thread=True, exit_on_error=False, group="compose", name="compose the session")

    def composed(self, event: SessionComposed) -> None:
        """On the UI thread: the worker is done; what waited for the session goes now."""
        self.composing = False
        with self._lock:
            if self._closed:  # `close` closed what was handed over
                return
            self.session, self._handed = self._handed, None
        if event.session is None:
            self._app.ui(m.Error, text=f"could not start the session: {event.error}")
        else:
            self._adopt()
        waiting, self._waiting = self._waiting, []
        for then in waiting:
            then()

    def when_ready(self, then: Callable[[], None]) -> bool:
        """Run `then` on the UI thread once the session is composed (or failed to be); False when
        no composition is under way (there is a session already, or there will be none)."""
        if not self.composing:
            return False
        self._waiting.append(then)
        return True

    def forget_waiting(self) -> None:
        self._waiting.clear()

    def _adopt(self) -> None:
        """The status bar shows the session's agent (the context size the server reported stays)."""
        if self.session is not None:
            app = self._app
            fields = agent_fields(self.session.agent)
            fields["context_limit"] = app.model.ledger.context_limit or fields["context_limit"]
            app.model = replace(app.model, ledger=replace(app.model.ledger, **fields))
            self.session.gate.mode.set(app.model.ledger.mode)  # a mode chosen (Shift-Tab) before it was composed

    def switch(self, session_id: str) -> None:
        """Put a recorded session on screen in place of this one; the old one is closed, its Msgs dropped."""
        app = self._app
        if self.session is not None and session_id == self.session.session_id:
            app.ui(ui.Note, text=f"already in session {session_id}")
            return
        if app.model.run.running:
            app.ui(ui.Note, text="/sessions waits for the run to end (Esc cancels it)", kind="warning")
            return
        if self.composing:  # its channel would be closed under the worker still composing on it
            app.ui(ui.Note, text="/sessions: the session is still starting; try again in a moment", kind="warning")
            return
        if self.resume is None:
            app.ui(ui.Note, text="/sessions: this screen cannot switch sessions", kind="warning")
            return
        old, old_sink, old_approver, old_generation = self.session, self.sink, self.approver, self.generation
        self.sink, self.approver = self._open_channel()
        try:
            # Built first: if the transcript cannot be read the old session stays as it was.
            new = self.resume(session_id, self.sink, self.approver)
        except Exception as e:
            self.sink.close()
            self.sink, self.approver, self.generation = old_sink, old_approver, old_generation
            app.ui(ui.Note, text=f"/sessions: {message_of(e)}", kind="error")
            return
        old_approver.cancel(main_only=False)
        old_approver.close()
        old_sink.close()
        # Dispatched now, so it lands before the replayed Msgs the sink has queued.
        app.ui(ui.SessionSwitched, session_id=new.session_id, **agent_fields(new.agent))
        self.session = new
        new.gate.mode.set(app.model.ledger.mode)  # the mode on screen, not the config's default (or --yes's auto)
        if old is not None:
            try:
                old.close()  # stops its background agents and closes its transcript
            except Exception:
                pass

    def close(self) -> None:
        with self._lock:
            self._closed = True
            handed, self._handed = self._handed, None
        if handed is not None:
            _close_quietly(handed)
        self._waiting.clear()
        self.pace.stop()
        self.approver.close()
        self.sink.close()
        if self.session is not None:
            _close_quietly(self.session)


def _close_quietly(session: Session) -> None:
    try:
        session.close()
    except Exception:
        pass
