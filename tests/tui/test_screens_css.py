"""The other screens' rules (tui/screens.tcss) are read when the first of them opens, not parsed before
the first frame (start-up, #26), and then apply as the app's own rules did, across a theme change too."""

from __future__ import annotations

from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.screen_css import SCREENS_TCSS
from mrsmith_tui.tui.screens.theme_picker import ThemePicker
from tests.tui.fakes import CONFIG, factory
from tests.tui.pilot import until


def _read(app: MrSmithApp) -> bool:
    return app.stylesheet.has_source(str(SCREENS_TCSS), "")


async def test_the_screens_rules_are_read_when_one_opens_and_apply_across_a_theme_change():
    app = MrSmithApp(factory(), config=CONFIG, history_path=None, welcome=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.session is not None)
        assert not _read(app)
        picker = ThemePicker(sorted(app.available_themes), app.theme)
        app.push_screen(picker)
        await until(pilot, lambda: app.screen is picker and bool(picker.query(".dialog")))
        assert _read(app)
        dialog = picker.query_one(".dialog")
        assert (picker.styles.align_horizontal, dialog.styles.max_width.value) == ("center", 140)  # screens.tcss
        app.theme = "textual-light"
        await pilot.pause(0.05)
        assert (picker.styles.align_horizontal, dialog.styles.max_width.value) == ("center", 140)
