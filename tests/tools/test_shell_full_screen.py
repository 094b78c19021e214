"""A full-screen program (an editor, a monitor) is refused before it starts, for the agent's shell call
and for `!cmd` alike, with one line: there is no terminal for it (tools/shell/full_screen.py). Without
this, `!vim x` drew screen codes into the block, and the context, until the timeout or Esc."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.core.prompt_run import command_exit_code, run_command
from mrsmith_tui.tools.shell.full_screen import refusal
from mrsmith_tui.tools.shell.tool import ShellTool
from tests.core.test_prompt_run import Fake


@pytest.fixture
def fake_vim(tmp_path: Path, monkeypatch) -> Path:
    """A `vim` first on PATH that leaves a mark if it is ever started."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    mark = tmp_path / "vim-ran"
    for name in ("vim", "top", "watch"):
        (bin_dir / name).write_text(f"#!/bin/sh\ntouch {mark}\nsleep 600\n")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return mark


def test_bang_vim_returns_at_once_with_one_line_and_starts_nothing(tmp_path, fake_vim) -> None:
    shown: list[msgs.Msg] = []
    done = run_command(Fake(tmp_path), "vim notes.txt", CancelToken(), shown.append)
    assert done.output == ("Error: cannot run vim here: it is a full-screen program and commands here run without a terminal "
                           "(no keyboard; the output is captured); run it in another terminal")
    assert command_exit_code(done) == 1 and not done.timed_out
    assert not fake_vim.exists()
    finished = [m for m in shown if isinstance(m, msgs.ToolCallFinished)]
    assert len(finished) == 1 and not finished[0].ok


@pytest.mark.parametrize("command", ["vim x", "cd sub && vim x", "ls; vim x", "(vim x)", "echo $(vim x)",
                                     "command vim x", "env A=1 vim x", "nice -n 19 vim x", "timeout 5 vim x",
                                     "exec vim x", "/usr/bin/vim x", '"vim" x', "\\vim x", "A=1 vim x", "vim x > out",
                                     "bash -c 'vim x'", "sh -lc 'cd sub; top'", "if true; then watch ls; fi",
                                     "true | xargs vim"])
def test_a_full_screen_program_is_refused_however_it_is_wrapped(command, ctx, fake_vim) -> None:
    tool = ShellTool()
    assert tool.approval({"command": command}, ctx) is not None  # the gate still asks, as for any command not read-only
    for args in ({"command": command}, {"command": command, "background": True}):
        r = tool.run(args, ctx)
        assert not r.ok and r.content.startswith("Error: cannot run ") and "run it in another terminal" in r.content
    assert not fake_vim.exists()


@pytest.mark.parametrize("command", ["less notes.txt", "more notes.txt", "man ls", "git log | less", "top -b -n 1",
                                     "top -bn1", "emacs --batch -l x.el", "command -v vim", "echo vim", "grep vim f",
                                     "$EDITOR x", "which vim"])
def test_what_runs_without_a_terminal_is_not_refused(command) -> None:
    assert refusal(command) is None


def test_top_and_watch_say_what_works_instead() -> None:
    assert (refusal("top") or "").endswith("run it in another terminal; `top -b -n 1` prints the processes once")
    assert (refusal("watch make") or "").endswith("run the command itself, once (or in the background)")
