"""Pilot: the sub-agent panel takes the focus, opens an agent's own screen, and stops agents."""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.agent_screen import AgentScreen
from mrsmith_tui.tui.view.sidebar import SidebarView
from tests.tui.fakes import AT, CONFIG, fleet_factory
from tests.tui.pilot import until


def feed_agent(app: MrSmithApp, agent_id: str) -> None:
    def of(inner):
        return m.FromAgent(agent_id=agent_id, msg=inner, at=AT)
    app.sink(m.AgentSpawned(agent_id=agent_id, label=f"work {agent_id}", task="do the work", at=AT))
    app.sink(of(m.UserPrompt(run_id="a", text=f"task of {agent_id}", at=AT)))
    app.sink(of(m.BlockEnded(block_id="r", kind="reasoning", text="plan it\nthen do it", at=AT)))
    app.sink(of(m.ToolCallStarted(call_id="c", name="shell", arguments="{}", summary="make check", at=AT)))


def fleet_app() -> tuple[MrSmithApp, list]:
    made: list = []
    return MrSmithApp(fleet_factory(made), config=CONFIG, history_path=None), made


async def start_agents(pilot, app: MrSmithApp, *agent_ids: str) -> None:
    """Once the session is built, the agents appear, each with a prompt, a thought and a running tool."""
    await until(pilot, lambda: app.session is not None)
    for agent_id in agent_ids:
        feed_agent(app, agent_id)
    await until(pilot, lambda: len(app.model.sidebar.agents) == len(agent_ids))


async def test_panel_opens_an_agents_screen_and_stops_it_there():
    app, made = fleet_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await start_agents(pilot, app, "agent-1", "agent-2")
        await until(pilot, lambda: app.query_one(SidebarView).display)
        await pilot.press(*"/agents", "enter")
        await until(pilot, lambda: app.focused is app.query_one(SidebarView))
        assert app.model.sidebar.selected == "agent-1"
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, AgentScreen))
        screen = app.screen
        assert screen.agent_id == "agent-2"
        await until(pilot, lambda: len(screen.query('.block')) == 3)
        texts = [v.text_shown() for v in screen.query('.block')]
        assert "task of agent-2" in texts[0] and "thought" in texts[1] and "make check" in texts[2]
        status = str(screen.query_one("#agent-status").render())
        assert "agent-2" in status and "running" in status and "1 tool " in status
        # the agent keeps streaming into its open screen
        app.sink(m.FromAgent(agent_id="agent-2", at=AT,
                             msg=m.ToolCallFinished(call_id="c", name="shell", ok=True, result="all green", at=AT)))
        app.sink(m.FromAgent(agent_id="agent-2", at=AT, msg=m.TextDelta(block_id="t", text="done: all green", at=AT)))
        await until(pilot, lambda: len(screen.query('.block')) == 4)
        await pilot.press("x")
        await until(pilot, lambda: made[0].services.fleet.stops == [("agent-2", 0)])
        await until(pilot, lambda: "stopped" in str(screen.query_one("#agent-status").render()))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, AgentScreen))
        await until(pilot, lambda: app.focused is app.query_one(SidebarView))
        # stop the other one straight from the panel
        await pilot.press("up", "x")
        await until(pilot, lambda: ("agent-1", 0) in made[0].services.fleet.stops)
        await until(pilot, lambda: all(r.state == "stopped" for r in app.model.sidebar.agents))
        await pilot.press("escape")
        await until(pilot, lambda: app.focused is not None and app.focused.id == "prompt")
        assert app.model.sidebar.selected is None


async def test_clicking_a_panel_row_opens_that_agent():
    app, _ = fleet_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await start_agents(pilot, app, "agent-1")
        await until(pilot, lambda: app.query_one(SidebarView).display and app.query_one(SidebarView)._owners)
        sidebar = app.query_one(SidebarView)
        line = min(y for y, who in sidebar._owners.items() if who == "agent-1")
        await pilot.click(SidebarView, offset=(4, line))
        await until(pilot, lambda: isinstance(app.screen, AgentScreen))
        assert app.screen.agent_id == "agent-1"
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, AgentScreen))


async def test_stop_from_the_input_line_names_unknown_ids():
    app, made = fleet_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await start_agents(pilot, app, "agent-1")
        await pilot.press(*"/agents stop agent-1", "enter")
        await until(pilot, lambda: made[0].services.fleet.stops == [("agent-1", 0)])
        await pilot.press(*"/agents stop nope", "enter")
        await until(pilot, lambda: any("no agent 'nope'" in b.text for b in app.model.conv.blocks))


async def test_typing_on_the_panel_or_an_agents_screen_goes_to_the_prompt():
    app, made = fleet_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await start_agents(pilot, app, "agent-1")
        await pilot.press(*"/agents", "enter")
        await until(pilot, lambda: app.focused is app.query_one(SidebarView))
        await pilot.press(*"so")  # 's' and 'o' are text here: nothing stops, nothing opens
        await until(pilot, lambda: app.focused is not None and app.focused.id == "prompt")
        await pilot.press(*"me text")
        await until(pilot, lambda: app.model.input.draft == "some text")
        assert made[0].services.fleet.stops == [] and app.model.sidebar.selected is None
        for _ in range(9):
            await pilot.press("backspace")
        await pilot.press(*"/agents agent-1", "enter")
        await until(pilot, lambda: isinstance(app.screen, AgentScreen))
        await pilot.press(*"hey")
        await until(pilot, lambda: not isinstance(app.screen, AgentScreen) and app.model.input.draft == "hey")
        assert app.focused is not None and app.focused.id == "prompt"
        assert made[0].services.fleet.stops == []
