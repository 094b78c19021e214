"""The rules of the screens other than the main one (modals, pickers, review, an agent's screen):
tui/screens.tcss, read into the app's stylesheet when the first of these screens is registered, not
parsed before every first frame (~2 ms of start-up, #26).

They are still the app's own rules (as app.tcss's, not a widget's DEFAULT_CSS) and come after
app.tcss's, as when they were its end: the same rules win. Only this source is parsed then (Textual
keeps the other sources' parses). A screen's own CSS_PATH is read otherwise: every source parsed again
from scratch and the whole app restyled, at the first modal.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    _Base = Widget
else:
    _Base = object

SCREENS_TCSS = Path(__file__).resolve().parent.parent / "screens.tcss"


def read_screens_css(app: App[Any]) -> None:
    where = (str(SCREENS_TCSS), "")  # as Textual names a CSS file's source
    if not app.stylesheet.has_source(*where):
        # add_source, not read: read leaves the selector map of the rules parsed so far in place.
        app.stylesheet.add_source(SCREENS_TCSS.read_text(encoding="utf-8"), read_from=where)


class ScreensCss(_Base):
    """For the screens whose rules are in screens.tcss: read before the screen is first styled."""

    def _post_register(self, app: App[Any]) -> None:
        read_screens_css(app)
        super()._post_register(app)
