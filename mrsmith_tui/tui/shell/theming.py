"""The app's theme: chosen before the stylesheet is first parsed, and carried into Rich's Markdown
(finished answers) whenever it changes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.theme import Theme as RichTheme

from mrsmith_tui.tui.themes import load_themes_with_warnings, markdown_styles, pick_theme
from mrsmith_tui.tui.view.chat_view import ConversationView

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App


def choose_theme(app: App[Any], wanted: str | None, user_dir: Path | None = None) -> tuple[str, ...]:
    """In the app's __init__: setting the theme in on_mount parsed the whole stylesheet a second time
    before the first frame. Returns the warnings to show at start: each theme file skipped (and why),
    then a wanted theme not found."""
    themes, warnings = load_themes_with_warnings(user_dir)
    for theme in themes:
        app.register_theme(theme)
    name, warning = pick_theme(wanted, no_color=app.no_color, available=set(app.available_themes))
    if name:
        _set_before_start(app, name)
    else:  # Textual's default theme, whose variables the app's __init__ left to this (MrSmithApp.get_css_variables)
        app.stylesheet.set_variables(app.get_css_variables())
    return (*warnings, warning) if warning else tuple(warnings)


def _set_before_start(app: App[Any], name: str) -> None:
    """`app.theme = name` without its watcher: nothing is parsed yet, and the first parse reads this
    theme's variables; the watcher's refresh would parse the whole stylesheet twice more before the
    first frame (~10 ms of start-up, #26). What else the watcher does is done here."""
    from textual.app import App

    app.set_reactive(App.theme, name)
    app.stylesheet.set_variables(app.get_css_variables())
    dark = app.current_theme.dark
    app.update_classes({f"-theme-{name}": True, "-dark-mode": dark, "-light-mode": not dark}, update=False)
    app._refresh_truecolor_filter(app.ansi_theme)


class MarkdownTheme:
    """Finished answers are Rich Markdown: Rich gets the theme's colours (kept on one stacked theme)."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._pushed = False

    def follow(self) -> None:
        """Style now, and again each time the theme changes."""
        self._style()
        self._app.theme_changed_signal.subscribe(self._app, lambda _theme: self._restyle())

    def _restyle(self) -> None:
        self._style()
        for screen in self._app.screen_stack:
            for view in screen.query(ConversationView):
                view.restyle()

    def _style(self) -> None:
        if self._pushed:
            self._app.console.pop_theme()
        self._app.console.push_theme(RichTheme(markdown_styles(self._app.theme_variables)))
        self._pushed = True
