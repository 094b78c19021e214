"""What the shell's glue needs from the app: a small protocol, so the glue never imports the app.

The app (tui/app.py) composes the glue (link, worker, painter, routes, effects, keys, commands'
context, welcome) and hands itself over as an `AppHost`; the glue reads and calls only what is
named here. So the imports point one way: app -> shell, never back. The parts of the glue the
others reach through the app are named by their own small protocols, not by their classes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from mrsmith_tui import msgs as m
    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.core.session_api import Session
    from mrsmith_tui.tui import model as ui
    from mrsmith_tui.tui.shell.pacing import Pace
    from mrsmith_tui.tui.view.prompt_box import PromptArea


class LinkPart(Protocol):
    read_only: bool
    resume: Any  # ResumeFactory | None
    pace: Pace  # the feeders wait for the screen's frames

    def switch(self, session_id: str) -> None: ...

    def when_ready(self, then: Callable[[], None]) -> bool: ...

    def forget_waiting(self) -> None: ...


class WorkerPart(Protocol):
    def start_run(self, prompt: str, *, literal: bool = False) -> None: ...

    def run_job(self, job: Callable[[CancelToken], str | None]) -> None: ...

    def cancel(self) -> None: ...


class PainterPart(Protocol):
    draft_in_widget: str

    def request(self) -> None: ...

    def wake_up_at(self, at: float) -> None: ...


class RoutesPart(Protocol):
    def sync(self, model: ui.Model) -> None: ...


class ApproverPart(Protocol):
    def resolve(self, request_id: str, answer: str) -> None: ...

    def cancel(self, *, main_only: bool = True) -> list[str]: ...


class AppHost(Protocol):
    # the app's own (the model and the theme are set by the glue, the rest only read)
    model: ui.Model
    theme: str
    prompt_area: PromptArea | None  # the main screen's editor: mounted after the first frame; none in `mrsmith view`

    @property
    def clock(self) -> Callable[[], float]: ...

    @property
    def history_path(self) -> Path | None: ...

    @property
    def theme_path(self) -> Path | None: ...

    @property
    def link(self) -> LinkPart: ...

    @property
    def worker(self) -> WorkerPart: ...

    @property
    def painter(self) -> PainterPart: ...

    @property
    def routes(self) -> RoutesPart: ...

    @property
    def command_context(self) -> Any: ...

    @property
    def session(self) -> Session | None: ...

    @property
    def sink(self) -> Callable[[m.Msg], None]: ...

    @property
    def approver(self) -> ApproverPart: ...

    def dispatch(self, msg: m.Msg) -> None: ...

    def ui(self, cls: type[m.Msg], **fields: Any) -> None: ...

    def start_session(self) -> None: ...

    def quit(self) -> None: ...

    # Textual's App, as far as the glue uses it
    @property
    def available_themes(self) -> Any: ...

    @property
    def theme_variables(self) -> Any: ...

    @property
    def theme_changed_signal(self) -> Any: ...

    @property
    def console(self) -> Any: ...

    @property
    def screen_stack(self) -> Any: ...

    @property
    def no_color(self) -> bool: ...

    @property
    def screen(self) -> Any: ...

    @property
    def is_running(self) -> bool: ...

    def query_one(self, *args: Any, **kwargs: Any) -> Any: ...

    def push_screen(self, *args: Any, **kwargs: Any) -> Any: ...

    def exit(self, *args: Any, **kwargs: Any) -> Any: ...

    def post_message(self, *args: Any, **kwargs: Any) -> Any: ...

    def call_later(self, *args: Any, **kwargs: Any) -> Any: ...

    def call_after_refresh(self, *args: Any, **kwargs: Any) -> Any: ...

    def set_timer(self, *args: Any, **kwargs: Any) -> Any: ...

    def set_interval(self, *args: Any, **kwargs: Any) -> Any: ...

    def run_worker(self, *args: Any, **kwargs: Any) -> Any: ...

    def notify(self, *args: Any, **kwargs: Any) -> Any: ...

    def copy_to_clipboard(self, *args: Any, **kwargs: Any) -> Any: ...

    def suspend(self) -> Any: ...  # Ctrl-G's editor takes the terminal (shell/editor.py)

    def register_theme(self, *args: Any, **kwargs: Any) -> Any: ...
