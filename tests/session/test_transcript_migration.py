"""Transcripts of every format still resume and render the same.

tests/fixtures/transcripts/v1 was written before #15 (format 1: record dicts) by make_fixture.py
with the code of that time, v2 by the same script after it (format 2: serialised Msgs); each keeps
what its code made of it. Both must give, today, the same history, the same next request, the
same Markdown and the same screen; and the two formats of the same scripted session the same
picture (durations aside: they are the times of two different runs). A headless `--json` run of
the same script prints the same stream as before #15.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fixtures.transcripts import make_fixture, readings
from fixtures.transcripts.normalise import normalise
from loopback import LoopbackServer

FIXTURES = Path(make_fixture.__file__).resolve().parent
VERSIONS = ["v1", "v2"]


@pytest.fixture
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture(params=VERSIONS)
def fixture(request, tmp_path):
    transcript, work = readings.install(request.param, tmp_path)
    return request.param, transcript, work, tmp_path


def expected(version: str, name: str):
    text = (FIXTURES / version / "expected" / name).read_text()
    return json.loads(text) if name.endswith(".json") else text


def test_the_v1_fixture_holds_every_record_type():
    types = {json.loads(line)["type"] for line in (FIXTURES / "v1" / "transcript.jsonl").read_text().splitlines()}
    assert types == {"header", "user", "assistant", "tool_result", "usage", "error", "warning", "run_end", "skill",
                     "compaction", "agent_switch"}


def test_the_v2_fixture_holds_every_recorded_msg():
    types = {json.loads(line)["type"] for line in (FIXTURES / "v2" / "transcript.jsonl").read_text().splitlines()}
    assert types == {"TranscriptHeader", "UserPrompt", "RunStarted", "PromptRecorded", "AnswerRecorded",
                     "ToolCallFinished", "UsageReported", "Warning", "Error", "RunEnded", "ContextAdded", "Compacted",
                     "AgentChanged"}


def test_a_transcript_rebuilds_the_same_history(fixture):
    version, transcript, work, _ = fixture
    assert readings.portable(readings.rebuilt(transcript), work) == expected(version, "rebuilt.json")
    sub = readings.subagent_history(transcript.parent / "subagent-1.jsonl")
    assert readings.portable(sub, work) == expected(version, "subagent_history.json")


def test_a_transcript_resumes_with_the_same_next_request(fixture):
    version, transcript, work, root = fixture
    assert readings.portable(readings.next_request(transcript, work, root), work) == expected(version, "next_request.json")


def test_a_transcript_exports_the_same_markdown(fixture, utc):
    version, transcript, work, _ = fixture
    assert readings.portable(readings.export_text(transcript), work) == expected(version, "export.md")


def test_a_transcript_renders_the_same_in_the_tui(fixture):
    version, transcript, work, root = fixture
    text, svg = readings.tui_text(transcript, work, root)
    assert readings.portable(text, work) == expected(version, "tui.txt")
    assert _same_svg(readings.portable(svg, work)) == _same_svg(expected(version, "tui.svg"))


def test_view_to_a_pipe_prints_the_same_markdown(fixture):
    version, transcript, work, root = fixture
    proc = subprocess.run([sys.executable, "-m", "mrsmith_tui", "view", str(transcript)], capture_output=True,
                          text=True, cwd=work, timeout=120,
                          env=make_fixture.prepare("http://127.0.0.1:9/v1", root / "cli") | {"TZ": "UTC"})
    assert proc.returncode == 0, proc.stderr
    assert readings.portable(proc.stdout, work) == expected(version, "export.md")


def test_both_formats_of_one_session_read_the_same():
    """The same scripted session in format 1 and in format 2: the same history, request, Markdown and screen."""
    for name in ("rebuilt.json", "subagent_history.json", "next_request.json"):
        assert expected("v1", name) == expected("v2", name), name
    assert _timeless(expected("v1", "export.md")) == _timeless(expected("v2", "export.md"))
    assert _timeless(expected("v1", "tui.txt")) == _timeless(expected("v2", "tui.txt"))
    assert _stream("v1") == _stream("v2")


def test_the_json_stream_of_a_scripted_run_is_unchanged(tmp_path):
    with LoopbackServer(make_fixture.run1_turns()) as srv:
        env = make_fixture.prepare(srv.base_url, tmp_path)
        proc = make_fixture.run(env, *make_fixture.RUN1, root=tmp_path)
    assert proc.returncode == 0, proc.stderr
    stream = normalise([json.loads(line) for line in proc.stdout.splitlines() if line.strip()])
    want = normalise([json.loads(line) for line in expected("v1", "json_run1.jsonl").splitlines()])
    assert readings.portable(stream, tmp_path / "project") == want


def _stream(version: str) -> list[dict]:
    return normalise([json.loads(line) for line in expected(version, "json_run1.jsonl").splitlines()])


def _same_svg(svg: str) -> str:
    """The screenshot without the id Textual draws at random for its CSS classes."""
    return re.sub(r"terminal-\d+", "terminal-N", svg)


def _timeless(text: str) -> str:
    """What two runs of one script do not share: their session id, start time and durations."""
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>", text)
    text = re.sub(r"started: \d{4}-\d\d-\d\d \d\d:\d\d", "started: <time>", text)
    return re.sub(r"\b\d+\.\d+s\b", "<s>", text)
