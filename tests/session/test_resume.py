"""Rebuilding a session from its transcript: exact history, kill repair, old formats, replay, resume."""

from __future__ import annotations

import json

import pytest
from sessionkit import Factory, new_session, two_agents

from core.fakes import EchoTool, ScriptedApprover, answer, calls
from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.core.resume import resume_session
from mrsmith_tui.history import AssistantEntry, ToolCallBlock, ToolResultEntry, UserEntry, assistant
from mrsmith_tui.session.rebuild import NO_RESULT, rebuild, rebuild_history
from mrsmith_tui.session.replay import CUT_OFF, for_screen
from mrsmith_tui.session.store import SessionNotFound
from mrsmith_tui.session.transcript import read_transcript
from mrsmith_tui.tui.update import initial_model, update


def lived_session(tmp_path):
    """Two turns: reasoning, a tool round, attachments; returns the session after the runs."""
    config = two_agents(tmp_path)
    s, sink, _ = new_session(
        config, tmp_path,
        calls(("echo", {"text": "ab", "times": 2}), reasoning="let me look", content="checking"),
        answer("done: abab", reasoning="that worked"),
        answer("second answer"),
        tools=[EchoTool()],
    )
    s.run("first prompt", CancelToken())
    s.run("second prompt", CancelToken(), attachments=[("stdin", "piped text")])
    return config, s, sink


def test_rebuild_gives_back_the_history_exactly(tmp_path):
    _, s, _ = lived_session(tmp_path)
    records, warnings = read_transcript(s.transcript_path)
    assert warnings == []
    assert rebuild_history(records) == s.history
    assert any(isinstance(m, AssistantEntry) and m.reasoning == "let me look" and m.tool_calls for m in s.history)


def test_rebuild_repairs_a_tool_call_cut_by_a_kill(tmp_path):
    _, s, _ = lived_session(tmp_path)
    lines = s.transcript_path.read_text().splitlines()
    # keep up to the first answer with tool calls, then a torn half line
    upto = next(i for i, line in enumerate(lines) if '"type": "tool_call"' in line)
    s.transcript_path.write_text("\n".join(lines[: upto + 1]) + "\n" + lines[upto + 1][:17])
    records, warnings = read_transcript(s.transcript_path)
    assert len(warnings) == 1 and "torn" in warnings[0]
    history = rebuild_history(records)
    assert history[-1] == ToolResultEntry(call_id="call_1", name="echo", content=NO_RESULT)
    assert isinstance(history[-2], AssistantEntry) and history[-2].tool_calls[0].id == "call_1"


def test_a_format_0_transcript_resumes(tmp_path):
    """Format 0: a header without `format`, tool calls kept in the OpenAI shape."""
    path = tmp_path / "old" / "transcript.jsonl"
    path.parent.mkdir()
    rows = [
        {"type": "header", "at": 1.0, "id": "old-session", "created": 1.0, "cwd": str(tmp_path), "agent": "main", "model": "m1"},
        {"type": "user", "at": 2.0, "run_id": "run1", "text": "hi"},
        {"type": "assistant", "at": 3.0, "run_id": "run1", "content": "", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "echo", "arguments": '{"text": "x"}'}}]},
        {"type": "tool_result", "at": 4.0, "run_id": "run1", "tool_call_id": "c1", "name": "echo", "content": "x", "ok": True},
        {"type": "assistant", "at": 5.0, "run_id": "run1", "content": "hello"},
        {"type": "some_future_record", "at": 5.5},
        {"type": "run_end", "at": 6.0, "run_id": "run1", "cancelled": False, "error": None},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    state = rebuild(read_transcript(path)[0])
    assert state.format == 0 and state.runs == 1
    assert state.history == [
        UserEntry(text="hi"),
        assistant(tool_calls=(ToolCallBlock(id="c1", name="echo", arguments='{"text": "x"}'),)),
        ToolResultEntry(call_id="c1", name="echo", content="x"),
        assistant("hello"),
    ]
    sink = msgs.ListSink()
    factory = Factory(answer("again"))
    s = resume_session(config=two_agents(tmp_path), cwd=tmp_path, sink=sink, approver=ScriptedApprover(),
                       target=path, provider_factory=factory)
    assert s.run("more", CancelToken()).final_text == "again"
    sent = factory.requests[-1].messages
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "assistant", "user"]
    lines = [json.loads(line)["type"] for line in path.read_text().splitlines()]
    assert lines[:len(rows)] == [r["type"] for r in rows]  # kept as written
    assert lines[len(rows):] == ["TranscriptHeader", "AgentChanged", "UserPrompt", "RunStarted", "PromptRecorded",
                                 "AnswerRecorded", "UsageReported", "RunEnded"]  # then format 2, once said (the old
    # header named no provider: going on with "p" is a change)
    assert rebuild_history(read_transcript(path)[0]) == s.history


