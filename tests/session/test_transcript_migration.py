"""A transcript written before #15 (tests/fixtures/transcripts/v1, made by make_v1.py with the code
of that time) still resumes and renders the same: the same history, the same next request, the same
Markdown, the same screen. And a headless `--json` run of the same script prints the same stream."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fixtures.transcripts import make_v1, readings
from fixtures.transcripts.normalise import normalise
from loopback import LoopbackServer

EXPECTED = Path(make_v1.__file__).resolve().parent / "v1" / "expected"


@pytest.fixture
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def fixture(tmp_path):
    transcript, work = readings.install("v1", tmp_path)
    return transcript, work, tmp_path


def expected(name: str):
    text = (EXPECTED / name).read_text()
    return json.loads(text) if name.endswith(".json") else text


def test_the_v1_fixture_holds_every_record_type():
    types = {json.loads(line)["type"] for line in (EXPECTED.parent / "transcript.jsonl").read_text().splitlines()}
    assert types == {"header", "user", "assistant", "tool_result", "usage", "error", "warning", "run_end", "skill",
                     "compaction", "agent_switch"}


def test_a_v1_transcript_rebuilds_the_same_history(fixture):
    transcript, work, _ = fixture
    assert readings.portable(readings.rebuilt(transcript), work) == expected("rebuilt.json")
    sub = readings.subagent_history(transcript.parent / "subagent-1.jsonl")
    assert readings.portable(sub, work) == expected("subagent_history.json")


def test_a_v1_transcript_resumes_with_the_same_next_request(fixture):
    transcript, work, root = fixture
    assert readings.portable(readings.next_request(transcript, work, root), work) == expected("next_request.json")


def test_a_v1_transcript_exports_the_same_markdown(fixture, utc):
    transcript, work, _ = fixture
    assert readings.portable(readings.export_text(transcript), work) == expected("export.md")


def test_a_v1_transcript_renders_the_same_in_the_tui(fixture):
    transcript, work, root = fixture
    text, svg = readings.tui_text(transcript, work, root)
    assert readings.portable(text, work) == expected("tui.txt")
    assert _same_svg(readings.portable(svg, work)) == _same_svg(expected("tui.svg"))


def test_view_to_a_pipe_prints_the_same_markdown(fixture, utc):
    transcript, work, root = fixture
    proc = subprocess.run([sys.executable, "-m", "mrsmith_tui", "view", str(transcript)], capture_output=True,
                          text=True, cwd=work, timeout=120,
                          env=make_v1.prepare("http://127.0.0.1:9/v1", root / "cli") | {"TZ": "UTC"})
    assert proc.returncode == 0, proc.stderr
    assert readings.portable(proc.stdout, work) == expected("export.md")


def test_the_json_stream_of_a_scripted_run_is_unchanged(tmp_path):
    with LoopbackServer(make_v1.run1_turns()) as srv:
        env = make_v1.prepare(srv.base_url, tmp_path)
        proc = make_v1.run(env, *make_v1.RUN1, root=tmp_path)
    assert proc.returncode == 0, proc.stderr
    stream = normalise([json.loads(line) for line in proc.stdout.splitlines() if line.strip()])
    want = normalise([json.loads(line) for line in expected("json_run1.jsonl").splitlines()])
    assert readings.portable(stream, tmp_path / "project") == want


def _same_svg(svg: str) -> str:
    """The screenshot without the id Textual draws at random for its CSS classes."""
    return re.sub(r"terminal-\d+", "terminal-N", svg)
