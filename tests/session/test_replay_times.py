"""A replayed session keeps the times and diffs of the live one (not 0.0s everywhere)."""

from __future__ import annotations

from mrsmith_tui import msgs
from mrsmith_tui.session.migrate import from_v1
from mrsmith_tui.session.replay import for_screen
from mrsmith_tui.tui.update import initial_model, update

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


def screen(records):
    """The conversation's blocks after the replay has gone through the TUI's update."""
    model = initial_model()
    for m in for_screen(from_v1(records)):
        model, _ = update(model, m)
    return model.conv.blocks


def test_replay_restores_block_times_elapsed_and_diffs():
    blocks = screen(RECORDS)
    reasoning = next(b for b in blocks if b.kind == "reasoning")
    assert (reasoning.started, reasoning.ended, reasoning.folded) == (100.0, 112.0, True)  # from the prompt: 12 s
    edit = next(b for b in blocks if b.kind == "tool" and b.name == "edit")
    assert (edit.started, edit.ended) == (114.75, 115.0) and edit.diff == DIFF and edit.ok and edit.summary == "x"
    text = next(b for b in blocks if b.kind == "text")
    assert (text.started, text.ended, text.text) == (115.0, 120.0, "done")
    shell = next(b for b in blocks if b.kind == "tool" and b.name == "shell")
    assert shell.exit_code == 2 and not shell.ok and shell.diff is None and shell.started == 121.0


def test_records_without_the_optional_fields_still_replay():
    old = [dict(r) for r in RECORDS]
    for r in old:
        for key in ("elapsed", "diff", "exit_code"):
            r.pop(key, None)
    edit = next(b for b in screen(old) if b.kind == "tool" and b.name == "edit")
    assert (edit.started, edit.ended, edit.diff) == (112.0, 115.0, None)  # asked at 112, answered at 115


def test_replayed_ids_never_meet_the_live_ones():
    out = for_screen(from_v1(RECORDS))
    runs = {m.run_id for m in out if isinstance(m, (msgs.UserPrompt, msgs.RunStarted, msgs.RunEnded))}
    calls = {m.call_id for m in out if isinstance(m, (msgs.ToolCallStarted, msgs.ToolCallFinished))}
    blocks = [(m.reasoning_block, m.text_block) for m in out if isinstance(m, msgs.AnswerRecorded)]
    assert runs == {"hrun-1"} and calls == {"hc1", "hold"} and blocks == [("hr1", ""), ("", "ht2")]
