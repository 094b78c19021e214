"""The app: composes the screen and runs the loop.

Textual events and the workers' Msgs become Msgs for `update` (update/); the effects it returns are
carried out by the shell (shell/effect_runner.py); the painter draws the model once per batch of
Msgs (shell/painter.py) and the screen routes push or dismiss the other screens (shell/screen_routes.py).
The session and its channel are the link's (shell/link.py); /commands live in commands/.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Static

from mrsmith_tui import msgs as m
from mrsmith_tui.config.load import resolve_agent
from mrsmith_tui.core.outbound import OutboundFilter
from mrsmith_tui.records import replace
from mrsmith_tui.security.redact import PROCESS, map_strings
from mrsmith_tui.security.terminal_text import clean
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands import REGISTRY, run_command
from mrsmith_tui.tui.model import agent_fields
from mrsmith_tui.tui.shell import navigation
from mrsmith_tui.tui.shell.attention import Attention
from mrsmith_tui.tui.shell.bridge import CoalescingSink, TuiApprover
from mrsmith_tui.tui.shell.command_context import ShellCommandContext
from mrsmith_tui.tui.shell.custom_loader import palette_commands, start_custom_commands
from mrsmith_tui.tui.shell.early_input import after_early_keys, keep_early_input, mount_editor, prompt_text
from mrsmith_tui.tui.shell.effect_runner import carry_out
from mrsmith_tui.tui.shell.history_file import default_history_path, load_history
from mrsmith_tui.tui.shell.key_first import KeyFirstScreen
from mrsmith_tui.tui.shell.link import Dispatch, ResumeFactory, SessionComposed, SessionFactory, SessionLink
from mrsmith_tui.tui.shell.painter import Painter, paint_sooner
from mrsmith_tui.tui.shell.request_keys import key_at, take_request_key
from mrsmith_tui.tui.shell.screen_routes import ScreenRoutes
from mrsmith_tui.tui.shell.textual_memory import keep_no_dead_widgets
from mrsmith_tui.tui.shell.theme_file import default_theme_path, load_theme
from mrsmith_tui.tui.shell.theming import MarkdownTheme, choose_theme
from mrsmith_tui.tui.shell.welcome import start_welcome
from mrsmith_tui.tui.shell.worker import RunWorker, settle_memory
from mrsmith_tui.tui.update import initial_model, update
from mrsmith_tui.tui.view.chat_view import BlockClicked, ConversationKey, ConversationView, UserScrolled
from mrsmith_tui.tui.view.prompt_stand_in import PromptStandIn
from mrsmith_tui.tui.view.sidebar import PanelKeyPressed, PanelRowClicked, SidebarView, TypedAway
from mrsmith_tui.tui.view.status import StatusBar

if TYPE_CHECKING:  # what the first frame does not need is imported when used (start-up time, #26)
    from mrsmith_tui.config.schema import Config
    from mrsmith_tui.core.session_api import Session
    from mrsmith_tui.tui.view.prompt_box import PromptArea

# ui.* Msgs the app makes whose text is shown as is (key and scroll events are left alone)
_SHOWN_AS_TEXT = (ui.Note, ui.AgentSwitched, m.Error, m.Warning)


class MrSmithApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "mrsmith"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", "cancel / quit", show=False, priority=True),
        Binding("ctrl+d", "quit_key", "quit", show=False, priority=True),
        Binding("ctrl+o", "review", "review", show=False, priority=True),
        Binding("ctrl+b", "sidebar", "sidebar", show=False, priority=True),
        Binding("f2", "open_request", "answer the waiting request", show=False, priority=True),
        Binding("f1", "help", "help", show=False, priority=True),
        Binding("ctrl+t", "resume_last", "resume the last session", show=False, priority=True),
        Binding("escape", "cancel", "cancel run", show=False),
        Binding("alt+up", "focus_move(-1)", "previous block", show=False, priority=True),
        Binding("alt+down", "focus_move(1)", "next block", show=False, priority=True),
        Binding("pageup", "page(-1)", "page up", show=False, priority=True),
        Binding("pagedown", "page(1)", "page down", show=False, priority=True),
        Binding("shift+tab", "cycle_mode", "permission mode", show=False, priority=True),  # block focus: Alt-Up/Down
    ]

    def __init__(self, make_session: SessionFactory | None, *, config: Config | None = None, theme: str | None = None,
                 history_path: Path | None = None, replay: Iterable[m.Msg] = (), clock: Callable[[], float] = time.time,
                 resume: ResumeFactory | None = None, sessions_root: Path | None = None,
                 theme_path: Path | None = None, welcome: bool = True, pick_session: bool = False,
                 first_frame: Callable[[], None] = lambda: None, **kwargs: Any) -> None:
        self._themed = False  # until choose_theme (get_css_variables)
        super().__init__(**kwargs)
        keep_no_dead_widgets()  # removed blocks' rendered lines are freed (shell/textual_memory.py)
        self.animation_level = "none"
        if config is None:
            from mrsmith_tui.config.schema import Config

            config = Config()
        self.clock = clock
        self.history_path = history_path
        self._replay = list(replay)
        self.exit_code = 0
        self.link = SessionLink(self, make_session, resume)
        self.worker = RunWorker(self)
        self.painter = Painter(self)
        self.attention = Attention(self, config)  # the bell and desktop notifications (shell/attention.py)
        self.routes = ScreenRoutes(self)
        self.command_context = ShellCommandContext(self, config, sessions_root)
        self._config, self._sessions_root = config, sessions_root
        self._welcome = welcome  # gather the welcome (tests with a frozen screen leave it out)
        self._pick_session = pick_session  # `--resume` without an id: the /sessions picker once started
        self._first_frame = first_frame  # the program's own start: garbage collection resumes (cli.startup_gc)
        self.prompt_area: PromptArea | None = None  # the main screen's editor, once mounted (after the first frame)
        self.model = self._initial_model(config)
        self._markdown = MarkdownTheme(self)
        self.theme_path = theme_path  # where /theme keeps the chosen theme (None: not kept)
        self._themed = True
        self._theme_warnings = choose_theme(self, theme or load_theme(theme_path))

    @property
    def session(self) -> Session | None:
        return self.link.session

    @property
    def sink(self) -> CoalescingSink:
        return self.link.sink

    @property
    def approver(self) -> TuiApprover:
        return self.link.approver

    # ----------------------------------------------------------------- composing and starting

    def _initial_model(self, config: Config) -> ui.Model:
        agent = resolve_agent(config, None) if config.agents else None
        fields = map_strings(agent_fields(agent), clean) if agent else {}  # names from a config file are shown
        return initial_model(**fields, history=load_history(self.history_path), mode=config.default_mode,
                             agents=tuple(clean(a.name) for a in config.agents),
                             models=tuple(sorted({clean(a.model) for a in config.agents})))

    def get_css_variables(self) -> dict[str, str]:
        # None in Textual's __init__: it builds them for its default theme, and choose_theme replaces them at once
        # with the chosen theme's (~1 ms of start-up, #26).
        return super().get_css_variables() if self._themed else {}

    def get_default_screen(self) -> Screen[Any]:
        # Nothing takes the focus as the screen is composed: the prompt's editor takes it once mounted, after
        # the first frame (keys meanwhile: shell/early_input.py). Textual's own choice would be the conversation,
        # and each move restyles the widgets it leaves and enters (~3 ms of the first frame, #26).
        screen = KeyFirstScreen(id="_default")  # a key is painted before a pending layout (shell/key_first.py)
        screen.AUTO_FOCUS = "#conversation" if self.link.read_only else ""  # type: ignore[misc]  # this one screen's
        return screen

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield ConversationView(id="conversation")
            yield SidebarView(id="sidebar")
        yield Static("", id="note")
        if not self.link.read_only:  # `mrsmith view`: nothing to send, so no prompt
            yield PromptStandIn(id="prompt-stand-in")  # the editor replaces it after the first frame
        yield StatusBar(id="status")

    def on_mount(self) -> None:
        for warning in self._theme_warnings:  # start-up warnings: toasts, kept for /help
            self.ui(m.Warning, text=warning, code="theme")
        self._markdown.follow()
        self.model = replace(self.model, themes_known=tuple(sorted(self.available_themes)))
        if self.link.read_only:
            self.query_one(ConversationView).focus()
        else:
            keep_early_input(self)  # the keys typed before the prompt's editor is mounted
        self.ui(ui.Resized, width=self.size.width, height=self.size.height)
        outbound = OutboundFilter()
        for msg in self._replay:  # a recorded session: its text is as untrusted as a live one's
            for shown in outbound(msg):
                self.dispatch(shown)
        self.painter.request()
        # The welcome, the custom commands and the session (provider, tools, skills) are gathered and
        # composed in threads once the first frame is on screen (their CPU held it up, #26), after the prompt's
        # editor; keys typed before it are kept for it, and a prompt sent before the session is ready waits.
        self.call_after_refresh(self._after_first_frame)

    async def _after_first_frame(self) -> None:
        self._first_frame()
        await mount_editor(self)  # none in `mrsmith view`
        if self._welcome and not self.link.read_only:
            start_welcome(self, self._config, self._sessions_root)
        start_custom_commands(self)
        self.start_session()

    def start_session(self) -> None:
        self.link.start()
        if self._pick_session:  # `--resume` without an id: the picker, once the session is composed
            self._pick_session = False
            if not self.link.when_ready(self._open_session_picker):
                self._open_session_picker()

    def _open_session_picker(self) -> None:
        if self.session is not None:
            run_command(REGISTRY, self.command_context, "/sessions", "")

    def on_session_composed(self, event: SessionComposed) -> None:
        self.link.composed(event)
        self.painter.request()
        self.call_after_refresh(settle_memory, self)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        # Textual's own "Theme" entry is left out: /theme picks one and keeps it for the next start.
        yield from (c for c in super().get_system_commands(screen) if c.title != "Theme")
        for command in REGISTRY:
            if command.needs_argument:
                continue  # type it in the prompt
            yield SystemCommand(command.name, escape(command.help_line),  # "[path]" is not markup
                                lambda name=command.name: self.ui(ui.Submit, text=name))
        yield from palette_commands(self.model, lambda name: self.ui(ui.Submit, text=name))  # custom, with whose
        yield SystemCommand("Review", "the whole conversation unfolded (Ctrl-O)", self.action_review)
        yield SystemCommand("Toggle sidebar", "tasks and agents (Ctrl-B)", self.action_sidebar)

    # ----------------------------------------------------------------- the loop

    def on_dispatch(self, event: Dispatch) -> None:
        if self.link.is_current(event):
            for msg in event.msgs:
                self.dispatch(msg)

    def dispatch(self, msg: m.Msg) -> None:
        if isinstance(msg, ui.WorkerDone):
            self.call_after_refresh(settle_memory, self)
        self.attention.saw(self.model, msg)  # a long run ended, a request waits: the bell (shell/attention.py)
        self.model, effects = update(self.model, msg)
        for effect in effects:
            carry_out(self, effect)
        self.painter.request()

    def ui(self, cls: type[m.Msg], **fields: Any) -> None:
        if cls in _SHOWN_AS_TEXT:  # notes and errors can quote a path, an agent's name, an exception
            fields = {k: clean(PROCESS.redact(v)) if isinstance(v, str) else v for k, v in fields.items()}
        self.dispatch(cls(at=self.clock(), **fields))

    # ----------------------------------------------------------------- events -> Msgs

    def on_prompt_area_send(self, event: PromptArea.Send) -> None:
        text = event.text
        if text == self.painter.draft_in_widget != self.model.input.draft:
            text = self.model.input.draft  # Up (or Tab) and Enter in one burst: the recalled prompt, not yet painted in
        self.ui(ui.Submit, text=text)

    def on_prompt_area_recall(self, event: PromptArea.Recall) -> None:
        self.ui(ui.HistoryMove, step=event.step)

    def on_prompt_area_complete(self, event: PromptArea.Complete) -> None:
        pending = self.model.pending
        if not self.model.input.completions and pending.head is not None and not pending.armed:
            self.action_open_request()  # Tab with nothing to complete: to the request waiting behind the text
        else:
            self.ui(ui.AcceptCompletion)

    def on_prompt_area_jump_to_end(self, event: PromptArea.JumpToEnd) -> None:
        self.ui(ui.JumpToEnd)

    def on_prompt_area_say(self, event: PromptArea.Say) -> None:  # Ctrl-G, Ctrl-R (tui/update/prompt_keys.py)
        self.ui(event.cls, **event.fields)

    def on_text_area_changed(self, event: PromptArea.Changed) -> None:
        if event.text_area is self.prompt_area:
            self.painter.draft_in_widget = event.text_area.text
            self.ui(ui.DraftChanged, text=event.text_area.text)

    def on_block_clicked(self, event: BlockClicked) -> None:
        self.ui(ui.ToggleFold, key=event.key)

    def on_user_scrolled(self, event: UserScrolled) -> None:
        self.ui(ui.Scrolled, at_bottom=event.at_bottom)

    def on_conversation_key(self, event: ConversationKey) -> None:
        navigation.conversation_key(self, event.action)

    def on_panel_key_pressed(self, event: PanelKeyPressed) -> None:
        self.ui(ui.PanelKey, action=event.action)

    def on_panel_row_clicked(self, event: PanelRowClicked) -> None:
        self.ui(ui.OpenAgent, agent_id=event.agent_id)

    def on_typed_away(self, event: TypedAway) -> None:
        navigation.typed_away(self, event.character, event.send)

    def on_resize(self, event: events.Resize) -> None:
        self.ui(ui.Resized, width=event.size.width, height=event.size.height)

    def on_request_modal_shown(self, event: Any) -> None:
        """The modal is painted: its grace starts now."""
        if event.modal is not self.routes.modal:  # one already dismissed
            return
        self.dispatch(ui.RequestShown(request_id=event.request_id, at=self.clock()))

    def on_request_modal_answered(self, event: Any) -> None:
        if event.modal is not self.routes.modal:
            return
        self.dispatch(ui.Answer(request_id=event.request_id, answer=event.answer, at=key_at(self, event.key_time)))

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            self.link.pace.key()  # its frame goes first: the threads feeding the screen wait (shell/pacing.py)
            if isinstance(self.screen, KeyFirstScreen):
                self.screen.key_waiting = True
        if take_request_key(self, event):  # keys reaching a request's modal: answers, or typing
            return
        await super().on_event(event)

    # ----------------------------------------------------------------- actions (key bindings)

    def action_open_request(self) -> None:
        self.routes.moved_to_request = self.model.pending.head is not None and not self.model.pending.armed
        self.ui(ui.MoveToRequest)

    def action_close_agent(self) -> None:
        self.ui(ui.CloseAgent)

    def action_stop_agent(self) -> None:
        self.ui(ui.StopAgentKey)

    def action_interrupt(self) -> None:
        self.ui(ui.InterruptKey)

    def action_quit_key(self) -> None:
        if after_early_keys(self, self.action_quit_key):
            return
        typed, after_cursor = prompt_text(self)
        self.ui(ui.QuitKey, typed=typed, after_cursor=after_cursor)

    def action_cancel(self) -> None:
        navigation.cancel_key(self)

    def action_help(self) -> None:
        if self.screen is self.screen_stack[0]:
            self.ui(ui.Submit, text="/help")

    def action_resume_last(self) -> None:
        if self.screen is self.screen_stack[0]:
            self.ui(ui.ResumeLast)

    def action_review(self) -> None:
        self.ui(ui.ToggleReview)

    def action_sidebar(self) -> None:
        self.ui(ui.ToggleSidebar)

    def on_app_focus(self, event: events.AppFocus) -> None:  # focus reporting: no notification while focused
        self.attention.focus(True)

    def on_app_blur(self, event: events.AppBlur) -> None:
        self.attention.focus(False)

    def action_cycle_mode(self) -> None:
        self.ui(ui.CycleMode)

    def action_focus_move(self, step: int) -> None:
        navigation.focus_move(self, self.routes, step)

    def action_page(self, step: int) -> None:
        navigation.page(self, self.routes, step)

    async def action_quit(self) -> None:
        self.quit()

    def quit(self) -> None:
        self.worker.cancel()
        self.approver.cancel(main_only=False)
        self.exit(self.exit_code)

    def on_unmount(self) -> None:
        self.worker.cancel()
        self.link.close()


def run_tui(make_session: SessionFactory, *, config: Config, theme: str | None = None,
            history_path: Path | None = None, resume: ResumeFactory | None = None,
            sessions_root: Path | None = None, pick_session: bool = False,
            first_frame: Callable[[], None] = lambda: None) -> int:
    """Run the full-screen UI. `make_session(sink, approver)` builds the session;
    `resume(session_id, sink, approver)` builds one on a recorded session (for /sessions);
    `first_frame()` is called once the first frame is on screen."""
    paint_sooner()
    app = MrSmithApp(make_session, config=config, theme=theme,
                     history_path=history_path if history_path is not None else default_history_path(),
                     resume=resume, sessions_root=sessions_root, theme_path=default_theme_path(),
                     pick_session=pick_session, first_frame=first_frame)
    result = app.run()
    return result if isinstance(result, int) else app.exit_code


def run_view(records: list[m.Msg], *, config: Config, theme: str | None = None) -> int:
    """A recorded session (its transcript's Msgs), read-only (`mrsmith view ID`)."""
    from mrsmith_tui.session.replay import for_screen

    replay = for_screen(records)
    replay.append(m.Notice(text="read-only view of a recorded session · Ctrl-O review · q, Esc or Ctrl-D quit"))
    app = MrSmithApp(None, config=config, theme=theme, history_path=None, replay=replay)
    result = app.run()
    return result if isinstance(result, int) else 0
