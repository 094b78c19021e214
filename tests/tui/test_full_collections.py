"""While a turn runs, Python's full collections are rarer (issue #26: one paused the screen
for 15-70 ms in the middle of a stream); the young generations collect as before, and once the run
is over everything is collected and the usual threshold is back."""

from __future__ import annotations

import gc
import threading

from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.shell.worker import FULL_EVERY, HELD
from tests.tui.fakes import CONFIG, factory, hold_until
from tests.tui.pilot import until


async def test_the_full_collection_waits_while_a_run_goes_and_comes_back_when_it_ends():
    before = gc.get_threshold()
    release, inside = threading.Event(), threading.Event()
    app = MrSmithApp(factory([[lambda s, c: inside.set(), hold_until(release)]]), config=CONFIG, history_path=None)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.session is not None)
            await pilot.press(*"go", "enter")
            await until(pilot, inside.is_set)
            assert gc.get_threshold() == (before[0], before[1], HELD)
            release.set()
            await until(pilot, lambda: not app.model.run.running and gc.get_threshold()[2] == FULL_EVERY)
            assert gc.get_threshold()[:2] == before[:2]
    finally:
        release.set()
        gc.set_threshold(*before)
