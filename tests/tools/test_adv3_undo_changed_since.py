"""Adversary (#25, /undo): a file changed since the turn that wrote it (the person edited it, a command
appended to it, it was deleted) was put back without a word: the confirmation said "put back as it was"
and the person's later work was gone. Now the plan (the TUI's question) and the outcome say which files
changed since, and a file left as the turn left it says nothing more. Generated table: how it changed x
how the turn made it x which tool x what it held."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.tools.checkpoints import Checkpoints
from mrsmith_tui.tools.edit import EditTool
from mrsmith_tui.tools.undo import CHANGED_NOTE, plan_lines, recorded_turns, undo
from mrsmith_tui.tools.write_file import WriteFileTool

CHANGES = {  # name: (what it does to the file after the turn, whether that is a change)
    "untouched": (lambda p: None, False),
    "same-bytes-again": (lambda p: p.write_bytes(p.read_bytes()), False),
    "person-edit": (lambda p: p.write_text(p.read_text() + "my own work\n"), True),
    "shell-append": (lambda p: p.open("a").write("log line\n"), True),
    "truncated": (lambda p: p.write_text(""), True),
    "deleted": (lambda p: p.unlink(), True),
    "one-byte": (lambda p: p.write_bytes(p.read_bytes()[:-1] + b"#"), True),
}
PRIOR = {"existed": "old line\n", "created": None}
TOOLS = ["write_file", "edit"]
CONTENTS = ["alpha\n", "two\nlines\n", "no newline", "é unicode ✓\n" * 50, "x" * 70_000 + "\n"]
ROWS = list(itertools.product(CHANGES, PRIOR, TOOLS, CONTENTS))


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    folder = tmp_path / "sessions" / "s1"
    folder.mkdir(parents=True, mode=0o700)
    (folder / "transcript.jsonl").write_text("")
    return folder / "transcript.jsonl"


def test_the_table_is_wide():
    assert len(ROWS) >= 140


@pytest.mark.parametrize(("change", "prior", "tool", "content"), ROWS,
                         ids=[f"{c}-{p}-{t}-{CONTENTS.index(x)}" for c, p, t, x in ROWS])
def test_undo_says_when_it_undoes_changes_made_after_the_turn(ctx, transcript, change, prior, tool, content):
    ctx.checkpoints = Checkpoints(lambda: transcript)
    ctx.cancel = CancelToken()
    path = ctx.root / "f.txt"
    if PRIOR[prior] is not None:
        path.write_text(PRIOR[prior])
    if tool == "edit" and PRIOR[prior] is not None:
        result = EditTool().run({"path": "f.txt", "old": "old line\n", "new": content}, ctx)
    else:
        result = WriteFileTool().run({"path": "f.txt", "content": content}, ctx)
    assert result.ok, result.content
    act, is_change = CHANGES[change]
    act(path)
    plan = plan_lines(recorded_turns(transcript), ctx.root)
    assert len(plan) == 1 and (CHANGED_NOTE in plan[0]) == (is_change and not (prior == "created" and change == "deleted"))
    out = undo(ctx.root, transcript)
    assert out.refused == 0, out.lines
    assert (CHANGED_NOTE in out.lines[0]) == (CHANGED_NOTE in plan[0]), out.lines
    if PRIOR[prior] is None:
        assert not path.exists()
    else:
        assert path.read_text() == PRIOR[prior]


def test_two_turns_back_judge_each_file_against_its_newest_turn(ctx, transcript):
    ctx.checkpoints = Checkpoints(lambda: transcript)
    for text in ("one\n", "two\n", "three\n"):
        ctx.cancel = CancelToken()
        assert WriteFileTool().run({"path": "g.txt", "content": text}, ctx).ok
    plan = plan_lines(recorded_turns(transcript, 3), ctx.root)
    assert len(plan) == 3 and not any(CHANGED_NOTE in line for line in plan)  # no false alarm for older turns
    (ctx.root / "g.txt").write_text("mine\n")
    plan = plan_lines(recorded_turns(transcript, 3), ctx.root)
    assert [CHANGED_NOTE in line for line in plan] == [True, False, False]
    out = undo(ctx.root, transcript, 3)
    assert not (ctx.root / "g.txt").exists() and sum(CHANGED_NOTE in line for line in out.lines) == 1
    assert os.listdir(transcript.parent / "checkpoints") == []
