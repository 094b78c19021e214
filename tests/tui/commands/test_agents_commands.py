"""The agents family: /agents (its list), /agent, /skills, /tasks, /reasoning."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mrsmith_tui import msgs as m
from mrsmith_tui.tools.services import Services
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands import REGISTRY, run_command
from mrsmith_tui.tui.commands.agents import AgentChoice, AgentCommand, EffortChoice, ReasoningCommand
from mrsmith_tui.tui.update import initial_model, update
from tests.tui.commands.fake_context import FakeContext
from tests.tui.fakes import fake_session


def test_the_family_and_its_help():
    for name in ("/agents", "/agent", "/skills", "/tasks", "/reasoning"):
        assert REGISTRY.find(name).summary
    assert REGISTRY.find("/agent").needs_argument and not REGISTRY.find("/agents").needs_argument


@pytest.mark.parametrize("arg, choice", [
    ("fast", AgentChoice(name="fast", keep=False)),
    ("fast --keep", AgentChoice(name="fast", keep=True)),
    ("--keep  my agent", AgentChoice(name="my agent", keep=True)),
])
def test_agent_reads_a_name_and_keep(arg, choice):
    assert AgentCommand().parse(arg) == choice


@pytest.mark.parametrize("arg, choice", [
    ("", EffortChoice(effort=None, show=True)), ("off", EffortChoice(effort=None)), (" high ", EffortChoice(effort="high")),
])
def test_reasoning_reads_a_value_off_or_nothing(arg, choice):
    assert ReasoningCommand().parse(arg) == choice


def test_agent_switches_and_starts_afresh_unless_kept():
    s = fake_session()
    ctx = FakeContext(session=s)
    run_command(REGISTRY, ctx, "/agent", "fast")
    assert s.agent.name == "fast" and s.resets == 1
    assert ctx.emitted == [(ui.Cleared, {}), (ui.AgentSwitched, {"agent": "fast", "model": "qwen3-mini", "effort": None,
                                                                 "context_limit": 128_000})]
    ctx = FakeContext(session=s)
    run_command(REGISTRY, ctx, "/agent", "default --keep")
    assert s.resets == 1 and [t for t, _ in ctx.emitted] == [ui.AgentSwitched]
    run_command(REGISTRY, ctx, "/agent", "nobody")  # the session refuses an unknown name: one line
    assert ctx.last_note[1] == "error" and ctx.last_note[0].startswith("/agent: ")


def test_reasoning_says_the_effort_or_sets_it():
    s = fake_session()
    ctx = FakeContext(session=s)
    run_command(REGISTRY, ctx, "/reasoning", "")
    assert ctx.last_note == ("reasoning effort: model default · /reasoning <value|off>", "notice")
    run_command(REGISTRY, ctx, "/reasoning", "high")
    assert s.effort == "high" and ctx.emitted == [(ui.EffortChanged, {"effort": "high"})]


def test_agents_lists_the_configured_agents_and_the_background_ones():
    s = fake_session()
    ctx = FakeContext(session=s)
    run_command(REGISTRY, ctx, "/agents", "")
    text, _ = ctx.last_note
    assert text.splitlines()[:3] == ["Agents", "● default  local/qwen3-coder", "○ fast  local/qwen3-mini"]
    assert "not available in this build" in text
    record = SimpleNamespace(agent_id="agent-1", label="bg", state="running", elapsed=lambda: 3.0, tool_calls=2)
    s.services = Services(fleet=SimpleNamespace(list=lambda: [record]))
    run_command(REGISTRY, ctx, "/agents", "")
    assert ctx.last_note[0].endswith("agent-1  bg  running · 3s · 2 tool calls")


def test_agents_completes_ids_and_stop():
    model = initial_model()
    model, _ = update(model, m.AgentSpawned(agent_id="agent-1", label="a", task="t", at=1))
    assert REGISTRY.find("/agents").complete(model, "") == ("/agents stop", "/agents agent-1")
    assert REGISTRY.find("/agents").complete(model, "stop a") == ("/agents stop agent-1",)


def test_skills_lists_or_loads_one():
    loaded: set[str] = set()
    catalog = SimpleNamespace(
        list=lambda: [SimpleNamespace(name="plan", description="make a plan")],
        is_loaded=lambda name: name in loaded,
        load=lambda name: loaded.add(name) or SimpleNamespace(name=name),
    )
    ctx = FakeContext(session=fake_session())
    run_command(REGISTRY, ctx, "/skills", "")
    assert ctx.last_note == ("skills are not available in this build", "warning")
    ctx.session.services = Services(skills=catalog)
    run_command(REGISTRY, ctx, "/skills", "")
    assert ctx.last_note[0] == "Skills (* loaded) · /skills NAME loads one\n  plan  make a plan"
    run_command(REGISTRY, ctx, "/skills", "plan")
    run_command(REGISTRY, ctx, "/skills", "plan")
    assert [t for t, _ in ctx.notes[-2:]] == ["skill plan loaded", "skill plan was already loaded"]


def test_tasks_is_answered_from_the_sidebar():
    model, _ = update(initial_model(), ui.Submit(text="/tasks", at=1))
    assert model.conv.blocks[-1].text == "no tasks yet (the model fills the list with todowrite)"
    todos = (m.Todo(content="write it", status="in_progress", priority="high"),)
    model, _ = update(model, m.TasksChanged(todos=todos, at=2))
    model, _ = update(model, ui.Submit(text="/tasks", at=3))
    assert model.conv.blocks[-1].text == "Tasks\n◐ write it  (high)"
