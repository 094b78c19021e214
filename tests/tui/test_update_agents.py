"""The sub-agent panel and an agent's own screen, as pure `update` rules."""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.update import completions, initial_model, update
from mrsmith_tui.tui.update import effects as fx

AT = 1000.0


def run(model, *msgs_):
    effects = []
    for msg in msgs_:
        model, out = update(model, msg)
        effects.extend(out)
    return model, effects


def spawned(*ids: str):
    return [m.AgentSpawned(agent_id=i, label=f"label {i}", task=f"task of {i}", at=AT) for i in ids]


def of(agent_id: str, inner: m.Msg) -> m.FromAgent:
    return m.FromAgent(agent_id=agent_id, msg=inner, at=inner.at)


def agent_turn(agent_id: str) -> list[m.Msg]:
    return [
        of(agent_id, m.UserPrompt(run_id="a", text="task of " + agent_id, at=AT)),
        of(agent_id, m.RunStarted(run_id="a", at=AT)),
        of(agent_id, m.ReasoningDelta(block_id="r", text="look ", at=AT + 1)),
        of(agent_id, m.ReasoningDelta(block_id="r", text="first", at=AT + 2)),
        of(agent_id, m.BlockEnded(block_id="r", kind="reasoning", text="look first\nthen act", at=AT + 3)),
        of(agent_id, m.ToolCallStarted(call_id="c", name="shell", arguments="{}", summary="ls", at=AT + 3)),
        of(agent_id, m.ToolCallFinished(call_id="c", name="shell", ok=True, result="a\nb", exit_code=0, at=AT + 4)),
    ]


def test_an_agents_events_build_its_own_folded_blocks_and_leave_the_main_conversation_alone():
    model, _ = run(initial_model(), *spawned("agent-1"), *agent_turn("agent-1"))
    assert model.conv.blocks == ()
    assert model.ledger.state == "idle"  # an agent's stream is not the main run's state
    conv = model.agent_convs["agent-1"]
    assert [b.kind for b in conv.blocks] == ["user", "reasoning", "tool"]
    reasoning, tool = conv.blocks[1], conv.blocks[2]
    assert reasoning.folded and reasoning.text == "look first\nthen act" and reasoning.done
    assert tool.done and tool.folded and tool.ok and tool.text == "a\nb"
    row = model.sidebar.agents[0]
    assert row.tool_calls == 1 and row.last_action.startswith("shell")


def test_a_cancelled_agent_run_closes_its_open_blocks():
    model, _ = run(initial_model(), *spawned("agent-1"),
                   of("agent-1", m.TextDelta(block_id="t", text="half an answ", at=AT)),
                   of("agent-1", m.RunEnded(run_id="a", cancelled=True, at=AT + 1)))
    blocks = model.agent_convs["agent-1"].blocks
    assert blocks[0].done and blocks[0].text == "half an answ"
    assert blocks[-1].kind == "notice" and blocks[-1].text == "cancelled"


def test_each_agent_keeps_a_bounded_number_of_blocks():
    model, _ = run(initial_model(), *spawned("agent-1"))
    notes = [of("agent-1", m.Notice(text=f"n{i}", at=AT)) for i in range(ui.AGENT_BLOCKS_CAP + 30)]
    model, _ = run(model, *notes)
    blocks = model.agent_convs["agent-1"].blocks
    assert len(blocks) == ui.AGENT_BLOCKS_CAP and blocks[-1].text == f"n{ui.AGENT_BLOCKS_CAP + 29}"


def test_the_panel_cursor_moves_opens_and_stops():
    model, _ = run(initial_model(), *spawned("agent-1", "agent-2", "agent-3"))
    model, _ = run(model, ui.PanelKey(action="focus", at=AT))
    assert model.sidebar.selected == "agent-1"
    model, _ = run(model, ui.PanelKey(action="down", at=AT), ui.PanelKey(action="down", at=AT),
                   ui.PanelKey(action="down", at=AT))
    assert model.sidebar.selected == "agent-3"  # stops at the last row
    model, effects = run(model, ui.PanelKey(action="stop", at=AT))
    assert effects == [fx.StopAgent("agent-3")]
    model, _ = run(model, ui.PanelKey(action="up", at=AT), ui.PanelKey(action="open", at=AT))
    assert model.screen.agent_open == "agent-2"
    model, _ = run(model, ui.PanelKey(action="blur", at=AT))  # focus left for the agent's screen
    assert model.sidebar.selected == "agent-2"
    model, effects = run(model, ui.CloseAgent(at=AT))
    assert model.screen.agent_open is None and effects == [fx.Focus("panel")]
    model, effects = run(model, ui.PanelKey(action="leave", at=AT))
    assert model.sidebar.selected is None and effects == [fx.Focus("prompt")]


def test_the_focus_cursor_starts_on_a_running_agent():
    model, _ = run(initial_model(), *spawned("agent-1", "agent-2"),
                   m.AgentStateChanged(agent_id="agent-1", state="done", at=AT + 1))
    model, _ = run(model, ui.PanelKey(action="focus", at=AT + 2))
    assert model.sidebar.selected == "agent-2"


