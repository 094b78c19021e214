"""The transcript writer and reader, and UUID v7 session ids."""

from __future__ import annotations

import json
import time
import uuid

from mrsmith_tui import history, msgs
from mrsmith_tui.session import records
from mrsmith_tui.session.session_ids import new_session_id
from mrsmith_tui.session.transcript import REDACTED, TranscriptWriter, read_transcript


def test_uuid7_layout():
    before = time.time_ns() // 1_000_000
    value = uuid.UUID(new_session_id())
    after = time.time_ns() // 1_000_000
    assert value.version == 7
    assert value.variant == uuid.RFC_4122  # variant bits 10
    assert before <= value.int >> 80 <= after + 1  # 48-bit unix milliseconds up front


def test_uuid7_is_unique_and_time_ordered_within_a_process():
    ids = [new_session_id() for _ in range(5000)]  # many per millisecond
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)


def header(**kw) -> msgs.TranscriptHeader:
    return records.header(session_id="x", created=1.0, cwd="/w", agent="a", model="m", provider="p", **kw)


def test_header_first_then_msgs_in_order_one_line_each(tmp_path):
    path = tmp_path / "s" / "transcript.jsonl"
    writer = TranscriptWriter(path, header=header())
    assert not path.exists()  # nothing until the first Msg
    writer.append(msgs.UserPrompt(run_id="run1", text="hi\nthere", at=2.0))
    writer.append(msgs.RunEnded(run_id="run1", at=3.0))
    lines = path.read_text().splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["TranscriptHeader", "UserPrompt", "RunEnded"]
    assert json.loads(lines[0])["format"] == records.FORMAT_VERSION == 2
    assert json.loads(lines[1]) == {"type": "UserPrompt", "at": 2.0, "run_id": "run1", "text": "hi\nthere"}
    assert path.stat().st_mode & 0o777 == 0o600 and path.parent.stat().st_mode & 0o777 == 0o700
    writer.close()
    assert read_transcript(path) == ([header(), msgs.UserPrompt(run_id="run1", text="hi\nthere", at=2.0),
                                      msgs.RunEnded(run_id="run1", at=3.0)], [])


def test_every_msg_a_transcript_holds_is_read_back_the_same_and_no_other_is_written(tmp_path):
    from test_msgs import EXAMPLES  # tests/ is on sys.path

    every = [header(agent_id="agent-1", parent_id="agent-0", background=True, label="l"), *EXAMPLES]
    assert {type(m) for m in every} == set(msgs.MSG_TYPES.values())
    path = tmp_path / "t.jsonl"
    writer = TranscriptWriter(path)
    for m in every:
        writer.append(m)
    held = [m for m in every if m.type in records.TRANSCRIPT_TYPES]
    assert {m.type for m in held} == records.TRANSCRIPT_TYPES
    assert read_transcript(path) == (held, [])


# Msgs that are never written: a transcript from elsewhere holding them must not bring them back.
NOT_HELD = [
    {"type": "ApprovalRequested", "at": 2.0, "request_id": "req-1", "tool": "write_file", "arguments": "{}", "reason": "r"},
    {"type": "ContinueRequested", "at": 2.0, "request_id": "req-1", "rounds": 50},
    {"type": "QuestionRequested", "at": 2.0, "request_id": "req-2", "questions": []},
    {"type": "RequestResolved", "at": 2.0, "request_id": "req-1", "answer": "yes"},
    {"type": "PermissionsInForce", "at": 2.0, "specs": [], "approve_all": True},
    {"type": "SessionStarted", "at": 2.0, "session_id": "zz", "agent": "evil", "model": "m"},
    {"type": "JobStarted", "at": 2.0, "job_id": "j1", "pid": 1, "command": "x", "log": "/etc/passwd"},
    {"type": "FromAgent", "at": 2.0, "agent_id": "agent-1",
     "msg": {"type": "ContinueRequested", "at": 2.0, "request_id": "req-1", "rounds": 50}},
    {"type": "Notice", "at": 2.0, "text": "not a transcript's"},
]


def test_readers_skip_the_msgs_a_transcript_never_holds(tmp_path):
    from mrsmith_tui.session.export import export_markdown
    from mrsmith_tui.session.replay import for_screen

    path = tmp_path / "s" / "transcript.jsonl"
    path.parent.mkdir()
    kept = msgs.UserPrompt(run_id="run1", text="hello", at=2.0)
    path.write_text("".join(json.dumps(line) + "\n" for line in [msgs.to_json(header()), *NOT_HELD, msgs.to_json(kept)]))
    found, warnings = read_transcript(path)
    assert found == [header(), kept] and warnings == []
    assert [m.type for m in for_screen(found)] == ["UserPrompt", "Notice", "RunEnded"]  # cut off: no RunEnded kept
    assert "req-1" not in export_markdown(found)


