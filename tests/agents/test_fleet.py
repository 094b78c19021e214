"""The background fleet: spawn, wait, stop (mid-stream, mid-shell), bounds, sharing, lifecycle."""

from __future__ import annotations

import threading

import pytest

from loopback import Turn, chunk, held, text_turn, tool_turn
from mrsmith_tui import msgs
from mrsmith_tui.agents.fleet import FleetError
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.session.transcript import read_transcript

from .helpers import (
    EchoTool,
    GuardedTool,
    PersonApprover,
    Router,
    SlowShell,
    agent_msgs,
    make_session,
    states,
    tool_names,
    until,
)


def slow_text(words: int = 300, delay: float = 0.02) -> Turn:
    return Turn(events=[chunk(role="assistant")] + [chunk(f"w{i} ") for i in range(words)] + [chunk(finish="stop")], delay=delay)


def hanging(turn: Turn | None = None) -> Turn:
    """A turn whose stream never starts until the test (or the server's stop) lets it go."""
    return held(turn or text_turn("late"), threading.Event())


def fleet_of(session):
    return session.services.fleet


def test_spawned_agents_work_after_the_run_and_the_next_turn_collects_the_report(tmp_path, loopback):
    router = Router(
        {
            "main": [
                tool_turn("spawn_agent", {"task": "W1: survey the tests", "label": "survey"}),
                text_turn("started it"),
                tool_turn("wait_agents", {}),
                text_turn("collected"),
            ],
            "W1": [held(text_turn("survey report"), go := threading.Event())],
        }
    )
    srv = loopback(responder=router)
    session, sink = make_session(tmp_path, srv.base_url)
    # The worker cannot answer before `go` is set: the run ending first shows spawn did not wait.
    assert session.run("start", CancelToken()).final_text == "started it"
    assert states(sink, "agent-1") == []
    go.set()
    spawned = sink.of(msgs.AgentSpawned)[0]
    assert (spawned.agent_id, spawned.label, spawned.background) == ("agent-1", "survey", True)
    assert "Started agent-1 (survey)" in [m for m in router.requests("main")[-1]["messages"] if m["role"] == "tool"][-1]["content"]
    # The worker outlives the run; nothing of it reaches the main context on its own.
    until(lambda: states(sink, "agent-1") == ["done"], what="the worker to finish")
    assert all("survey report" not in str(m.model_dump()) for m in session.history)

    assert session.run("next", CancelToken()).final_text == "collected"
    collected = [m for m in router.requests("main")[-1]["messages"] if m["role"] == "tool"][-1]["content"]
    assert "## agent-1 (survey): done" in collected and "survey report" in collected

    worker_req = router.requests("worker", "W1")[0]
    assert not {"spawn_agent", "wait_agents", "stop_agent", "list_agents"} & tool_names(worker_req)
    assert "task" in tool_names(worker_req)
    records, _ = read_transcript(session.transcript_path.parent / "agent-1.jsonl")
    assert records[0].background is True and records[0].agent_id == "agent-1"
    assert any(isinstance(r, msgs.AnswerRecorded) and r.entry.text == "survey report" for r in records)
    assert any(isinstance(m, msgs.TextDelta) for m in agent_msgs(sink, "agent-1"))


def test_wait_times_out_then_delivers_each_report_once(tmp_path, loopback):
    # Both agents are held until the first wait has timed out: a fast agent free to finish could end
    # before that wait (a loaded machine), which would then take its report.
    fast_go, slow_go = threading.Event(), threading.Event()
    router = Router({"FAST": [held(text_turn("fast report"), fast_go)], "SLOW": [held(slow_text(40, 0), slow_go, at=3)]})
    srv = loopback(responder=router)
    session, _sink = make_session(tmp_path, srv.base_url, agent_wait_ms=60_000)
    fleet = fleet_of(session)
    fast = fleet.spawn("FAST job")
    slow = fleet.spawn("SLOW job")

    first = fleet.wait(timeout_ms=0)
    assert first.reports == [] and first.running == [fast, slow]

    fast_go.set()
    got = fleet.wait([fast.agent_id], timeout_ms=60_000)
    assert [r.agent_id for r in got.reports] == [fast.agent_id] and got.reports[0].report == "fast report"
    again = fleet.wait([fast.agent_id, "agent-99"], timeout_ms=0)
    assert again.reports == [] and again.already_read == [fast] and again.unknown == ["agent-99"]

    rest = fleet.wait(timeout_ms=50)
    assert rest.running == [slow]
    slow_go.set()
    rest = fleet.wait(timeout_ms=60_000)
    assert [r.agent_id for r in rest.reports] == [slow.agent_id] and rest.running == []
    assert fleet.wait(timeout_ms=0).reports == []  # nothing is delivered twice


