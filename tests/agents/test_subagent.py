"""The task tool end to end against the loopback server, resume by task_id included."""

from __future__ import annotations

import json
import threading

from loopback import Turn, chunk, held, text_turn, tool_turn
from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.session.transcript import read_transcript

from .helpers import EchoTool, Router, agent_msgs, make_session, states, tool_names, until


def last_tool_result(body) -> str:
    return [m for m in body["messages"] if m["role"] == "tool"][-1]["content"]


def test_task_runs_a_sub_agent_and_returns_its_answer(tmp_path, loopback):
    router = Router(
        {
            "main": [tool_turn("task", {"description": "count todos", "prompt": "SUB1: count the TODOs"}), text_turn("all done")],
            "SUB1": [tool_turn("echo", {"text": "grep"}), text_turn("found 3 TODOs", reasoning="thinking hard")],
        }
    )
    srv = loopback(responder=router)
    session, sink = make_session(tmp_path, srv.base_url, tools=(EchoTool(),))
    result = session.run("go", CancelToken())

    assert result.final_text == "all done"
    main_after = router.requests("main")[-1]
    assert last_tool_result(main_after).startswith("found 3 TODOs")
    assert "task_id: subagent-1" in last_tool_result(main_after)

    spawned = sink.of(msgs.AgentSpawned)
    assert [(s.agent_id, s.background, s.label, s.parent_id) for s in spawned] == [("subagent-1", False, "count todos", None)]
    assert states(sink, "subagent-1") == ["done"]
    inner = agent_msgs(sink, "subagent-1")
    assert any(isinstance(m, msgs.ReasoningDelta) for m in inner)
    assert any(isinstance(m, msgs.ToolCallFinished) and m.result == "echo: grep" for m in inner)
    # The sub-agent's blocks and tool calls never appear unwrapped in the main stream.
    assert not any(isinstance(m, msgs.ToolCallStarted) and m.name == "echo" for m in sink.msgs)

    sub_first = router.requests("sub", "SUB1")[0]
    assert "task" not in tool_names(sub_first) and "spawn_agent" not in tool_names(sub_first)
    assert {"echo", "skill"} <= tool_names(sub_first)
    assert [m["role"] for m in sub_first["messages"]] == ["system", "user"]  # a fresh context

    folder = session.transcript_path.parent
    records, warnings = read_transcript(folder / "subagent-1.jsonl")
    assert warnings == [] and isinstance(records[0], msgs.TranscriptHeader) and records[0].agent_id == "subagent-1"
    assert any(isinstance(r, msgs.AnswerRecorded) and r.entry.text == "found 3 TODOs" for r in records)
    assert "sk-agents-test-key" not in (folder / "subagent-1.jsonl").read_text()

    # Usage: the sub-agent's two calls go to the session's sub-agent total, not the main gauge.
    assert session.ledger.subagent_total.prompt_tokens == 20
    assert session.ledger.context_tokens == 15
    assert session.ledger.total.prompt_tokens == 20  # the main agent's own two calls


def test_resume_by_task_id_continues_the_same_context(tmp_path, loopback):
    router = Router(
        {
            "main": [
                tool_turn("task", {"description": "look", "prompt": "SUB1: remember the word kiwi"}),
                text_turn("first done"),
                tool_turn("task", {"description": "again", "prompt": "what was the word?", "task_id": "subagent-1"}),
                text_turn("second done"),
            ],
            "SUB1": [text_turn("ok, remembered"), text_turn("it was kiwi")],
        }
    )
    srv = loopback(responder=router)
    session, sink = make_session(tmp_path, srv.base_url)
    assert session.run("one", CancelToken()).final_text == "first done"
    assert session.run("two", CancelToken()).final_text == "second done"

    resumed = router.requests("sub", "SUB1")[-1]
    texts = [m["content"] for m in resumed["messages"] if m["role"] in ("user", "assistant")]
    assert texts == ["SUB1: remember the word kiwi", "ok, remembered", "what was the word?"]
    assert last_tool_result(router.requests("main")[-1]).startswith("it was kiwi")
    assert len(sink.of(msgs.AgentSpawned)) == 1
    assert states(sink, "subagent-1") == ["done", "running", "done"]
    records, _ = read_transcript(session.transcript_path.parent / "subagent-1.jsonl")
    assert [r.text for r in records if isinstance(r, msgs.UserPrompt)] == ["SUB1: remember the word kiwi", "what was the word?"]