def test_the_replay_to_the_screen_never_carries_a_msg_a_transcript_does_not_hold():
    from mrsmith_tui.session.replay import for_screen

    handed = [header(), msgs.UserPrompt(run_id="run1", text="hi", at=2.0)] + [msgs.from_json(d) for d in NOT_HELD]
    shown = for_screen(handed)
    assert [m.type for m in shown] == ["UserPrompt", "Notice", "RunEnded"]


def test_api_keys_never_reach_the_file(tmp_path):
    path = tmp_path / "t.jsonl"
    writer = TranscriptWriter(path, secrets=["sk-live-abcdef123"])
    writer.append(msgs.ToolCallFinished(call_id="c", name="shell", ok=True, result="env: KEY=sk-live-abcdef123"))
    writer.append(msgs.AnswerRecorded(run_id="run1", entry=history.assistant("the key is sk-live-abcdef123")))
    text = path.read_text()
    assert "sk-live-abcdef123" not in text and text.count(REDACTED) == 2


def test_write_failure_warns_once_and_turns_persistence_off(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    sink = msgs.ListSink()
    writer = TranscriptWriter(blocker / "id" / "transcript.jsonl", sink=sink)
    writer.append(msgs.UserPrompt(run_id="run1", text="a"))
    writer.append(msgs.UserPrompt(run_id="run2", text="b"))
    warnings = sink.of(msgs.Warning)
    assert len(warnings) == 1 and warnings[0].code == "transcript"
    assert "not saved" in warnings[0].text and "\n" not in warnings[0].text
    assert writer.enabled is False


def test_read_drops_a_torn_last_line_with_a_warning(tmp_path):
    path = tmp_path / "t.jsonl"
    writer = TranscriptWriter(path, header=header())
    writer.append(msgs.UserPrompt(run_id="run1", text="é"))
    writer.close()
    with open(path, "ab") as f:
        f.write(b'{"type": "AnswerRecorded", "run_id": "run1", "entry": {"role": "assistant", "blocks": [{"ty')
    found, warnings = read_transcript(path)
    assert [m.type for m in found] == ["TranscriptHeader", "UserPrompt"]
    assert warnings == ["t.jsonl: dropped a torn last line (line 3)"]


def test_read_skips_broken_lines_and_unknown_types(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(msgs.to_json(header())) + "\nnot json\n"
                    '{"type": "FutureKind", "at": 1.0}\n'
                    '{"type": "UserPrompt", "at": 1.0, "text": "no run id"}\n'
                    '{"type": "Warning", "at": 2.0, "text": "kept", "colour": "a newer field"}\n')
    found, warnings = read_transcript(path)
    assert found == [header(), msgs.Warning(text="kept", at=2.0)]
    assert warnings == ["t.jsonl: skipped a broken record (line 2)", "t.jsonl: skipped a broken record (line 4)"]


def test_an_older_transcript_goes_on_in_format_2_after_a_header_that_says_so(tmp_path):
    path = tmp_path / "sid" / "transcript.jsonl"
    path.parent.mkdir()
    path.write_text(json.dumps({"type": "header", "at": 1.0, "format": 1, "id": "sid", "created": 1.0, "cwd": "/w",
                                "agent": "a", "model": "m", "provider": "p"}) + "\n"
                    + json.dumps({"type": "user", "at": 2.0, "run_id": "run1", "text": "old"}) + "\n")
    writer = TranscriptWriter(path)  # a resume: no header of its own
    writer.append(msgs.UserPrompt(run_id="run2", text="new", at=3.0))
    writer.close()
    types = [json.loads(line)["type"] for line in path.read_text().splitlines()]
    assert types == ["header", "user", "TranscriptHeader", "UserPrompt"]
    found, warnings = read_transcript(path)
    assert warnings == [] and [m.type for m in found] == [
        "TranscriptHeader", "UserPrompt", "RunStarted", "PromptRecorded", "TranscriptHeader", "UserPrompt"]
    first, marker = found[0], found[4]
    assert isinstance(first, msgs.TranscriptHeader) and first.format == 1
    assert isinstance(marker, msgs.TranscriptHeader) and marker.format == 2
    assert (marker.session_id, marker.cwd, marker.agent, marker.created) == ("sid", "/w", "a", 1.0)
    assert path.stat().st_mode & 0o777 == 0o600
    writer = TranscriptWriter(path)  # and a second resume writes no second one
    writer.append(msgs.RunEnded(run_id="run2"))
    assert [json.loads(line)["type"] for line in path.read_text().splitlines()].count("TranscriptHeader") == 1
