"""Which screens are up follows the model: an agent's own screen, the armed request's modal, the
review. Each is pushed when the model asks for it and dismissed when it no longer does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.view.blocks import review_text

if TYPE_CHECKING:
    from mrsmith_tui.tui.screens.agent_screen import AgentScreen
    from mrsmith_tui.tui.screens.modals import RequestModal
    from mrsmith_tui.tui.shell.host import AppHost


class ScreenRoutes:
    def __init__(self, app: AppHost) -> None:
        self._app = app
        self.modal: RequestModal | None = None  # the request's modal on screen
        self.moved_to_request = False  # Tab / F2: the person asked for the request, over any other screen
        self._review_open = False
        self._agent_shown = False

    def sync(self, model: ui.Model) -> None:
        self._sync_agent_screen(model)
        self._sync_modal(model)
        self._sync_review(model)

    def agent_screen(self) -> AgentScreen | None:
        from mrsmith_tui.tui.screens.agent_screen import AgentScreen

        return next((s for s in self._app.screen_stack if isinstance(s, AgentScreen)), None)

    def _sync_agent_screen(self, model: ui.Model) -> None:
        wanted = model.screen.agent_open
        shown = self.agent_screen() if (wanted or self._agent_shown) else None
        if shown is not None and shown.agent_id != wanted:
            shown.dismiss(None)
            shown = None
        self._agent_shown = wanted is not None
        if wanted is None:
            return
        row = next((r for r in model.sidebar.agents if r.agent_id == wanted), None)
        if shown is None:
            from mrsmith_tui.tui.screens.agent_screen import AgentScreen

            self._app.push_screen(AgentScreen(wanted))
            self._app.call_after_refresh(self._app.painter.request)  # draw it once it is mounted
            return
        shown.show(model.agent_convs.get(wanted), row, model.now)

    def _sync_modal(self, model: ui.Model) -> None:
        app = self._app
        head = model.pending.head if model.pending.armed else None
        current = self.modal
        if current is not None and (head is None or head != current.req):  # another request, or one replaced under its id
            self.modal = None
            if current.is_attached and current in app.screen_stack:
                current.dismiss(None)
        if head is not None and self.modal is None:
            asked, self.moved_to_request = self.moved_to_request, False
            prompt = app.prompt_area
            if not model.input.draft and prompt is not None and prompt.text:
                # Armed on an empty prompt, but a key typed just before has not reached update yet
                # (its DraftChanged is still queued): the prompt holds text, so the request waits.
                app.painter.draft_in_widget = prompt.text
                app.dispatch(ui.TypedIntoPrompt(text=prompt.text, at=app.clock()))
                return
            if not asked and self._keyboard_elsewhere():
                app.dispatch(ui.KeyboardElsewhere(at=app.clock()))
                return
            from mrsmith_tui.tui.screens.modals import modal_for  # lazily: start-up time

            modal = modal_for(head)
            self.modal = modal
            app.push_screen(modal)
        if self.modal is not None and head is not None:
            self.modal.confirming_always(model.pending.confirm_always, rule=model.pending.confirm_rule)
            self.modal.explaining(model.pending.explaining)

    def _keyboard_elsewhere(self) -> bool:
        """Another screen has the keyboard (the review and its search, the palette, a dialog): a request
        arriving now would take keys typed there. An agent's own screen sends typing to the prompt."""
        from mrsmith_tui.tui.screens.agent_screen import AgentScreen
        from mrsmith_tui.tui.screens.modals import RequestModal

        top = self._app.screen
        return top is not self._app.screen_stack[0] and not isinstance(top, (AgentScreen, RequestModal))  # one closing

    def _sync_review(self, model: ui.Model) -> None:
        if model.screen.review and not self._review_open:
            from mrsmith_tui.tui.screens.review import ReviewScreen

            self._review_open = True

            def closed(_: Any) -> None:
                self._review_open = False
                self._app.ui(ui.ToggleReview, open=False)

            shown = model.agent_convs.get(model.screen.agent_open or "") if model.screen.agent_open else None
            self._app.push_screen(ReviewScreen(review_text((shown or model.conv).blocks)), closed)
        elif not model.screen.review and self._review_open:
            from mrsmith_tui.tui.screens.review import ReviewScreen

            screen = self._app.screen
            if isinstance(screen, ReviewScreen):
                screen.dismiss(None)