def test_bad_task_id_and_unknown_agent_are_one_line_errors(tmp_path, loopback):
    router = Router(
        {
            "main": [
                Turn(events=[chunk(role="assistant"), chunk(tool_calls=[
                    {"index": 0, "id": "c1", "type": "function", "function": {"name": "task", "arguments": json.dumps({"description": "x", "prompt": "p", "task_id": "subagent-9"})}},
                    {"index": 1, "id": "c2", "type": "function", "function": {"name": "task", "arguments": json.dumps({"description": "x", "prompt": "p", "agent": "nobody"})}},
                ]), chunk(finish="tool_calls")]),
                text_turn("ok"),
            ],
        }
    )
    srv = loopback(responder=router)
    session, sink = make_session(tmp_path, srv.base_url)
    session.run("go", CancelToken())
    results = [m["content"] for m in router.requests("main")[-1]["messages"] if m["role"] == "tool"]
    assert results[0].startswith("Error: no sub-agent 'subagent-9' to resume")
    assert results[1].startswith("Error: ") and "nobody" in results[1]
    assert all("\n" not in r for r in results)
    assert sink.of(msgs.AgentSpawned) == []


def test_sub_agent_as_another_agent_and_shared_budget(tmp_path, loopback):
    router = Router(
        {
            "main": [tool_turn("task", {"description": "d", "prompt": "SUB1: echo twice", "agent": "other"}), text_turn("end")],
            "SUB1": [tool_turn("echo", {"text": "a"}), tool_turn("echo", {"text": "b"}), text_turn("echoed")],
        }
    )
    srv = loopback(responder=router)
    session, sink = make_session(tmp_path, srv.base_url, tools=(EchoTool(),), limit=10)
    session.run("go", CancelToken())
    assert router.requests("sub", "SUB1")[0]["model"] == "m-other"
    assert session.budget.used == 3  # the task call and the sub-agent's two echo calls
    budget = [m.used for m in agent_msgs(sink, "subagent-1", msgs.ToolBudget)]
    assert budget == [2, 3]


def test_cancelling_the_caller_stops_the_sub_agent(tmp_path, loopback):
    # A few words, then the stream stays open until the test ends: only the cancel can stop it.
    slow = held(Turn(events=[chunk(role="assistant")] + [chunk("word ") for _ in range(200)] + [chunk(finish="stop")]),
                threading.Event(), at=5)
    router = Router({"main": [tool_turn("task", {"description": "slow", "prompt": "SUB1: write a lot"})], "SUB1": [slow]})
    srv = loopback(responder=router)
    session, sink = make_session(tmp_path, srv.base_url)
    cancel = CancelToken()
    out = {}
    worker = threading.Thread(target=lambda: out.setdefault("r", session.run("go", cancel)))
    worker.start()
    until(lambda: agent_msgs(sink, "subagent-1", msgs.TextDelta), what="the sub-agent streaming")
    cancel.cancel()
    worker.join(90)  # a safety net, not a budget
    assert not worker.is_alive() and out["r"].cancelled
    assert states(sink, "subagent-1") == ["stopped"]


def test_a_task_id_survives_a_resume_of_the_session(tmp_path, loopback):
    from mrsmith_tui.agents.compose import compose_session

    from .helpers import PersonApprover, make_config

    router = Router(
        {
            "main": [
                tool_turn("task", {"description": "look", "prompt": "SUB1: remember the word kiwi"}),
                text_turn("first done"),
                tool_turn("task", {"description": "again", "prompt": "what was the word?", "task_id": "subagent-1"}),
                text_turn("second done"),
                tool_turn("task", {"description": "new", "prompt": "SUB1: a new one"}),
                text_turn("third done"),
            ],
            "SUB1": [text_turn("ok, remembered"), text_turn("it was kiwi")],
        }
    )
    srv = loopback(responder=router)
    session, _ = make_session(tmp_path, srv.base_url)
    assert session.run("one", CancelToken()).final_text == "first done"
    folder = session.transcript_path.parent
    session.close()

    sink = msgs.ListSink()
    again = compose_session(config=make_config(tmp_path, srv.base_url), cwd=tmp_path / "work", sink=sink,
                            approver=PersonApprover(), resume=True, target=str(folder))
    assert again.run("two", CancelToken()).final_text == "second done"
    resumed = router.requests("sub", "SUB1")[-1]
    texts = [m["content"] for m in resumed["messages"] if m["role"] in ("user", "assistant")]
    assert texts == ["SUB1: remember the word kiwi", "ok, remembered", "what was the word?"]
    assert last_tool_result(router.requests("main")[-1]).startswith("it was kiwi")
    records, _ = read_transcript(folder / "subagent-1.jsonl")
    assert [r.type for r in records].count("TranscriptHeader") == 1
    assert [r.text for r in records if isinstance(r, msgs.UserPrompt)] == ["SUB1: remember the word kiwi", "what was the word?"]
    assert again.run("three", CancelToken()).final_text == "third done"
    assert (folder / "subagent-2.jsonl").is_file()  # a new sub-agent never takes a recorded id
    again.close()