def test_wait_is_capped_by_agent_wait_ms_and_ends_on_cancel(tmp_path, loopback):
    # The agent never finishes here, and the waits asked for are far beyond the test's time limit:
    # only the cap and the cancel can end them.
    srv = loopback(responder=Router({"HANG": [hanging()]}))
    session, _ = make_session(tmp_path, srv.base_url, agent_wait_ms=100)
    fleet = fleet_of(session)
    fleet.spawn("HANG")
    assert fleet.wait(timeout_ms=3_600_000).running  # capped at agent_wait_ms (100 ms)
    fleet.agent_wait_ms = 3_600_000
    cancel = CancelToken()
    waiting = threading.Event()
    real_wait = fleet.book.changed.wait

    def wait_and_tell(timeout=None):
        waiting.set()
        return real_wait(timeout)

    fleet.book.changed.wait = wait_and_tell
    threading.Thread(target=lambda: waiting.wait() and cancel.cancel(), daemon=True).start()
    assert fleet.wait(cancel=cancel).running
    session.close()


def test_stop_mid_stream_keeps_what_it_wrote(tmp_path, loopback):
    # The stream stops after a few words and stays open: only the stop can end the worker.
    srv = loopback(responder=Router({"SLOW": [held(slow_text(500, 0), threading.Event(), at=5)]}))
    session, sink = make_session(tmp_path, srv.base_url)
    fleet = fleet_of(session)
    record = fleet.spawn("SLOW writer")
    until(lambda: len(agent_msgs(sink, record.agent_id, msgs.TextDelta)) >= 2, what="streaming")
    fleet.stop(record.agent_id)
    until(lambda: record.state == "stopped", what="stopped")
    assert states(sink, record.agent_id) == ["stopping", "stopped"]
    assert record.report.startswith("[stopped before it finished]") and "w0" in record.report
    assert fleet.wait([record.agent_id], timeout_ms=0).reports == [record]


def test_stop_mid_shell_kills_the_command_within_a_second(tmp_path, loopback):
    shell = SlowShell()
    srv = loopback(responder=Router({"SHELL": [tool_turn("slow_shell", {"seconds": 3600}), text_turn("never")]}))
    session, _sink = make_session(tmp_path, srv.base_url, tools=(shell,))
    fleet = fleet_of(session)
    record = fleet.spawn("SHELL job")
    assert shell.started.wait(90)
    tool_result = session.tools.get("stop_agent").run({"id": record.agent_id}, session.tool_ctx)
    shell.procs[0].wait(90)  # killed by the stop (else it would sleep an hour)
    assert shell.procs[0].poll() is not None  # the process is gone
    assert record.state == "stopped" and "is stopped" in tool_result.content
    assert fleet.wait(timeout_ms=0).reports == []  # stop_agent handed the report over already


def test_concurrency_bound_and_turning_spawning_off(tmp_path, loopback):
    srv = loopback(responder=Router({"HANG": [hanging()]}))
    session, _ = make_session(tmp_path, srv.base_url, max_agents=2)
    fleet = fleet_of(session)
    a = fleet.spawn("HANG a")
    fleet.spawn("HANG b")
    with pytest.raises(FleetError, match="2 background agents are already running \\(the limit is 2\\)"):
        fleet.spawn("HANG c")
    result = session.tools.get("spawn_agent").run({"task": "HANG c"}, session.tool_ctx)
    assert not result.ok and "the limit is 2" in result.content
    fleet.stop(a.agent_id)
    assert fleet.spawn("HANG d").agent_id == "agent-3"
    session.close()

    off, _ = make_session(tmp_path, srv.base_url, max_agents=0)
    assert "spawn_agent" not in off.tools and "task" in off.tools
    with pytest.raises(FleetError, match="turned off"):
        fleet_of(off).spawn("HANG")


