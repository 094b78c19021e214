"""A replayed session keeps the times and diffs of the live one (not 0.0s everywhere)."""

from __future__ import annotations

from mrsmith_tui import msgs
from mrsmith_tui.session.resume import replay_msgs

DIFF = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"

RECORDS = [
    {"type": "header", "at": 100.0, "format": 1, "id": "s", "agent": "default", "model": "m"},
    {"type": "user", "at": 100.0, "run_id": "run-1", "text": "change x"},
    {"type": "assistant", "at": 112.0, "run_id": "run-1", "content": "", "reasoning": "think\nmore",
     "tool_calls": [{"id": "c1", "name": "edit", "arguments": '{"path": "x"}'}]},
    {"type": "tool_result", "at": 115.0, "run_id": "run-1", "tool_call_id": "c1", "name": "edit", "content": "ok",
     "ok": True, "elapsed": 0.25, "diff": DIFF},
    {"type": "assistant", "at": 120.0, "run_id": "run-1", "content": "done", "tool_calls": []},
    {"type": "tool_result", "at": 121.0, "run_id": "run-1", "tool_call_id": "old", "name": "shell", "content": "x",
     "ok": False, "exit_code": 2},
    {"type": "run_end", "at": 121.0, "run_id": "run-1"},
]


def test_replay_restores_block_times_elapsed_and_diffs():
    out = replay_msgs(RECORDS)
    reasoning = next(m for m in out if isinstance(m, msgs.ReasoningDelta))
    ended = next(m for m in out if isinstance(m, msgs.BlockEnded) and m.kind == "reasoning")
    assert (reasoning.at, ended.at) == (100.0, 112.0)  # from the prompt to the message's end: 12 s
    edit = next(m for m in out if isinstance(m, msgs.ToolCallFinished) and m.name == "edit")
    assert edit.elapsed == 0.25 and edit.diff == DIFF and edit.ok
    started = next(m for m in out if isinstance(m, msgs.ToolCallStarted) and m.name == "edit")
    assert started.at == 112.0
    shell = next(m for m in out if isinstance(m, msgs.ToolCallFinished) and m.name == "shell")
    assert shell.exit_code == 2 and not shell.ok and shell.diff is None


def test_records_without_the_optional_fields_still_replay():
    old = [dict(r) for r in RECORDS]
    for r in old:
        for key in ("elapsed", "diff", "exit_code"):
            r.pop(key, None)
    edit = next(m for m in replay_msgs(old) if isinstance(m, msgs.ToolCallFinished) and m.name == "edit")
    assert edit.elapsed == 3.0 and edit.diff is None  # asked at 112, answered at 115
