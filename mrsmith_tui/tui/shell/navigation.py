"""Moving about the screen: the conversation's own keys, typing away from a panel, block focus
(Alt-Up/Down) and paging (PageUp/PageDown), over the app as an AppHost (the app's handlers call these)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.view.chat_view import ConversationView

if TYPE_CHECKING:
    from mrsmith_tui.tui.shell.host import AppHost
    from mrsmith_tui.tui.shell.screen_routes import ScreenRoutes


def cancel_key(app: AppHost) -> None:
    """Esc: cancel (a run, a focus, the review); in `mrsmith view`, with nothing to cancel, leave as a pager does."""
    if app.link.read_only and app.screen is app.screen_stack[0]:
        app.exit(0)
    else:
        app.ui(ui.CancelKey)


def conversation_key(app: AppHost, action: str) -> None:
    if action in ("quit", "escape") and app.link.read_only:  # q or Esc in `mrsmith view`: leave, as a pager
        app.exit(0)
    elif action == "quit":
        return
    elif action == "up":
        app.ui(ui.FocusMove, step=-1)
    elif action == "down":
        app.ui(ui.FocusMove, step=1)
    elif action == "fold":
        app.ui(ui.ToggleFold)
    elif action == "copy":
        app.ui(ui.CopyBlock)
    elif app.model.screen.agent_open is not None:
        app.ui(ui.CloseAgent)
    else:
        app.ui(ui.FocusMove, step=0)
        if app.prompt_area is not None:  # none in `mrsmith view`
            app.prompt_area.focus()


def typed_away(app: AppHost, character: str, send: bool) -> None:
    """Typing on the panel or an agent's screen: back to the prompt, and the key goes with it."""
    if app.model.sidebar.selected is not None:
        app.ui(ui.PanelKey, action="leave")
    if app.model.screen.agent_open is not None:
        app.ui(ui.CloseAgent)
    prompt = app.prompt_area
    if prompt is None:  # not mounted yet: this is the first frame
        return
    prompt.focus()
    if send:
        prompt.post_message(prompt.Send(prompt.text))
    elif character == "\b":
        prompt.action_delete_left()
    else:
        prompt.insert(character)


def focus_move(app: AppHost, routes: ScreenRoutes, step: int) -> None:
    if routes.modal is not None and app.screen is routes.modal:
        return
    app.ui(ui.FocusMove, step=step)
    agent_screen = routes.agent_screen() if app.model.screen.agent_open else None
    if agent_screen is not None:
        agent_screen.conversation.focus()
    elif app.model.conv.focused is not None:
        app.query_one(ConversationView).focus()


def page(app: AppHost, routes: ScreenRoutes, step: int) -> None:
    screen: Any = app.screen
    if getattr(screen, "request_id", None) is not None:  # a request's modal: its diff or options
        screen.page(step)
        return
    agent_screen = routes.agent_screen() if app.model.screen.agent_open else None
    if agent_screen is not None and screen is agent_screen:
        agent_screen.conversation.page(step)
        return
    if screen is not app.screen_stack[0]:
        return
    app.query_one(ConversationView).page(step)