def blocks(stream):
    """What the TUI draws of a stream of Msgs (its `update`): each block's kind and what it shows."""
    model = initial_model()
    for m in stream:
        model, _ = update(model, m)
    return [(b.kind, b.text, b.name, b.arguments, b.ok, b.diff) for b in model.conv.blocks]


def test_replay_draws_the_same_blocks_as_the_live_run(tmp_path):
    _, s, sink = lived_session(tmp_path)
    records, _ = read_transcript(s.transcript_path)
    replay = for_screen(records, context_limit=128_000)
    assert blocks(replay) == blocks(sink.msgs)
    assert ("user", "second prompt", "", "", None, None) in blocks(replay)  # the attachment is not shown as the prompt
    live_ids = {m.block_id for m in sink.msgs if isinstance(m, msgs.BlockEnded)}
    assert not live_ids & {m.text_block for m in replay if isinstance(m, msgs.AnswerRecorded)}
    assert replay[0].at == records[1].at  # replayed Msgs carry the recorded times


def test_the_live_screen_draws_each_answer_once():
    """AnswerRecorded after the streamed blocks changes nothing; without them (a replay) it draws them."""
    streamed = [msgs.ReasoningDelta(block_id="r1", text="hm", at=1.0), msgs.BlockEnded(block_id="r1", kind="reasoning",
                text="hm", at=2.0), msgs.TextDelta(block_id="t2", text="hi", at=2.0),
                msgs.BlockEnded(block_id="t2", kind="text", text="hi", at=3.0)]
    answer_ = msgs.AnswerRecorded(run_id="run1", entry=assistant("hi", "hm"), started=1.0, reasoning_block="r1",
                                  text_block="t2", at=3.0)
    assert blocks(streamed + [answer_]) == blocks(streamed) == blocks([answer_])
    assert len(blocks([answer_])) == 2


def test_replay_closes_a_turn_cut_by_a_kill(tmp_path):
    _, s, _ = lived_session(tmp_path)
    lines = s.transcript_path.read_text().splitlines()
    upto = next(i for i, line in enumerate(lines) if '"type": "tool_call"' in line)
    s.transcript_path.write_text("\n".join(lines[: upto + 1]) + "\n")
    replay = for_screen(read_transcript(s.transcript_path)[0])
    finished = [m for m in replay if isinstance(m, msgs.ToolCallFinished)]
    assert finished and finished[-1].result == NO_RESULT and not finished[-1].ok
    assert isinstance(replay[-2], msgs.Notice) and replay[-2].text == CUT_OFF
    assert isinstance(replay[-1], msgs.RunEnded) and replay[-1].cancelled


def test_resume_goes_on_in_the_same_transcript_with_the_whole_history(tmp_path):
    config, s, _ = lived_session(tmp_path)
    before = list(s.history)
    s.close()
    sink = msgs.ListSink()
    factory = Factory(answer("third answer"))
    r = resume_session(config=config, cwd=tmp_path, sink=sink, approver=ScriptedApprover(),
                       target=s.session_id[:20], provider_factory=factory, replay=True)
    assert r.session_id == s.session_id and r.transcript_path == s.transcript_path
    assert r.history == before
    assert r.ledger.context_tokens == s.ledger.context_tokens and r.ledger.total == s.ledger.total
    started = [m for m in sink.msgs if isinstance(m, msgs.SessionStarted)]
    assert started[-1].resumed and started[-1].session_id == s.session_id
    assert any(isinstance(m, msgs.AnswerRecorded) and m.entry.text == "done: abab" for m in sink.msgs)  # replayed
    r.run("third prompt", CancelToken())
    sent = factory.requests[-1].messages
    assert sent[1]["content"] == "first prompt" and sent[-1]["content"] == "third prompt"
    records, warnings = read_transcript(r.transcript_path)
    assert warnings == [] and [x.type for x in records].count("TranscriptHeader") == 1
    runs = [x.run_id for x in records if isinstance(x, msgs.PromptRecorded)]
    assert len(set(runs)) == 3  # the new run id does not repeat a recorded one
    assert not any(isinstance(x, msgs.AgentChanged) for x in records)
    assert rebuild_history(records) == r.history


