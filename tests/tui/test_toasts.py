"""A burst of toasts is at most two (issue #26): 100 background agents finishing while the person was
idle stacked 100 toasts over the screen, each one a widget mounted on the UI thread."""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.shell.toasts import burst_text
from tests.tui.fakes import AT, CONFIG, factory
from tests.tui.pilot import until


def test_a_burst_reads_as_its_first_line_and_how_many_more():
    assert burst_text(["one"]) == "one"
    assert burst_text(["agent-2 finished", "agent-3 finished", "agent-4 failed"]) == \
        "agent-2 finished\n… and 2 more like it"


async def test_a_hundred_agents_finishing_while_idle_are_two_toasts_and_the_first_is_at_once(monkeypatch):
    app = MrSmithApp(factory(), config=CONFIG, history_path=None)
    toasts: list[str] = []
    monkeypatch.setattr(app, "notify", lambda text, **kw: toasts.append(text))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.session is not None)
        for i in range(100):
            app.dispatch(m.AgentSpawned(agent_id=f"agent-{i}", label=f"job {i}", task="t", at=AT))
        for i in range(100):
            app.dispatch(m.AgentStateChanged(agent_id=f"agent-{i}", state="done", at=AT + 1))
        assert len(toasts) == 1 and toasts[0].startswith("agent-0 finished")  # the first is not held back
        await until(pilot, lambda: len(toasts) == 2)
        assert toasts[1].startswith("agent-1 finished") and toasts[1].endswith("… and 98 more like it")


async def test_a_toast_is_redacted_and_shows_controls_as_text(monkeypatch):
    from mrsmith_tui.tui.shell.toasts import toast

    app = MrSmithApp(factory(), config=CONFIG, history_path=None)
    toasts: list[str] = []
    monkeypatch.setattr(app, "notify", lambda text, **kw: toasts.append(text))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.session is not None)
        toast(app, "a \x1b]0;title\x07 b")
        toast(app, "c \x1b[2J d")
        await until(pilot, lambda: len(toasts) == 2)
        assert "\x1b" not in "".join(toasts) and "␛]0;title␇" in toasts[0] and "␛[2J" in toasts[1]