def test_stopping_an_agent_that_already_ended_only_says_so():
    model, _ = run(initial_model(), *spawned("agent-1"),
                   m.AgentStateChanged(agent_id="agent-1", state="done", at=AT + 1))
    model, effects = run(model, ui.Submit(text="/agents stop agent-1", at=AT + 2))
    assert not any(isinstance(e, fx.StopAgent) for e in effects)
    assert "already done" in model.screen.note


def test_agents_command_stops_opens_and_focuses():
    model, _ = run(initial_model(), *spawned("agent-1", "agent-2"))
    _, effects = run(model, ui.Submit(text="/agents stop agent-2", at=AT))
    assert fx.StopAgent("agent-2") in effects
    opened, _ = run(model, ui.Submit(text="/agents agent-1", at=AT))
    assert opened.screen.agent_open == "agent-1"
    focused, effects = run(model, ui.Submit(text="/agents", at=AT))
    assert fx.Focus("panel") in effects and fx.Command("/agents", "") in effects
    assert focused.sidebar.selected == "agent-1" and focused.sidebar.wanted is True
    unknown, effects = run(model, ui.Submit(text="/agents stop agent-9", at=AT))
    assert not any(isinstance(e, fx.StopAgent) for e in effects)
    assert "no agent 'agent-9'" in unknown.conv.blocks[-1].text and "agent-1, agent-2" in unknown.conv.blocks[-1].text


def test_agents_command_completes_ids():
    model, _ = run(initial_model(), *spawned("agent-1", "agent-12"))
    assert completions(model, "/agents stop agent-1") == ("/agents stop agent-12",)
    assert "/agents stop" in completions(model, "/agents s")


def test_fold_focus_and_copy_act_on_the_open_agents_screen():
    model, _ = run(initial_model(), m.UserPrompt(run_id="r", text="main prompt", at=AT),
                   *spawned("agent-1"), *agent_turn("agent-1"), ui.OpenAgent(agent_id="agent-1", at=AT))
    main_before = model.conv
    model, _ = run(model, ui.FocusMove(step=-1, at=AT), ui.FocusMove(step=-1, at=AT))
    conv = model.agent_convs["agent-1"]
    assert conv.focused == conv.blocks[1].key and model.conv is main_before
    model, _ = run(model, ui.ToggleFold(at=AT))
    assert not model.agent_convs["agent-1"].blocks[1].folded  # the reasoning opened
    model, effects = run(model, ui.CopyBlock(at=AT))
    assert effects == [fx.Copy("look first\nthen act", "reasoning")]
    model, _ = run(model, ui.CloseAgent(at=AT), ui.FocusMove(step=-1, at=AT))
    assert model.conv.focused == model.conv.blocks[-1].key  # back on the main conversation


def test_a_worker_finishing_while_idle_is_a_notification_but_not_during_a_run():
    model, _ = run(initial_model(), *spawned("agent-1", "agent-2"))
    _, effects = run(model, m.AgentStateChanged(agent_id="agent-1", state="done", at=AT + 1))
    assert any(isinstance(e, fx.Notify) and "agent-1 finished" in e.text for e in effects)
    busy = replace(model, run=replace(model.run, running=True))
    _, effects = run(busy, m.AgentStateChanged(agent_id="agent-2", state="done", at=AT + 1))
    assert not any(isinstance(e, fx.Notify) for e in effects)


def test_waiting_agents_count_in_the_status_bar():
    model, _ = run(initial_model(), *spawned("agent-1", "agent-2"),
                   m.AgentStateChanged(agent_id="agent-1", state="waiting", at=AT + 1),
                   m.AgentStateChanged(agent_id="agent-2", state="stopped", at=AT + 1))
    assert model.ledger.background == 1


def test_reset_forgets_ended_agents_and_their_screens():
    model, _ = run(initial_model(), *spawned("agent-1", "agent-2"), *agent_turn("agent-1"), *agent_turn("agent-2"),
                   m.AgentStateChanged(agent_id="agent-1", state="done", at=AT + 5),
                   ui.OpenAgent(agent_id="agent-1", at=AT + 5), ui.Cleared(at=AT + 6))
    assert set(model.agent_convs) == {"agent-2"} and model.screen.agent_open is None
    assert [r.agent_id for r in model.sidebar.agents] == ["agent-2"]


def test_on_a_narrow_screen_the_panel_takes_the_screen_and_gives_it_back():
    from mrsmith_tui.tui.model import sidebar_takes_screen, sidebar_visible

    model, _ = run(initial_model(width=60, height=20), *spawned("agent-1"))
    assert not sidebar_visible(model)  # automatic: hidden below 100 columns
    model, _ = run(model, ui.Submit(text="/agents", at=AT))
    assert sidebar_visible(model) and sidebar_takes_screen(model)
    model, _ = run(model, ui.PanelKey(action="leave", at=AT))
    assert not sidebar_visible(model) and not sidebar_takes_screen(model)
    wide, _ = run(initial_model(width=120), *spawned("agent-1"), ui.Submit(text="/agents", at=AT))
    assert sidebar_visible(wide) and not sidebar_takes_screen(wide)