def test_resume_newest_in_folder_and_on_another_agent_says_so(tmp_path):
    config, s, _ = lived_session(tmp_path)
    s.close()
    sink = msgs.ListSink()
    r = resume_session(config=config, cwd=tmp_path, sink=sink, approver=ScriptedApprover(),
                       agent_name="other", provider_factory=Factory(answer("x")))
    assert r.session_id == s.session_id and r.agent.name == "other"
    notes = [m.text for m in sink.of(msgs.Notice)]
    assert "continuing on agent other (model m2 on q) — started on main (m1 on p)" in notes
    records, _ = read_transcript(r.transcript_path)
    assert records[-1] == msgs.AgentChanged(agent="other", model="m2", provider="q", protocol="openai", at=records[-1].at)
    # resumed again without asking: it goes on with the agent it was last on, without a new switch
    r.close()
    sink2 = msgs.ListSink()
    r2 = resume_session(config=config, cwd=tmp_path, sink=sink2, approver=ScriptedApprover(),
                        provider_factory=Factory(answer("x")))
    assert r2.agent.name == "other"
    assert not any("continuing on" in m.text for m in sink2.of(msgs.Notice))


def test_resume_errors_are_one_clear_line(tmp_path):
    config = two_agents(tmp_path)
    kw = dict(config=config, cwd=tmp_path, sink=msgs.ListSink(), approver=ScriptedApprover(), provider_factory=Factory())
    with pytest.raises(SessionNotFound, match="no session was started in"):
        resume_session(**kw)
    with pytest.raises(SessionNotFound, match="no session id starts with 'zzz'"):
        resume_session(**kw, target="zzz")
    empty = tmp_path / "sessions" / "x" / "transcript.jsonl"
    empty.parent.mkdir(parents=True)
    empty.write_text('{"type": "hea')
    with pytest.raises(SessionNotFound, match="holds no records"):
        resume_session(**kw, target=empty)


def test_resume_after_a_torn_last_line_appends_whole_records(tmp_path):
    config, s, _ = lived_session(tmp_path)
    s.close()
    path = s.transcript_path
    data = path.read_bytes()
    path.write_bytes(data + b'{"type": "AnswerRecorded", "run_id": "run9", "ent')
    r = resume_session(config=config, cwd=tmp_path, sink=msgs.ListSink(), approver=ScriptedApprover(),
                       provider_factory=Factory(answer("after the tear")))
    r.run("go on", CancelToken())
    records, warnings = read_transcript(path)
    assert warnings == []  # the torn bytes were cut before appending
    assert [x for x in records if isinstance(x, msgs.AnswerRecorded)][-1].entry.text == "after the tear"


def test_resume_keeps_a_whole_last_record_that_lacks_its_newline(tmp_path):
    config, s, _ = lived_session(tmp_path)
    s.close()
    path = s.transcript_path
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    count = len(read_transcript(path)[0])
    r = resume_session(config=config, cwd=tmp_path, sink=msgs.ListSink(), approver=ScriptedApprover(),
                       provider_factory=Factory(answer("x")))
    r.run("go on", CancelToken())
    records, warnings = read_transcript(path)
    assert warnings == [] and len(records) > count and isinstance(records[count - 1], msgs.RunEnded)


def test_a_tool_result_is_recorded_as_the_screen_got_it(tmp_path):
    _, s, sink = lived_session(tmp_path)
    records, _ = read_transcript(s.transcript_path)
    recorded = next(r for r in records if isinstance(r, msgs.ToolCallFinished))
    live = next(m for m in sink.msgs if isinstance(m, msgs.ToolCallFinished))
    assert recorded == live and recorded.ok and recorded.elapsed == live.elapsed
    replayed = next(m for m in for_screen(records) if isinstance(m, msgs.ToolCallFinished))
    assert replayed.elapsed == live.elapsed and replayed.call_id == "h" + live.call_id


def test_a_kill_between_the_prompt_and_its_record_counts_the_turn_as_the_screen_does():
    # the kill test's window: UserPrompt written, the process killed before PromptRecorded
    records = [
        msgs.UserPrompt(run_id="run1", text="first", at=1.0),
        msgs.PromptRecorded(run_id="run1", entry=UserEntry(text="first"), at=1.0),
        msgs.RunEnded(run_id="run1", at=2.0),
        msgs.UserPrompt(run_id="run2", text="killed before its record", at=3.0),
    ]
    state = rebuild(records)
    replayed = for_screen(records)
    assert state.runs == 2 == sum(isinstance(m, msgs.RunEnded) for m in replayed)
    assert state.last_run_number == 2  # the next turn is run3, never a second run2
    assert [e.text for e in state.history if isinstance(e, UserEntry)] == ["first"]
