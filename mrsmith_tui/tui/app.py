"""The shell: the only impure part of the TUI.

Textual events and worker Msgs become Msgs for `update`; the Effects it returns are carried
out here (start or cancel a run in a worker thread, answer a waiting worker, copy, write
the history, run a command against the session, exit). Views are synced once per batch of
messages, each region only when its slice of the model changed.
"""

from __future__ import annotations

import gc
import json
import os
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterable

from textual import events
from textual._time import get_time
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.content import Content
from textual.containers import Horizontal
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from mrsmith_tui import msgs as m
from mrsmith_tui import paths
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import Config
from mrsmith_tui.core.outbound import OutboundFilter
from mrsmith_tui.security.private_files import open_private, private_dir
from mrsmith_tui.security.redact import PROCESS, map_strings
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.bridge import CoalescingSink, TuiApprover
from mrsmith_tui.tui.model import agent_fields, sidebar_takes_screen, sidebar_visible
from mrsmith_tui.tui.update import answer_for, initial_model, key_route, update
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update.commands import COMMANDS
from mrsmith_tui.tui.view.blocks import review_text
from mrsmith_tui.tui.view.chat_view import BlockClicked, ConversationKey, ConversationView, UserScrolled
from mrsmith_tui.tui.view.prompt_box import PromptArea
from mrsmith_tui.tui.view.sidebar import PanelKeyPressed, PanelRowClicked, SidebarView, TypedAway
from mrsmith_tui.tui.view.status import StatusBar

SessionFactory = Callable[[Any, Any], Any]
ResumeFactory = Callable[[str, Any, Any], Any]
SPINNER_INTERVAL = 0.1  # 10 fps, only while something runs
SCREEN_FPS = 120  # the most often a changed screen is painted; Textual's default is 60


# ui.* Msgs the app makes whose text is shown as is (key and scroll events are left alone)
_SHOWN_AS_TEXT = (ui.Note, ui.AgentSwitched, m.Error)


def _paint_sooner() -> None:
    """A key typed while agents stream waits for the screen's next paint tick: at 120 instead of
    60 ticks a second the bench's 100-agent key median went from 11 to 4.5 ms (p95 38–41 -> 34–39).
    An idle screen is never painted (no ticks), so idle costs nothing. TEXTUAL_FPS, if the person
    set it, wins."""
    if os.environ.get("TEXTUAL_FPS"):
        return
    import textual.screen

    textual.screen.UPDATE_PERIOD = 1 / SCREEN_FPS  # read each time a screen starts its update timer


class Dispatch(Message):
    """The one door into the app for Msgs from any thread."""

    def __init__(self, msg: m.Msg, generation: int = 0) -> None:
        super().__init__()
        self.msg = msg
        self.generation = generation  # which session's channel posted it (see _open_channel)


def default_history_path() -> Path:
    return paths.config_dir() / "history"


def load_history(path: Path | None) -> tuple[str, ...]:
    if path is None or not path.is_file():
        return ()
    out: list[str] = []
    try:
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                entry = line
            if isinstance(entry, str) and entry.strip():
                out.append(entry)
    except OSError:
        return ()
    return tuple(out[-ui.HISTORY_CAP:])


def append_history(path: Path | None, entry: str, kept: tuple[str, ...]) -> None:
    """One JSON string a line; rewritten (whole, then renamed) when it grows past twice the cap."""
    if path is None:
        return
    try:
        private_dir(path.parent)  # ~/.config/mrsmith 0700, the history 0600: prompts can hold anything
        with os.fdopen(open_private(path, os.O_WRONLY | os.O_APPEND), "a", encoding="utf-8") as f:
            f.write(json.dumps(PROCESS.redact(entry)) + "\n")
        if path.stat().st_size > 400_000 or sum(1 for _ in path.open(encoding="utf-8")) > 2 * ui.HISTORY_CAP:
            tmp = path.with_suffix(".tmp")
            with os.fdopen(open_private(tmp, os.O_WRONLY | os.O_TRUNC), "w", encoding="utf-8") as f:
                f.write("".join(json.dumps(PROCESS.redact(e)) + "\n" for e in kept[-ui.HISTORY_CAP:]))
            tmp.replace(path)
    except OSError:
        pass  # history is a convenience; never break the session for it


class MrSmithApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "mrsmith"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding("ctrl+c", "interrupt", "cancel / quit", show=False, priority=True),
        Binding("ctrl+d", "quit_key", "quit", show=False, priority=True),
        Binding("ctrl+o", "review", "review", show=False, priority=True),
        Binding("ctrl+b", "sidebar", "sidebar", show=False, priority=True),
        Binding("f2", "open_request", "answer the waiting request", show=False, priority=True),
        Binding("escape", "cancel", "cancel run", show=False),
        Binding("alt+up", "focus_move(-1)", "previous block", show=False, priority=True),
        Binding("alt+down", "focus_move(1)", "next block", show=False, priority=True),
        Binding("shift+tab", "focus_move(-1)", "blocks", show=False),
        Binding("pageup", "page(-1)", "page up", show=False, priority=True),
        Binding("pagedown", "page(1)", "page down", show=False, priority=True),
    ]

    def __init__(self, make_session: SessionFactory | None, *, config: Config | None = None, theme: str | None = None,
                 history_path: Path | None = None, replay: Iterable[m.Msg] = (), clock: Callable[[], float] = time.time,
                 resume: ResumeFactory | None = None, sessions_root: Path | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._draft_in_widget = ""  # the draft the prompt widget was last given or reported
        self.animation_level = "none"
        self._make_session = make_session
        self._resume = resume  # resume(session_id, sink, approver): another recorded session, replayed
        self._sessions_root = sessions_root
        self._config = config or Config()
        self._history_path = history_path
        self._replay = list(replay)
        self._clock = clock
        self._wanted_theme = theme
        self.session: Any = None
        self._session_tried = False
        self._generation = 0
        self.sink, self.approver = self._open_channel()
        self._token: CancelToken | None = None
        self._spinner: Timer | None = None
        self._wake: Timer | None = None
        self._wake_at: float | None = None
        self._render_queued = False
        self._modal: Any = None  # the RequestModal on screen
        self._moved_to_request = False  # Tab / F2: the person asked for the request, over any other screen
        self._review_open = False
        self._agent_shown = False
        self.exit_code = 0
        self.model = self._initial_model()
        self._theme_warning = self._choose_theme()

    # ----------------------------------------------------------------- setup

    def _initial_model(self) -> ui.Model:
        agents = tuple(a.name for a in self._config.agents)
        agent = None
        if self._config.agents:
            name = self._config.default_agent or self._config.agents[0].name
            agent = next((a for a in self._config.agents if a.name == name), self._config.agents[0])
        fields = map_strings(agent_fields(agent), clean) if agent else {}  # names from a config file are shown
        return initial_model(**fields, history=load_history(self._history_path), agents=tuple(map(clean, agents)))

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield ConversationView(id="conversation")
            yield SidebarView(id="sidebar")
        yield Static("", id="note")
        yield PromptArea(id="prompt")
        yield StatusBar(id="status")

    def on_mount(self) -> None:
        self._setup_themes()
        self.model = replace(self.model, themes_known=tuple(sorted(self.available_themes)))
        self.query_one(PromptArea).focus()
        size = self.size
        self.ui(ui.Resized, width=size.width, height=size.height)
        outbound = OutboundFilter()
        for msg in self._replay:  # a recorded session: its text is as untrusted as a live one's
            for shown in outbound(msg):
                self.dispatch(shown)
        self._request_render()
        # The session (provider, tools, skills) is built after the first frame is on screen:
        # start-up is judged by when the screen appears. A prompt sent before it is ready waits.
        self.call_after_refresh(self._start_session)

    def _start_session(self) -> None:
        if self._make_session is None or self._session_tried:
            return
        self._session_tried = True
        try:
            self.session = self._make_session(self.sink, self.approver)
        except Exception as e:  # noqa: BLE001 - shown, never a traceback
            text = getattr(e, "message", None) or str(e) or type(e).__name__
            self.ui(m.Error, text=f"could not start the session: {text}")
        else:
            self._adopt_session()
        self._request_render()
        self.call_after_refresh(self._settle_memory)

    def _settle_memory(self) -> None:
        """Collect once, then freeze what survives (start-up, finished blocks) out of the collector's
        view: a full collection over the ~200k objects of a long session paused the screen for about
        90 ms in the middle of a stream. Done only when no run is going, so the pause lands on idle."""
        if self.model.run.running:
            return
        gc.collect()
        gc.freeze()

    def _choose_theme(self) -> str:
        """In __init__: the theme is set before the stylesheet is first parsed (setting it in on_mount
        parsed the whole stylesheet a second time before the first frame). Returns a warning or ""."""
        from mrsmith_tui.tui.themes import load_themes, pick_theme

        for theme in load_themes():
            self.register_theme(theme)
        name, warning = pick_theme(self._wanted_theme, no_color=self.no_color, available=set(self.available_themes))
        if name:
            self.theme = name
        return warning

    def _setup_themes(self) -> None:
        if self._theme_warning:
            self.ui(ui.Note, text=self._theme_warning, kind="warning")
        self._style_markdown()
        self.theme_changed_signal.subscribe(self, lambda _theme: self._restyle())

    def _restyle(self) -> None:
        self._style_markdown()
        for screen in self.screen_stack:
            for view in screen.query(ConversationView):
                view.restyle()

    def _style_markdown(self) -> None:
        """Finished answers are Rich Markdown: give Rich the theme's colours (kept on one stacked theme)."""
        from rich.theme import Theme as RichTheme

        from mrsmith_tui.tui.themes import markdown_styles

        if getattr(self, "_markdown_theme_pushed", False):
            self.console.pop_theme()
        self.console.push_theme(RichTheme(markdown_styles(self.theme_variables)))
        self._markdown_theme_pushed = True

    def _adopt_session(self) -> None:
        s = self.session
        agent = getattr(s, "agent", None)
        if agent is not None:
            fields = agent_fields(agent)
            fields["context_limit"] = self.model.ledger.context_limit or fields["context_limit"]
            self.model = replace(self.model, ledger=replace(self.model.ledger, **fields))

    def get_system_commands(self, screen: Any) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for name, what in COMMANDS.items():
            if what.startswith("<"):
                continue  # needs an argument: type it in the prompt
            yield SystemCommand(name, what, lambda name=name: self.ui(ui.Submit, text=name))
        yield SystemCommand("Review", "the whole conversation unfolded (Ctrl-O)", self.action_review)
        yield SystemCommand("Toggle sidebar", "tasks and agents (Ctrl-B)", self.action_sidebar)

    # ----------------------------------------------------------------- the loop

    def _open_channel(self) -> tuple[CoalescingSink, TuiApprover]:
        """A sink and approver for one session. After /sessions switches, Msgs still queued from
        the old session's workers (its agents being stopped) carry an old generation and are dropped."""
        self._generation += 1
        generation = self._generation
        # Between the core and the screen: secrets redacted (a key cut across deltas too) and
        # terminal controls shown as text. The coalescing sink calls post under its lock, in order.
        outbound = OutboundFilter()

        def post(msg: m.Msg) -> None:  # called from any thread
            for shown in outbound(msg):
                self.post_message(Dispatch(shown, generation))

        sink = CoalescingSink(post)
        return sink, TuiApprover(sink)

    def on_dispatch(self, event: Dispatch) -> None:
        if event.generation == self._generation:
            self.dispatch(event.msg)

    def dispatch(self, msg: m.Msg) -> None:
        if isinstance(msg, ui.WorkerDone):
            self.call_after_refresh(self._settle_memory)
        self.model, effects = update(self.model, msg)
        for effect in effects:
            self._run_effect(effect)
        self._request_render()

    def ui(self, cls: type, **fields: Any) -> None:
        if cls in _SHOWN_AS_TEXT:  # notes and errors can quote a path, an agent's name, an exception
            fields = {k: clean(PROCESS.redact(v)) if isinstance(v, str) else v for k, v in fields.items()}
        self.dispatch(cls(at=self._clock(), **fields))

    def _request_render(self) -> None:
        if not self._render_queued:
            self._render_queued = True
            self.call_later(self._render)

    def _render(self) -> None:
        self._render_queued = False
        if not self.is_running:
            return
        model = self.model
        try:
            conv = self.query_one(ConversationView)
        except Exception:  # noqa: BLE001 - not composed yet or shutting down
            return
        conv.sync(model.conv, model.now)
        sidebar = self.query_one(SidebarView)
        visible = sidebar_visible(model)
        if sidebar.display != visible:
            sidebar.display = visible
        whole = sidebar_takes_screen(model)
        sidebar.set_class(whole, "-whole")
        if conv.display == whole:
            conv.display = not whole
        if visible:
            sidebar.show(model.sidebar, model.now)
        self._render_note(model)
        prompt = self.query_one(PromptArea)
        # Push the draft into the widget only when update changed it (history recall, completion,
        # clearing after send). A draft that came from the widget is already there; pushing it back
        # on every render would undo keys typed since that DraftChanged was posted.
        if model.input.draft != self._draft_in_widget:
            self._draft_in_widget = model.input.draft
            prompt.set_draft(model.input.draft)
        prompt.completing = bool(model.input.completions)
        prompt.request_waiting = model.pending.head is not None and not model.pending.armed
        self.query_one(StatusBar).show(model)
        self._sync_agent_screen(model)
        self._sync_modal(model)
        self._sync_review(model)
        self._sync_spinner(model)

    def _agent_screen(self) -> Any:
        from mrsmith_tui.tui.screens.agent_screen import AgentScreen

        return next((s for s in self.screen_stack if isinstance(s, AgentScreen)), None)

    def _sync_agent_screen(self, model: ui.Model) -> None:
        wanted = model.screen.agent_open
        shown = self._agent_screen() if (wanted or self._agent_shown) else None
        if shown is not None and shown.agent_id != wanted:
            shown.dismiss(None)
            shown = None
        self._agent_shown = wanted is not None
        if wanted is None:
            return
        row = next((r for r in model.sidebar.agents if r.agent_id == wanted), None)
        if shown is None:
            from mrsmith_tui.tui.screens.agent_screen import AgentScreen

            shown = AgentScreen(wanted)
            self.push_screen(shown)
            self.call_after_refresh(self._request_render)  # draw it once it is mounted
            return
        shown.show(model.agent_convs.get(wanted), row, model.now)

    def _render_note(self, model: ui.Model) -> None:
        note = self.query_one("#note", Static)
        if model.input.completions:
            shown = "  ".join(model.input.completions[:8])
            text = f"Tab ⇥ {shown}"
        elif model.conv.unseen and not model.conv.follow:
            text = "↓ new output below · PageDown or End"
        else:
            text = model.screen.note
            if text:  # a passing note clears itself even when nothing else ticks
                self._wake_up_at(model.screen.note_at + ui.NOTE_SECONDS)
        if getattr(note, "_mrsmith_text", None) != text:
            note._mrsmith_text = text  # type: ignore[attr-defined]
            note.update(Content(clean(PROCESS.redact(text))), layout=False)  # never markup

    def _sync_modal(self, model: ui.Model) -> None:
        head = model.pending.head if model.pending.armed else None
        current = self._modal
        if current is not None and (head is None or head.request_id != current.request_id):
            self._modal = None
            if current.is_attached and current in self.screen_stack:
                current.dismiss(None)
        if head is not None and self._modal is None:
            asked, self._moved_to_request = self._moved_to_request, False
            prompt = self.screen_stack[0].query_one(PromptArea)
            if not model.input.draft and prompt.text:
                # Armed on an empty prompt, but a key typed just before has not reached update yet
                # (its DraftChanged is still queued): the prompt holds text, so the request waits.
                self._draft_in_widget = prompt.text
                self.dispatch(ui.TypedIntoPrompt(text=prompt.text, at=self._clock()))
                return
            if not asked and self._keyboard_elsewhere():
                self.dispatch(ui.KeyboardElsewhere(at=self._clock()))
                return
            from mrsmith_tui.tui.screens.modals import modal_for  # lazily: start-up time

            modal = modal_for(head)
            self._modal = modal
            self.push_screen(modal)
        if self._modal is not None and head is not None:
            self._modal.confirming_always(model.pending.confirm_always)

    def _keyboard_elsewhere(self) -> bool:
        """Another screen has the keyboard (the review and its search, the palette, a dialog): a request
        arriving now would take keys typed there. An agent's own screen sends typing to the prompt."""
        from mrsmith_tui.tui.screens.agent_screen import AgentScreen
        from mrsmith_tui.tui.screens.modals import RequestModal

        top = self.screen
        return top is not self.screen_stack[0] and not isinstance(top, (AgentScreen, RequestModal))  # one closing

    def on_request_modal_shown(self, event: Any) -> None:
        """The modal is painted: its grace starts now."""
        self.dispatch(ui.RequestShown(request_id=event.request_id, at=self._clock()))

    def on_request_modal_answered(self, event: Any) -> None:
        self.dispatch(ui.Answer(request_id=event.request_id, answer=event.answer, at=self._key_at(event.key_time)))

    def _key_at(self, key_time: float | None) -> float:
        """When a key was pressed, on the app's clock: Textual stamps events on its own monotonic clock."""
        now = self._clock()
        return now if key_time is None else now - max(0.0, get_time() - key_time)

    async def on_event(self, event: events.Event) -> None:
        # Keys reaching a request's modal are routed here, before any widget of the modal (an option
        # list, the free-text input) can take them; update decides (key_route) by the key's own time.
        # An answer key is folded in at once, so the keys after it (a fast "yes") meet the model it
        # left: each key either answers or lands in the prompt, none is lost.
        on_request = isinstance(event, (events.Key, events.Paste)) and bool(self._screen_stack) \
            and getattr(self.screen, "request_id", None) is not None  # a RequestModal, also one closing
        if on_request and isinstance(event, events.Key) and not event.is_forwarded \
                and event.key not in ("ctrl+c", "ctrl+d", "f2", "pageup", "pagedown"):
            at = self._key_at(event.time)
            route = key_route(self.model, at, event.key, bool(event.is_printable and event.character))
            if route == "drop":
                self.dispatch(ui.KeyIgnored(at=at))
                return
            if route == "prompt":
                self._type_into_prompt(event.character or "", at)
                return
            head = self.model.pending.head
            answer = answer_for(self.model, event.key)
            if answer is not None and head is not None:
                self.dispatch(ui.Answer(request_id=head.request_id, answer=answer, at=at))
                return
        if on_request and isinstance(event, events.Paste) and not self._modal_takes_paste():
            self._type_into_prompt(event.text, self._clock())  # pasted text is the person's typing
            return
        await super().on_event(event)

    def _modal_takes_paste(self) -> bool:
        """Only a question's free-text box, on screen and past its grace, takes a paste."""
        from textual.widgets import Input

        p = self.model.pending
        return (p.head is not None and p.head.kind == "question" and p.keys_from is not None
                and isinstance(self.screen.focused, Input) and self._clock() >= p.keys_from)

    def _type_into_prompt(self, character: str, at: float) -> None:
        """The person was typing, not answering: the key joins the prompt and the request waits again."""
        prompt = self.screen_stack[0].query_one(PromptArea)
        prompt.insert(character)
        self._draft_in_widget = prompt.text
        self.dispatch(ui.TypedIntoPrompt(text=prompt.text, at=at))
        if self.model.screen.agent_open is not None:
            self.ui(ui.CloseAgent)

    def _sync_review(self, model: ui.Model) -> None:
        if model.screen.review and not self._review_open:
            from mrsmith_tui.tui.screens.review import ReviewScreen

            self._review_open = True

            def closed(_: Any) -> None:
                self._review_open = False
                self.ui(ui.ToggleReview, open=False)

            shown = model.agent_convs.get(model.screen.agent_open or "") if model.screen.agent_open else None
            self.push_screen(ReviewScreen(review_text((shown or model.conv).blocks)), closed)
        elif not model.screen.review and self._review_open:
            screen = self.screen
            from mrsmith_tui.tui.screens.review import ReviewScreen

            if isinstance(screen, ReviewScreen):
                screen.dismiss(None)

    def _sync_spinner(self, model: ui.Model) -> None:
        busy = model.ledger.state not in ("idle", "waiting") or model.run.running and model.ledger.state != "waiting"
        if model.screen.agent_open and not busy:
            busy = any(r.agent_id == model.screen.agent_open and r.state == "running" for r in model.sidebar.agents)
        if busy and self._spinner is None:
            self._spinner = self.set_interval(SPINNER_INTERVAL, self._tick)
        elif not busy and self._spinner is not None:
            self._spinner.stop()
            self._spinner = None

    def _tick(self) -> None:
        self.ui(ui.Tick)

    # ----------------------------------------------------------------- effects

    def _run_effect(self, effect: fx.Effect) -> None:
        if isinstance(effect, fx.StartRun):
            self._start_run(effect.prompt)
        elif isinstance(effect, fx.CancelRun):
            self._cancel_run()
        elif isinstance(effect, fx.Resolve):
            self.approver.resolve(effect.request_id, effect.answer)
        elif isinstance(effect, fx.Copy):
            self.copy_to_clipboard(effect.text)
        elif isinstance(effect, fx.SaveHistory):
            append_history(self._history_path, effect.entry, self.model.input.history)
        elif isinstance(effect, fx.Exit):
            self._quit()
        elif isinstance(effect, fx.WakeAt):
            self._wake_up_at(effect.at)
        elif isinstance(effect, fx.Command):
            self._command(effect.name, effect.arg)
        elif isinstance(effect, fx.StopAgent):
            self._stop_agent(effect.agent_id)
        elif isinstance(effect, fx.Focus):
            self._focus(effect.target)
        elif isinstance(effect, fx.Notify):
            self.notify(clean(PROCESS.redact(effect.text)), timeout=6, markup=False)

    def _stop_agent(self, agent_id: str) -> None:
        fleet = getattr(self.session, "services", {}).get("fleet") if self.session is not None else None
        if fleet is None:
            self.ui(ui.Note, text=f"cannot stop {agent_id}: no fleet in this session", kind="error")
            return
        try:
            # join_seconds=0: the event loop never waits; AgentStateChanged reports the stop.
            fleet.stop(agent_id, join_seconds=0)
        except Exception as e:  # noqa: BLE001 - FleetError names the known ids
            self.ui(ui.Note, text=getattr(e, "message", None) or str(e), kind="error")

    def _focus(self, target: str) -> None:
        if target == "panel":
            sidebar = self.query_one(SidebarView)
            sidebar.can_focus = True
            self.call_after_refresh(sidebar.focus)  # once the sync above has shown it
        elif target == "prompt" and self.screen is self.screen_stack[0]:
            self.query_one(PromptArea).focus()

    def _wake_up_at(self, at: float) -> None:
        if self._wake is not None and self._wake_at is not None and self._wake_at <= at:
            if self._wake_at > self._clock():
                return
        if self._wake is not None:
            self._wake.stop()
        self._wake_at = at
        self._wake = self.set_timer(max(0.01, at - self._clock() + 0.01), self._woken)

    def _woken(self) -> None:
        self._wake = None
        self._wake_at = None
        self._tick()

    def _start_run(self, prompt: str) -> None:
        if self.session is None:
            self._start_session()  # a prompt sent within the first frame
        if self.session is None:
            self.sink(m.Error(text="no session: nothing can run (see the error above)", at=self._clock()))
            self.sink(ui.WorkerDone(at=self._clock()))
            return
        token = CancelToken()
        self._token = token
        session, sink, clock = self.session, self.sink, self._clock

        def work() -> None:
            crashed = None
            try:
                session.run(prompt, token)
            except Exception as e:  # noqa: BLE001 - one line, never a traceback
                crashed = f"the run failed: {type(e).__name__}: {e}"
            sink(ui.WorkerDone(crashed=crashed, at=clock()))

        self.run_worker(work, thread=True, exit_on_error=False, group="run", name="run")

    def _run_in_worker(self, job: Callable[[CancelToken], str | None]) -> None:
        token = CancelToken()
        self._token = token
        sink, clock = self.sink, self._clock

        def work() -> None:
            crashed = None
            try:
                text = job(token)
                if text:
                    sink(ui.Note(text=text, at=clock()))
            except Exception as e:  # noqa: BLE001
                crashed = getattr(e, "message", None) or f"{type(e).__name__}: {e}"
            sink(ui.WorkerDone(crashed=crashed, at=clock()))

        self.run_worker(work, thread=True, exit_on_error=False, group="run", name="job")

    def _cancel_run(self) -> None:
        if self._token is not None:
            self._token.cancel()
        for rid in self.approver.cancel(main_only=True):
            self.ui(m.RequestResolved, request_id=rid, answer="cancelled")

    def _quit(self) -> None:
        if self._token is not None:
            self._token.cancel()
        self.approver.cancel(main_only=False)
        self.exit(self.exit_code)

    async def action_quit(self) -> None:
        self._quit()

    def on_unmount(self) -> None:
        if self._token is not None:
            self._token.cancel()
        self.approver.close()
        self.sink.close()
        if self.session is not None:
            try:
                self.session.close()
            except Exception:  # noqa: BLE001 - closing must not raise at exit
                pass

    # ----------------------------------------------------------------- commands

    def _command(self, name: str, arg: str) -> None:
        handler = getattr(self, "_cmd_" + name.lstrip("/"), None)
        if self.session is None and name not in ("/theme",):
            self.ui(ui.Note, text=f"{name}: no session", kind="error")
            if name in ("/compact", "/reset"):
                self.sink(ui.WorkerDone(at=self._clock()))
            return
        try:
            handler(arg)
        except Exception as e:  # noqa: BLE001 - a command error is one line
            text = getattr(e, "message", None) or str(e) or type(e).__name__
            self.ui(ui.Note, text=f"{name}: {text}", kind="error")
            if name in ("/compact", "/reset"):
                self.sink(ui.WorkerDone(at=self._clock()))

    def _cmd_reset(self, arg: str) -> None:
        """A fresh conversation; first asks whether to keep the permissions "always" answers gave."""
        gate = getattr(self.session, "gate", None)
        answered = [p.spec for p in gate.permissions() if p.origin == "answer"] if gate is not None else []
        if not answered:
            self._reset(keep=True)
            return
        from mrsmith_tui.tui.permissions import KeepPermissionsModal

        def chosen(keep: bool | None) -> None:
            if keep is None:
                self.ui(ui.Note, text="/reset cancelled: the conversation goes on")
                self.sink(ui.WorkerDone(at=self._clock()))
                return
            self._reset(keep)

        self.push_screen(KeepPermissionsModal(answered), chosen)

    def _reset(self, keep: bool) -> None:
        """The old conversation's requests are refused at once (their modals leave); the reset itself
        runs in a worker, since stopping the session's agents waits for their threads."""
        from mrsmith_tui.tui.permissions import short

        for rid in self.approver.cancel(main_only=False):
            self.ui(m.RequestResolved, request_id=rid, answer="cancelled")
        session, sink, clock = self.session, self.sink, self._clock

        def job(token: CancelToken) -> str | None:
            gone = [] if keep else session.gate.revoke_all("answer")
            session.reset()
            sink(ui.Cleared(at=clock()))
            return f"forgot {', '.join(short(p.spec) for p in gone)}: such calls ask again" if gone else None

        self._run_in_worker(job)

    def _cmd_permissions(self, arg: str) -> None:
        from mrsmith_tui.tui.permissions import permissions_command

        gate = getattr(self.session, "gate", None)
        if gate is None:
            self.ui(ui.Note, text="/permissions: this session has no approval gate", kind="warning")
            return
        text, kind = permissions_command(gate, arg)
        self.ui(ui.Note, text=text, kind=kind)

    def _cmd_usage(self, arg: str) -> None:
        ledger = getattr(self.session, "ledger", None)
        if ledger is None:
            self.ui(ui.Note, text="usage: this session keeps no ledger", kind="warning")
            return
        try:
            from mrsmith_tui.core.usage_report import usage_report
        except ImportError:
            self.ui(ui.Note, text="usage: the report is not available", kind="warning")
            return
        self.ui(ui.Note, text=usage_report(ledger))

    def _cmd_agents(self, arg: str) -> None:
        current = getattr(getattr(self.session, "agent", None), "name", "")
        lines = ["Agents"] + [f"{'●' if a.name == current else '○'} {a.name}  {a.provider}/{a.model}"
                              for a in self._config.agents]
        fleet = getattr(self.session, "services", {}).get("fleet")
        records = fleet.list() if fleet is not None and hasattr(fleet, "list") else []
        if records:
            lines += ["", "Background agents · in the panel: ↑/↓ select, Enter open, x stop · /agents stop ID"]
            for r in records:
                lines.append(f"{r.agent_id}  {r.label}  {r.state} · {r.elapsed():.0f}s · {r.tool_calls} tools")
        elif fleet is None:
            lines += ["", "(background agents are not available in this build)"]
        self.ui(ui.Note, text="\n".join(lines))

    def _cmd_jobs(self, arg: str) -> None:
        from mrsmith_tui.tools.jobs import JOBS

        jobs = JOBS.list()
        if not jobs:
            self.ui(ui.Note, text="no background jobs (a shell call with background: true starts one)")
            return
        lines = ["Background jobs · stopped when mrsmith exits unless detached"] + [j.describe() for j in jobs]
        self.ui(ui.Note, text="\n".join(lines))

    def _cmd_agent(self, arg: str) -> None:
        """`/agent NAME` starts a new session on that agent; `/agent NAME --keep` keeps the conversation."""
        words = arg.split()
        keep = "--keep" in words
        name = " ".join(w for w in words if w != "--keep")
        self.session.switch_agent(name)  # an unknown name raises before anything changes
        if not keep:
            self.session.reset()
            self.ui(ui.Cleared)
        self.ui(ui.AgentSwitched, **agent_fields(self.session.agent))

    def _cmd_skills(self, arg: str) -> None:
        catalog = getattr(self.session, "services", {}).get("skills")
        if catalog is None:
            self.ui(ui.Note, text="skills are not available in this build", kind="warning")
            return
        if not arg:
            skills = catalog.list()
            if not skills:
                self.ui(ui.Note, text="no skills found (./skills or ~/.config/mrsmith/skills)")
                return
            lines = ["Skills (* loaded) · /skills NAME loads one"] + [
                f"{'*' if catalog.is_loaded(s.name) else ' '} {s.name}  {getattr(s, 'description', '')}" for s in skills]
            self.ui(ui.Note, text="\n".join(lines))
            return
        already = catalog.is_loaded(arg)
        skill = catalog.load(arg)  # its on_load puts the body in the context and records it, once
        self.ui(ui.Note, text=f"skill {skill.name} {'was already loaded' if already else 'loaded'}")

    def _cmd_reasoning(self, arg: str) -> None:
        if not arg:
            effort = getattr(getattr(self.session, "agent", None), "reasoning_effort", None)
            current = self.model.ledger.effort or effort
            self.ui(ui.Note, text=f"reasoning effort: {current or 'model default'} · /reasoning <value|off>")
            return
        value = None if arg == "off" else arg
        self.session.set_reasoning_effort(value)
        self.ui(ui.EffortChanged, effort=value)

    def _cmd_theme(self, arg: str) -> None:
        if arg not in self.available_themes:
            raise ValueError(f"no theme {arg!r}; themes: {', '.join(sorted(self.available_themes))}")
        self.theme = arg
        self.ui(ui.Note, text=f"theme {arg}")

    def _cmd_export(self, arg: str) -> None:
        session_id = str(getattr(self.session, "session_id", "session"))
        target = Path(arg).expanduser() if arg else Path.cwd() / f"mrsmith-{session_id[:8]}.md"
        transcript = getattr(self.session, "transcript_path", None)
        if transcript is not None:
            from mrsmith_tui.session.export import export_session

            written = export_session(transcript, target)
        else:
            written = target
            # A fresh name of our own (mkstemp: O_EXCL, 0600), not a guessable .tmp a link could sit at.
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(PROCESS.redact(review_text(self.model.conv.blocks)))
                os.replace(tmp, target)
            except OSError:
                os.unlink(tmp)
                raise
        self.ui(ui.Note, text=f"exported to {written}")

    def _cmd_sessions(self, arg: str) -> None:
        if self._resume is None or self._sessions_root is None:
            self.ui(ui.Note, text="/sessions: this screen cannot switch sessions", kind="warning")
            return
        from mrsmith_tui.session.store import list_sessions
        from mrsmith_tui.tui.screens.sessions_picker import SessionPicker

        sessions = list_sessions(self._sessions_root, cwd=Path(getattr(self.session, "cwd", Path.cwd())))
        if not sessions:
            self.ui(ui.Note, text=f"no sessions of this folder under {self._sessions_root}")
            return
        current = str(getattr(self.session, "session_id", "")) or None

        def picked(session_id: str | None) -> None:
            if session_id is not None:
                self._switch_session(session_id)

        self.push_screen(SessionPicker(sessions, current), picked)

    def _switch_session(self, session_id: str) -> None:
        if session_id == str(getattr(self.session, "session_id", "")):
            self.ui(ui.Note, text=f"already in session {session_id}")
            return
        if self.model.run.running:
            self.ui(ui.Note, text="/sessions waits for the run to end (Esc cancels it)", kind="warning")
            return
        old, old_sink, old_approver, old_generation = self.session, self.sink, self.approver, self._generation
        self.sink, self.approver = self._open_channel()
        try:
            # Built first: if the transcript cannot be read the old session stays as it was.
            new = self._resume(session_id, self.sink, self.approver)
        except Exception as e:  # noqa: BLE001 - SessionNotFound, ConfigError: one line
            self.sink.close()
            self.sink, self.approver, self._generation = old_sink, old_approver, old_generation
            self.ui(ui.Note, text=f"/sessions: {getattr(e, 'message', None) or e}", kind="error")
            return
        old_approver.cancel(main_only=False)
        old_approver.close()
        old_sink.close()
        # Dispatched now, so it lands before the replayed Msgs the sink has queued.
        self.ui(ui.SessionSwitched, session_id=str(getattr(new, "session_id", session_id)), **agent_fields(new.agent))
        self.session = new
        if old is not None:
            try:
                old.close()  # stops its background agents and closes its transcript
            except Exception:  # noqa: BLE001
                pass

    def _cmd_compact(self, arg: str) -> None:
        session = self.session
        if not hasattr(session, "compact"):
            self.ui(ui.Note, text="/compact is not available in this build", kind="warning")
            self.sink(ui.WorkerDone(at=self._clock()))
            return
        self._run_in_worker(lambda token: session.compact(token) or "compacted")

    # ----------------------------------------------------------------- events -> Msgs

    def on_prompt_area_send(self, event: PromptArea.Send) -> None:
        self.ui(ui.Submit, text=event.text)

    def on_prompt_area_recall(self, event: PromptArea.Recall) -> None:
        self.ui(ui.HistoryMove, step=event.step)

    def on_prompt_area_complete(self, event: PromptArea.Complete) -> None:
        self.ui(ui.AcceptCompletion)

    def on_prompt_area_open_request(self, event: PromptArea.OpenRequest) -> None:
        self.action_open_request()

    def action_open_request(self) -> None:
        self._moved_to_request = self.model.pending.head is not None and not self.model.pending.armed
        self.ui(ui.MoveToRequest)

    def on_text_area_changed(self, event: PromptArea.Changed) -> None:
        if isinstance(event.text_area, PromptArea):
            self._draft_in_widget = event.text_area.text
            self.ui(ui.DraftChanged, text=event.text_area.text)

    def on_block_clicked(self, event: BlockClicked) -> None:
        self.ui(ui.ToggleFold, key=event.key)

    def on_user_scrolled(self, event: UserScrolled) -> None:
        self.ui(ui.Scrolled, at_bottom=event.at_bottom)

    def on_conversation_key(self, event: ConversationKey) -> None:
        if event.action == "up":
            self.ui(ui.FocusMove, step=-1)
        elif event.action == "down":
            self.ui(ui.FocusMove, step=1)
        elif event.action == "fold":
            self.ui(ui.ToggleFold)
        elif event.action == "copy":
            self.ui(ui.CopyBlock)
        elif self.model.screen.agent_open is not None:
            self.ui(ui.CloseAgent)
        else:
            self.ui(ui.FocusMove, step=0)
            self.query_one(PromptArea).focus()

    def on_panel_key_pressed(self, event: PanelKeyPressed) -> None:
        self.ui(ui.PanelKey, action=event.action)

    def on_panel_row_clicked(self, event: PanelRowClicked) -> None:
        self.ui(ui.OpenAgent, agent_id=event.agent_id)

    def on_typed_away(self, event: TypedAway) -> None:
        """Typing on the panel or an agent's screen: back to the prompt, and the key goes with it."""
        if self.model.sidebar.selected is not None:
            self.ui(ui.PanelKey, action="leave")
        if self.model.screen.agent_open is not None:
            self.ui(ui.CloseAgent)
        prompt = self.query_one(PromptArea)
        prompt.focus()
        prompt.insert(event.character)

    def action_close_agent(self) -> None:
        self.ui(ui.CloseAgent)

    def action_stop_agent(self) -> None:
        self.ui(ui.StopAgentKey)

    def on_resize(self, event: Any) -> None:
        self.ui(ui.Resized, width=event.size.width, height=event.size.height)

    def action_interrupt(self) -> None:
        self.ui(ui.InterruptKey)

    def action_quit_key(self) -> None:
        self.ui(ui.QuitKey)

    def action_cancel(self) -> None:
        self.ui(ui.CancelKey)

    def action_review(self) -> None:
        self.ui(ui.ToggleReview)

    def action_sidebar(self) -> None:
        self.ui(ui.ToggleSidebar)

    def action_focus_move(self, step: int) -> None:
        if self._modal is not None and self.screen is self._modal:
            return
        self.ui(ui.FocusMove, step=step)
        agent_screen = self._agent_screen() if self.model.screen.agent_open else None
        if agent_screen is not None:
            agent_screen.conversation.focus()
        elif self.model.conv.focused is not None:
            self.query_one(ConversationView).focus()

    def action_page(self, step: int) -> None:
        if getattr(self.screen, "request_id", None) is not None:  # a request's modal: its diff or options
            self.screen.page(step)
            return
        agent_screen = self._agent_screen() if self.model.screen.agent_open else None
        if agent_screen is not None and self.screen is agent_screen:
            agent_screen.conversation.page(step)
            return
        if self.screen is not self.screen_stack[0]:
            return
        self.query_one(ConversationView).page(step)


def run_tui(make_session: Callable[[Any, Any], Any], *, config: Config, theme: str | None = None,
            history_path: Path | None = None, resume: ResumeFactory | None = None,
            sessions_root: Path | None = None) -> int:
    """Run the full-screen UI. `make_session(sink, approver)` builds the AgentSession;
    `resume(session_id, sink, approver)` builds one on a recorded session (for /sessions)."""
    _paint_sooner()
    app = MrSmithApp(make_session, config=config, theme=theme,
                     history_path=history_path if history_path is not None else default_history_path(),
                     resume=resume, sessions_root=sessions_root)
    result = app.run()
    return result if isinstance(result, int) else app.exit_code


def run_view(records: list[dict[str, Any]], *, config: Config, theme: str | None = None) -> int:
    """A recorded session, read-only (`mrsmith view ID`)."""
    from mrsmith_tui.session.resume import replay_msgs

    replay = list(replay_msgs(records))
    replay.append(m.Notice(text="read-only view of a recorded session · Ctrl-O review · Ctrl-D quit"))
    app = MrSmithApp(None, config=config, theme=theme, history_path=None, replay=replay)
    result = app.run()
    return result if isinstance(result, int) else 0