def test_workers_share_budget_ledger_and_the_approval_gate(tmp_path, loopback):
    echo = EchoTool()
    approver = PersonApprover()
    approver.gate.clear()  # the person has not answered yet
    srv = loopback(
        responder=Router(
            {
                "ECHO": [tool_turn("echo", {"text": "hi"}), text_turn("echoed")],
                "WRITE": [tool_turn("guarded_write", {}), text_turn("written")],
            }
        )
    )
    session, sink = make_session(tmp_path, srv.base_url, tools=(echo, GuardedTool()), approver=approver, limit=50)
    ledger = object()
    session.file_ledger = session.tool_ctx.ledger = ledger
    fleet = fleet_of(session)
    e = fleet.spawn("ECHO")
    w = fleet.spawn("WRITE")
    until(lambda: w.state == "waiting", what="the worker waiting for the person")
    assert approver.queries[0].agent_id == w.agent_id
    approver.gate.set()
    fleet.wait(timeout_ms=120_000)
    assert states(sink, w.agent_id) == ["waiting", "running", "done"]
    assert echo.contexts[0].ledger is ledger and echo.contexts[0].root == session.cwd
    assert echo.contexts[0].agent_id == e.agent_id
    assert session.budget.used == 2  # one call from each worker
    assert (e.tool_calls, w.tool_calls) == (1, 1)
    assert session.ledger.subagent_total.prompt_tokens == 40 and session.ledger.context_tokens == 0


def test_reset_and_close_stop_everything_and_a_stop_cascades(tmp_path, loopback):
    srv = loopback(
        responder=Router(
            {
                "PARENT": [tool_turn("task", {"description": "child", "prompt": "CHILD: stream"}), text_turn("x")],
                "CHILD": [held(slow_text(500, 0), threading.Event(), at=5)],
                "HANG": [hanging()],
            }
        )
    )
    session, _sink = make_session(tmp_path, srv.base_url)
    fleet = fleet_of(session)
    parent = fleet.spawn("PARENT")
    child = until(lambda: fleet.book.get("subagent-1"), what="the sub-agent")
    assert child.parent_id == parent.agent_id
    fleet.stop(parent.agent_id)
    until(lambda: child.state == "stopped" and parent.state == "stopped", what="the cascade")

    stuck = fleet.spawn("HANG")
    session.reset()
    assert stuck.state == "stopped" and fleet.list() == []
    again = fleet.spawn("HANG")
    assert again.agent_id == "agent-3"  # ids never repeat
    session.close()
    assert again.state == "stopped"


def test_list_agents_rows(tmp_path, loopback):
    srv = loopback(responder=Router({"DONE": [text_turn("r")], "HANG": [hanging()]}))
    session, _ = make_session(tmp_path, srv.base_url)
    fleet = fleet_of(session)
    done = fleet.spawn("DONE", label="finisher")
    fleet.spawn("HANG")
    until(lambda: done.state == "done")
    rows = session.tools.get("list_agents").run({}, session.tool_ctx).content.splitlines()
    assert rows[0].startswith("agent-1\tfinisher\tdone\t") and rows[0].endswith("report waiting (wait_agents)")
    assert rows[1].startswith("agent-2\tHANG\trunning\t") and "0 tool calls" in rows[1]
    session.close()


def test_agent_switch_stops_the_fleet_and_a_frontend_stop_does_not_block(tmp_path, loopback):
    srv = loopback(responder=Router({"HANG": [hanging()]}))
    session, _sink = make_session(tmp_path, srv.base_url)
    fleet = fleet_of(session)
    first = fleet.spawn("HANG one")
    fleet.stop(first.agent_id, join_seconds=0)
    assert first.state in ("stopping", "stopped")
    until(lambda: first.state == "stopped", what="stopped")
    second = fleet.spawn("HANG two")
    session.switch_agent("other")
    assert second.state == "stopped" and fleet.list() == []
    with pytest.raises(FleetError, match="no agent 'agent-9'"):
        fleet.stop("agent-9")
    session.close()
