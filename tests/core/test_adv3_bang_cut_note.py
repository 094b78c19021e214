"""Adversary (#25, `!command`): the shell tool's note naming how much of a long stdout / stderr it cut must
reach the person and the model as it is; a second cut in core.prompt_run fell on that note ("79 characters
cut from the middle of 50079" for 200 MB). A generated table of stdout x stderr sizes, through run_command
with the shell tool's result made as it makes it (HeadTail), no process and no timing."""

from __future__ import annotations

import itertools

import pytest

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.core.prompt_run import run_command
from mrsmith_tui.tools.base import ToolResult
from mrsmith_tui.tools.output_limit import HeadTail
from mrsmith_tui.tools.shell.tool import MAX_OUTPUT, ShellTool

from .test_prompt_run import Fake

OUT = [0, 1, 1000, MAX_OUTPUT - 1, MAX_OUTPUT, MAX_OUTPUT + 1, MAX_OUTPUT + 79, MAX_OUTPUT + 2000, 60_000, 75_000,
       99_999, 100_000, 100_001, 250_000, 1_000_000, 5_000_000, 200_000_000, 10**10]
ERR = [0, 10, MAX_OUTPUT, MAX_OUTPUT + 1, 70_000, 1_000_000, 10**9]
ROWS = list(itertools.product(OUT, ERR, ["y", "é"]))


def _kept(size: int, char: str) -> str:
    kept = HeadTail(MAX_OUTPUT)
    if size > 2 * MAX_OUTPUT:  # what HeadTail keeps of a huge stream: its count, its head and tail
        kept.add(char * MAX_OUTPUT)
        kept.total += size - 2 * MAX_OUTPUT
        kept.add(char * MAX_OUTPUT)
    else:
        kept.add(char * size)
    return kept.text()


def test_the_table_is_wide():
    assert len(ROWS) >= 250


@pytest.mark.parametrize(("out", "err", "char"), ROWS)
def test_the_cut_note_reaches_the_context_whole(tmp_path, monkeypatch, out, err, char):
    stdout, stderr = _kept(out, char), _kept(err, "e")
    parts = [p for p in (stdout, "[stderr]\n" + stderr if stderr else "") if p] + ["[exit code 0]"]
    monkeypatch.setattr(ShellTool, "run", lambda self, args, ctx: ToolResult(content="\n".join(parts), ok=True, exit_code=0))
    shown: list[msgs.Msg] = []
    done = run_command(Fake(tmp_path), "big", CancelToken(), shown.append)
    for size in (out, err):
        if size > MAX_OUTPUT:
            assert f"characters cut from the middle of {size} ...]" in done.output
    assert done.output.count("characters cut from the middle of") == (out > MAX_OUTPUT) + (err > MAX_OUTPUT)
    assert len(done.output) <= 2 * MAX_OUTPUT + 1_000
    finished = [m for m in shown if isinstance(m, msgs.ToolCallFinished)]
    assert finished and finished[0].result == done.output
