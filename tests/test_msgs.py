"""The Msg vocabulary: frozen pydantic models with a `type` tag, built by keyword, that go to JSON and back."""

from __future__ import annotations

import json
import time
import typing

import pytest
from pydantic import ValidationError

from mrsmith_tui import history
from mrsmith_tui import msgs as m

USAGE = m.UsageInfo(prompt_tokens=10, completion_tokens=5, cached_tokens=2, reasoning_tokens=1, estimated=True)

EXAMPLES: list[m.Msg] = [
    m.SessionStarted(session_id="s1", transcript_path="/t.jsonl", agent="a", model="m", provider="p", cwd="/w",
                     resumed=True),
    m.UserPrompt(run_id="run1", text="hi"),
    m.RunStarted(run_id="run1", agent="a", model="m"),
    m.RunEnded(run_id="run1", cancelled=True, error="boom", reason="max_rounds", skipped_chunks=2),
    m.ReasoningDelta(block_id="r1", text="hmm"),
    m.TextDelta(block_id="t1", text="hello"),
    m.BlockEnded(block_id="t1", kind="text", text="hello"),
    m.ToolCallStarted(call_id="c1", name="shell", arguments='{"command": "ls"}', summary="ls"),
    m.ToolOutput(call_id="c1", text="a\n"),
    m.ToolCallFinished(call_id="c1", name="shell", ok=False, result="x", exit_code=2, diff="--- a", elapsed=0.5,
                       denied=True),
    m.JobStarted(job_id="job-1", pid=42, command="sleep 9", log="/l", detach=True),
    m.JobEnded(job_id="job-1", pid=42, exit_code=-9),
    m.UsageReported(usage=USAGE, context_tokens=15, context_limit=100),
    m.ToolBudget(used=1, limit=None),
    m.Warning(text="careful", code="context-85"),
    m.Error(text="bad"),
    m.Notice(text="fyi"),
    m.ApprovalRequested(request_id="q1", tool="write_file", arguments="{}", reason="writes", spec="write_file",
                        diff="+x", agent_id="agent-1", rule="writes"),
    m.ContinueRequested(request_id="q2", rounds=32, agent_id=None),
    m.QuestionRequested(request_id="q3", questions=(m.Question(question="which?", options=(
        m.QuestionOption(label="red", description="warm"),), multiple=True),)),
    m.RequestResolved(request_id="q1", answer="yes"),
    m.PermissionsInForce(specs=(m.Allowed(spec="write_file", origin="--allow"),), approve_all=True),
    m.TasksChanged(todos=(m.Todo(content="a", status="completed", priority="high"),)),
    m.SkillLoaded(name="plan", path="/s/plan"),
    m.AgentSpawned(agent_id="agent-1", label="docs", task="write", background=False, parent_id="agent-0"),
    m.AgentStateChanged(agent_id="agent-1", state="failed", detail="oops"),
    m.FromAgent(agent_id="agent-1", msg=m.FromAgent(agent_id="subagent-2", msg=m.TextDelta(block_id="t9", text="x"))),
    m.TranscriptHeader(format=2, session_id="s1", created=1.0, cwd="/w", agent="a", model="m", provider="p",
                       version="0.1.0", agent_id="agent-1", parent_id=None, background=True, label="docs"),
    m.PromptRecorded(run_id="run1", entry=history.UserEntry(text="hi"), attachments=("stdin",)),
    m.AnswerRecorded(run_id="run1", entry=history.assistant("yes", "hmm", "sig", tool_calls=(
        history.ToolCallBlock(id="c1", name="shell", arguments='{"command": "ls"}'),), partial=False), model="m",
        started=1.5, reasoning_block="r1", text_block="t2"),
    m.ContextAdded(entry=history.UserEntry(text="<skill>", kind="context"), skill="plan", path="/s", body="b"),
    m.Compacted(summary="s", replaces=4, context_tokens=100),
    m.AgentChanged(agent="a", model="m", provider="p"),
    m.McpServerChanged(name="demo", state="failed", tools=0, error="cannot start", source="project", transport="stdio"),
    m.MentionsRead(attached=("src/a.py (1 line, 4 bytes)",), refused=("@.env: not attached (you said no)",)),
    m.CommandRan(command="make test", output="ok\n[exit code 0]", exit_code=0, cancelled=False),
    m.PermissionModeChanged(mode="plan"),
]


def union_members() -> set[type]:
    union = typing.get_args(m.AnyMsg)[0]
    return set(typing.get_args(union))


def test_every_msg_has_an_example():
    assert {type(x) for x in EXAMPLES} == union_members()


@pytest.mark.parametrize("msg", EXAMPLES, ids=lambda x: type(x).__name__)
def test_a_msg_goes_to_json_and_back(msg):
    data = m.to_json(msg)
    assert list(data)[:2] == ["type", "at"] and data["type"] == type(msg).__name__
    line = json.dumps(data)
    assert m.from_json(line) == msg
    assert m.from_json(json.loads(line)) == msg


def test_the_tag_is_the_class_name():
    for cls in union_members():
        assert cls.__dict__["type"] == cls.__name__
        assert typing.get_args(typing.get_type_hints(cls)["type"]) == (cls.__name__,)


def test_to_json_keeps_the_shape_of_the_json_stream():
    """The `--json` API: tuples as lists, records as plain objects, nested Msgs with their own tag."""
    msg = m.FromAgent(agent_id="a", msg=m.UsageReported(usage=USAGE, context_tokens=3, at=2.0), at=1.0)
    assert m.to_json(msg) == {
        "type": "FromAgent", "at": 1.0, "agent_id": "a",
        "msg": {"type": "UsageReported", "at": 2.0, "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                "cached_tokens": 2, "reasoning_tokens": 1, "estimated": True, "cache_reported": True}, "context_tokens": 3, "context_limit": 0},
    }
    assert m.to_json(m.PermissionsInForce(specs=(m.Allowed(spec="x", origin="config"),), at=1.0)) == {
        "type": "PermissionsInForce", "at": 1.0, "specs": [{"spec": "x", "origin": "config"}], "approve_all": False}


def test_construction_is_by_keyword_only_and_frozen():
    with pytest.raises(TypeError):
        m.TextDelta("t1", "x")  # type: ignore[misc]
    with pytest.raises(TypeError):
        m.UsageInfo(1, 2)  # type: ignore[misc]
    with pytest.raises(TypeError, match="unknown field 'colour'"):
        m.TextDelta(block_id="t1", text="x", colour="red")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="missing field 'text'"):
        m.TextDelta(block_id="t1")  # type: ignore[call-arg]
    msg = m.TextDelta(block_id="t1", text="x")
    with pytest.raises(AttributeError):
        msg.text = "y"  # type: ignore[misc]
    with pytest.raises(ValidationError):  # what is read back is checked
        m.from_json({**m.to_json(msg), "colour": "red"})


def test_at_is_the_time_it_was_made():
    before = time.time()
    made = m.Notice(text="x").at
    assert before <= made <= time.time()
    assert m.Notice(text="x", at=7).at == 7.0


def test_usage_adds_up():
    total = USAGE + m.UsageInfo(prompt_tokens=1)
    assert total == m.UsageInfo(prompt_tokens=11, completion_tokens=5, cached_tokens=2, reasoning_tokens=1,
                                estimated=True)


def test_msgs_and_history_entries_are_hashable_values():
    entry = history.assistant("hi", "because")
    assert entry == history.assistant("hi", "because")
    assert len({m.Notice(text="x", at=1.0), m.Notice(text="x", at=1.0)}) == 1
