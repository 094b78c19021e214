"""Snapshots of the screen, with time and ids frozen (every Msg has `at`, the app's clock is fixed).

Regenerate with `pytest tests/tui/test_snapshots.py --snapshot-update`, then look at the SVGs.
"""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.app import MrSmithApp
from tests.tui.fakes import AT, CONFIG, factory
from tests.tui.pilot import settled

DIFF = ("--- a/src/greet.py\n+++ b/src/greet.py\n@@ -1,3 +1,4 @@\n def greet(name):\n"
        "-    print('hi ' + name)\n+    message = f'hello, {name}'\n+    print(message)\n     return None\n")

ANSWER = """## What changed

`greet` now builds the message once and prints it:

```python
def greet(name):
    message = f"hello, {name}"
    print(message)
```

- the test `test_greet` passes
- no other file changed
"""


def app() -> MrSmithApp:
    return MrSmithApp(factory(), config=CONFIG, history_path=None, clock=lambda: AT + 12, welcome=False)


def play(*msgs_):
    async def run_before(pilot) -> None:
        a = pilot.app
        for msg in msgs_ + (ui.Tick(at=AT + 12),):  # the app's frozen clock: spinner ticks change nothing
            a.dispatch(msg)
        await settled(pilot)  # drawn, laid out and scrolled: not after guessed pauses
    return run_before


def at(dt: float) -> float:
    return AT + dt


TURN = (
    m.UserPrompt(run_id="r1", text="make greet build its message once", at=at(0)),
    m.RunStarted(run_id="r1", at=at(0)),
)

FOLDED = TURN + (
    m.BlockEnded(block_id="r1", kind="reasoning", at=at(4),
                 text="The function concatenates strings.\nAn f-string is clearer.\nCheck the test first."),
    m.ToolCallStarted(call_id="c1", name="shell", arguments='{"command": "pytest -q tests/test_greet.py"}',
                      summary="pytest -q tests/test_greet.py", at=at(4)),
    m.ToolCallFinished(call_id="c1", name="shell", ok=True, exit_code=0, elapsed=1.4, at=at(5.4),
                       result="F\n=== FAILURES ===\nassert 'hello, ann' in out\n1 failed in 0.02s\nline 5\nline 6"),
    m.ToolCallStarted(call_id="c2", name="edit", arguments='{"path": "src/greet.py"}', summary="src/greet.py", at=at(6)),
    m.ToolCallFinished(call_id="c2", name="edit", ok=True, diff=DIFF, result="edited src/greet.py", elapsed=0.1,
                       at=at(6.1)),
    m.BlockEnded(block_id="t1", kind="text", text=ANSWER, at=at(8)),
    m.UsageReported(usage=m.UsageInfo(prompt_tokens=5200, completion_tokens=610, cached_tokens=4100, cache_reported=True), context_tokens=5810, context_limit=32000, at=at(8)),
    m.RunEnded(run_id="r1", at=at(8.5)),
    ui.WorkerDone(at=at(8.5)),
)

TASKS = (
    m.TasksChanged(todos=(m.Todo(content="read greet.py", status="completed"), m.Todo(content="fix the message", status="in_progress", priority="high"),
                          m.Todo(content="run the tests"), m.Todo(content="update the docs", status="pending", priority="low")), at=at(1)),
    m.AgentSpawned(agent_id="agent-1", label="docs", task="update the README for greet", at=at(2)),
    m.FromAgent(agent_id="agent-1", msg=m.ToolCallStarted(call_id="x", name="read_file", arguments="{}",
                                                        summary="README.md", at=at(3)), at=at(3)),
    m.AgentSpawned(agent_id="agent-2", label="lint", task="run ruff", at=at(2)),
    m.AgentStateChanged(agent_id="agent-2", state="done", at=at(7)),
)


def test_empty_start(snap_compare):
    assert snap_compare(app(), terminal_size=(120, 40), run_before=play())


def test_live_reasoning(snap_compare):
    msgs_ = TURN + (m.ReasoningDelta(block_id="r1", at=at(1),
                                     text="The user wants one message.\nLook at greet.py first.\nThen the test\n"
                                          "and what it asserts about the output"),)
    assert snap_compare(app(), terminal_size=(120, 40), run_before=play(*msgs_))


