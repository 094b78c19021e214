"""A lone surrogate from the model (`"\\ud800"` in its JSON) becomes U+FFFD where the JSON is decoded:
the answer and its tool calls stay valid UTF-8, so the transcript keeps going and the run ends well
(review of #15: "surrogates not allowed" turned the transcript off; in tool arguments the run ended
with "internal error: UnicodeEncodeError")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from loopback import Turn, chunk, text_turn, tool_turn, usage_chunk
from mrsmith_tui.provider.wire_json import loads_chunk, valid_arguments

RAW_TEXT = ('data: {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [{"index": 0, '
            '"delta": {"content": "A\\ud800B\\udfffC\\ud83d\\ude00"}, "finish_reason": null}]}\n\n')


def run_cli(loopback, tmp_path: Path, turns: list[Turn], *argv: str) -> tuple[subprocess.CompletedProcess[bytes], list[str]]:
    srv = loopback(turns)
    (tmp_path / "p").mkdir()
    env = {**os.environ, "NO_COLOR": "1", "MRSMITH_SESSIONS_DIR": str(tmp_path / "s"), "OPENAI_BASE_URL": srv.base_url,
           "MODEL": "test-model", "OPENAI_API_KEY": "sk-test"}
    done = subprocess.run([sys.executable, "-m", "mrsmith_tui", "-p", "hi", *argv], cwd=tmp_path / "p", env=env,
                          capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
    [transcript] = (tmp_path / "s").glob("*/transcript.jsonl")
    return done, [json.loads(line)["type"] for line in transcript.read_text(encoding="utf-8").splitlines()]


def test_a_lone_surrogate_in_the_text_is_a_replacement_character(loopback, tmp_path):
    turn = Turn(events=[chunk(role="assistant", content=""), RAW_TEXT, chunk(finish="stop"), usage_chunk()])
    done, types = run_cli(loopback, tmp_path, [turn])
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.decode("utf-8").strip() == "A\ufffdB\ufffdC\U0001f600"  # a whole pair stays one character
    assert types[-2:] == ["UsageReported", "RunEnded"] and "AnswerRecorded" in types


def test_a_lone_surrogate_in_tool_arguments_ends_the_run_well(loopback, tmp_path):
    turns = [tool_turn("read_file", '{"path": "x\\ud800"}'), text_turn("done")]
    done, types = run_cli(loopback, tmp_path, turns, "--json")
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    [asked] = [m for m in out if m["type"] == "ToolCallStarted"]
    assert json.loads(asked["arguments"]) == {"path": "x\ufffd"}
    assert out[-1]["type"] == "RunEnded" and out[-1]["error"] is None
    assert types.count("ToolCallFinished") == 1 and types[-1] == "RunEnded"


def test_only_json_with_such_an_escape_is_looked_at_again():
    assert loads_chunk('{"a": ["\\ud800", {"\\udc00": "ok \\\\ud800"}]}') == {"a": ["\ufffd", {"\ufffd": "ok \\ud800"}]}
    text = '{"path": "a\\\\ud800"}'  # an escaped backslash: no surrogate at all
    assert valid_arguments(text) is text and valid_arguments('{"p": "\\ud800"') == '{"p": "\\ud800"'
    assert valid_arguments('{"p": "\\udfff"}') == '{"p": "\ufffd"}'
