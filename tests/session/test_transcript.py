"""The transcript writer and reader, and UUID v7 session ids."""

from __future__ import annotations

import json
import time
import uuid

from mrsmith_tui import msgs
from mrsmith_tui.session.ids import new_session_id
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


def test_header_first_then_records_in_order_one_line_each(tmp_path):
    path = tmp_path / "s" / "transcript.jsonl"
    writer = TranscriptWriter(path, header={"type": "header", "id": "x"})
    assert not path.exists()  # nothing until the first record
    writer.append({"type": "user", "run_id": "run1", "text": "hi\nthere"})
    writer.append({"type": "run_end", "run_id": "run1", "cancelled": False, "error": None})
    lines = path.read_text().splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["header", "user", "run_end"]
    assert json.loads(lines[1])["text"] == "hi\nthere" and "at" in json.loads(lines[1])
    writer.close()


def test_api_keys_never_reach_the_file(tmp_path):
    path = tmp_path / "t.jsonl"
    writer = TranscriptWriter(path, secrets=["sk-live-abcdef123"])
    writer.append({"type": "tool_result", "content": "env: KEY=sk-live-abcdef123", "nested": ["sk-live-abcdef123"]})
    text = path.read_text()
    assert "sk-live-abcdef123" not in text and text.count(REDACTED) == 2


def test_write_failure_warns_once_and_turns_persistence_off(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    sink = msgs.ListSink()
    writer = TranscriptWriter(blocker / "id" / "transcript.jsonl", sink=sink)
    writer.append({"type": "user", "text": "a"})
    writer.append({"type": "user", "text": "b"})
    warnings = sink.of(msgs.Warning)
    assert len(warnings) == 1 and warnings[0].code == "transcript"
    assert "not saved" in warnings[0].text and "\n" not in warnings[0].text
    assert writer.enabled is False


def test_read_drops_a_torn_last_line_with_a_warning(tmp_path):
    path = tmp_path / "t.jsonl"
    writer = TranscriptWriter(path, header={"type": "header", "id": "x"})
    writer.append({"type": "user", "text": "é"})
    writer.close()
    with open(path, "ab") as f:
        f.write(b'{"type": "assistant", "content": "cut he')
    records, warnings = read_transcript(path)
    assert [r["type"] for r in records] == ["header", "user"]
    assert warnings == ["t.jsonl: dropped a torn last line (line 3)"]


def test_read_skips_a_broken_middle_line_and_keeps_unknown_types(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"type": "header"}\nnot json\n{"type": "future-kind"}\n')
    records, warnings = read_transcript(path)
    assert [r["type"] for r in records] == ["header", "future-kind"]
    assert warnings == ["t.jsonl: skipped a broken record (line 2)"]
