"""Objects frozen by a settle that die later (block views leaving the screen: cycles) do not stay in the
permanent generation for good (issue #26): once it has grown by DEEP_GROWTH since the last time, an idle
moment collects everything again. Counted in objects, with a stand-in for the app (no timers, no clock)."""

from __future__ import annotations

import gc
from types import SimpleNamespace

import pytest

from mrsmith_tui.records import replace
from mrsmith_tui.tui.shell import worker
from mrsmith_tui.tui.update import initial_model

RUNS = 24


@pytest.fixture
def app(monkeypatch):
    """What the settles read of the app: its model; a timer's callback is kept to be run by the test."""
    thresholds = gc.get_threshold()
    monkeypatch.setattr(worker, "_left_frozen", 0)
    host = SimpleNamespace(model=initial_model(), timers=[])
    host.set_timer = lambda delay, then: host.timers.append(then)
    yield host
    gc.unfreeze()  # the test process's collector as it was
    gc.collect()
    gc.set_threshold(*thresholds)


def _views(n: int) -> list[list]:
    """`n` objects held in cycles, as a block's widgets are: only a collection that looks at them frees them."""
    out: list[list] = []
    for _ in range(n):
        view: list = []
        view.append(view)
        out.append(view)
    return out


def _run_ends(app, per_run: int) -> None:
    views = _views(per_run)  # on screen when the run ends: the settle freezes them
    worker._settle_now(app)
    del views  # they leave the screen: garbage now, but frozen
    timers, app.timers = app.timers, []
    for then in timers:  # the idle moment after the run
        then()


def test_the_permanent_generation_does_not_keep_what_died_after_it_was_frozen(app):
    worker._settle_now(app)  # the first settle (the session composed): what lives now is the base
    start = gc.get_freeze_count()
    per_run = max(start // 8, 1000)  # all the runs together leave three times the base behind
    peak = start
    for _ in range(RUNS):
        _run_ends(app, per_run)
        peak = max(peak, gc.get_freeze_count())
    assert peak <= start * (1 + worker.DEEP_GROWTH) + 2 * per_run
    assert gc.get_freeze_count() < start * (1 + worker.DEEP_GROWTH)


def test_no_deep_settle_while_a_run_or_an_agent_goes_or_a_prompt_is_typed(app):
    worker._settle_now(app)
    start = gc.get_freeze_count()
    app.model = replace(app.model, input=replace(app.model.input, draft="half a prompt"))
    for _ in range(4):
        _run_ends(app, start // 2)
    assert gc.get_freeze_count() > 2 * start  # held: the person is typing
    app.model = replace(app.model, input=replace(app.model.input, draft=""), run=replace(app.model.run, running=True))
    assert not worker.settle_deep(app)
    app.model = replace(app.model, run=replace(app.model.run, running=False), ledger=replace(app.model.ledger, background=2))
    assert not worker.settle_deep(app)  # background agents streaming
    app.model = replace(app.model, ledger=replace(app.model.ledger, background=0))
    assert worker.settle_deep(app)  # idle again: the next one goes
    assert gc.get_freeze_count() < start * (1 + worker.DEEP_GROWTH)
    assert not worker.settle_deep(app)  # and only when it has grown again


async def test_the_app_collects_everything_once_idle_after_a_run_when_the_frozen_objects_grew(monkeypatch):
    """The real wiring: a run ends, its settle finds the permanent generation grown, and the idle moment after
    it collects everything (the delay shortened; the test waits on what it does, not on a clock)."""
    from mrsmith_tui import msgs as m
    from mrsmith_tui.tui.app import MrSmithApp
    from tests.tui.fakes import CONFIG, factory
    from tests.tui.pilot import until

    thresholds = gc.get_threshold()
    monkeypatch.setattr(worker, "DEEP_AFTER", 0.01)
    monkeypatch.setattr(worker, "_left_frozen", 0)
    deep: list[bool] = []
    settle_deep = worker.settle_deep
    monkeypatch.setattr(worker, "settle_deep", lambda app: deep.append(settle_deep(app)) or deep[-1])

    def say(session, cancel):
        session.sink(m.TextDelta(block_id="a", text="done", at=0.0))

    app = MrSmithApp(factory([[say]]), config=CONFIG, history_path=None, welcome=False)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.session is not None and worker._left_frozen > 0)  # the first settle
            monkeypatch.setattr(worker, "_left_frozen", 1)  # as if the permanent generation had grown since
            await pilot.press(*"go", "enter")
            await until(pilot, lambda: True in deep)
            assert worker._left_frozen > 1  # what the deep settle left frozen
    finally:
        gc.unfreeze()
        gc.collect()
        gc.set_threshold(*thresholds)
