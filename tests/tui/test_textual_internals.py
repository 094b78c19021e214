"""The Textual internals the key path leans on are the ones it was written against.

shell/key_first.py re-does part of `Screen._on_timer_update`, view/stream_layout.py reads what
`Screen._on_layout` files in `_layout_widgets`, view/no_echo.py and the conversation override
`Widget._size_updated`; shell/early_input.py keeps the keys that `App.on_event` hands the screen
(`Screen._forward_event`) while nothing has the focus (`Screen.set_focus`) and forwards them to the
editor as Textual does (`Widget._forward_event`). A Textual release that changed one of them could lose a paint with no error
(a renamed `_layout_widgets` is read through getattr): this test fails first. When it does, read the
new code against those modules, then record the new fingerprint here.
"""

from __future__ import annotations

import hashlib
import inspect

import pytest
from textual._compositor import Compositor
from textual.app import App
from textual.layouts.stream import StreamLayout
from textual.screen import Screen
from textual.widget import Widget

from mrsmith_tui.tui.shell.key_first import KeyFirstScreen

CHECKED = {  # the first 16 hex digits of each source's SHA-256, as in Textual 8.2.8
    "Screen._on_timer_update": "421401660de142c5",
    "Screen._on_layout": "55209a37fad6f883",
    "Screen._refresh_layout": "889715478130b7e0",
    "Screen._compositor_refresh": "7a40efe563816a06",
    "Widget._size_updated": "21ffb00b8a983315",
    "Compositor.update_widgets": "86c02b2f8d6d93dd",
    "StreamLayout.arrange": "1477848c41a02041",
    "Screen._forward_event": "edd1065a4a2daca2",
    "Screen.set_focus": "56cfb5778970531a",
    "Widget._forward_event": "66c264581d9b4642",
    "App.on_event": "3dbf14d694916fe3",
}
FUNCTIONS = {f.__qualname__: f for f in (Screen._on_timer_update, Screen._on_layout, Screen._refresh_layout,
                                        Screen._compositor_refresh, Widget._size_updated, Compositor.update_widgets,
                                        StreamLayout.arrange, Screen._forward_event, Screen.set_focus,
                                        Widget._forward_event, App.on_event)}


@pytest.mark.parametrize("name", sorted(CHECKED))
def test_the_textual_code_the_key_path_overrides_is_the_code_it_was_checked_against(name):
    digest = hashlib.sha256(inspect.getsource(FUNCTIONS[name]).encode()).hexdigest()[:16]
    assert digest == CHECKED[name], (
        f"Textual changed {name}: check shell/key_first.py, shell/early_input.py, view/stream_layout.py and view/no_echo.py "
        f"against it, then record {digest}")


async def test_the_screen_state_the_key_path_reads_is_there():
    class Host(App[None]):
        def get_default_screen(self) -> Screen:
            return KeyFirstScreen(id="_default")

    app = Host()
    async with app.run_test(size=(80, 24)):
        screen = app.screen
        assert isinstance(screen, KeyFirstScreen)
        for name in ("_layout_widgets", "_dirty_widgets", "_layout_required", "_repaint_required",
                     "_scroll_required", "_compositor", "_update_timer"):
            assert hasattr(screen, name), name
        assert isinstance(screen._layout_widgets, dict) and isinstance(screen._dirty_widgets, set)
        assert "layout" in inspect.signature(Widget._size_updated).parameters