def test_folded_reasoning_tools_and_diff(snap_compare):
    assert snap_compare(app(), terminal_size=(120, 40), run_before=play(*FOLDED))


def _edit_request(diff: str = DIFF) -> m.ApprovalRequested:
    return m.ApprovalRequested(request_id="q1", tool="edit", arguments='{"path": "src/greet.py"}',
                               reason="edit changes src/greet.py", spec="edit", diff=diff, rule="writes", at=at(2))


def test_approval_modal(snap_compare):
    msgs_ = TURN + (_edit_request(), ui.Tick(at=at(3)))
    assert snap_compare(app(), terminal_size=(120, 40), run_before=play(*msgs_))


def test_approval_modal_at_60x20_with_a_long_diff(snap_compare):
    long_diff = DIFF + "".join(f"+    line_{i} = {i}\n" for i in range(60))
    msgs_ = TURN + (_edit_request(long_diff), ui.Tick(at=at(3)))
    assert snap_compare(app(), terminal_size=(60, 20), run_before=play(*msgs_))


def test_approval_waiting_behind_typed_text(snap_compare):
    msgs_ = TURN + (ui.DraftChanged(text="and then rename the", at=at(1)), _edit_request(), ui.Tick(at=at(3)))
    assert snap_compare(app(), terminal_size=(100, 24), run_before=play(*msgs_))


def test_review_overlay(snap_compare):
    assert snap_compare(app(), terminal_size=(120, 40), run_before=play(*FOLDED, ui.ToggleReview(at=at(9))))


def test_narrow_terminal(snap_compare):
    assert snap_compare(app(), terminal_size=(60, 20), run_before=play(*FOLDED))


def test_no_color(snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(app(), terminal_size=(100, 36), run_before=play(*FOLDED))


def test_sidebar_with_tasks_and_agents(snap_compare):
    assert snap_compare(app(), terminal_size=(120, 36), run_before=play(*TURN, *TASKS, *FOLDED[len(TURN):]))


def _from(agent_id: str, inner: m.Msg) -> m.FromAgent:
    return m.FromAgent(agent_id=agent_id, msg=inner, at=inner.at)


THREE_AGENTS = (
    m.AgentSpawned(agent_id="agent-1", label="tests", task="run the test suite and report failures", at=at(1)),
    _from("agent-1", m.UserPrompt(run_id="a1", text="run the test suite and report failures", at=at(1))),
    _from("agent-1", m.BlockEnded(block_id="r", kind="reasoning", text="Start with pytest -q.\nThen read failures.",
                                  at=at(2))),
    _from("agent-1", m.ToolCallStarted(call_id="c1", name="shell", arguments='{"command": "pytest -q"}',
                                       summary="pytest -q", at=at(2))),
    _from("agent-1", m.ToolOutput(call_id="c1", text="....F....\n", at=at(3))),
    m.AgentSpawned(agent_id="agent-2", label="docs", task="update README for greet", at=at(1)),
    _from("agent-2", m.ToolCallStarted(call_id="c2", name="write_file", arguments='{"path": "README.md"}',
                                       summary="README.md", at=at(3))),
    m.AgentStateChanged(agent_id="agent-2", state="waiting", detail="approve write_file README.md", at=at(3)),
    m.AgentSpawned(agent_id="agent-3", label="lint", task="run ruff on src/", at=at(1)),
    _from("agent-3", m.UsageReported(usage=m.UsageInfo(prompt_tokens=1200, completion_tokens=300, cached_tokens=0), at=at(4))),
    m.AgentStateChanged(agent_id="agent-3", state="stopped", at=at(5)),
)


def test_agent_panel_with_three_agents_in_different_states(snap_compare):
    assert snap_compare(app(), terminal_size=(120, 30), run_before=play(*TURN, *THREE_AGENTS))


def test_an_agents_own_screen(snap_compare):
    assert snap_compare(app(), terminal_size=(100, 24),
                        run_before=play(*TURN, *THREE_AGENTS, ui.OpenAgent(agent_id="agent-1", at=at(6))))
