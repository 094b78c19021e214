"""Processes that leave their group are still ended at exit; ended jobs are never signalled; a finished
call says nothing more."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mrsmith_tui import msgs
from mrsmith_tui.tools import jobs, shell
from mrsmith_tui.tools.shell import ShellTool

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="Linux /proc")

_ORPHANS = r"""
import os, subprocess, sys
from mrsmith_tui.tools import jobs
assert jobs.become_subreaper()
out = subprocess.run(["bash", "-c", "setsid sleep 1000 >/dev/null 2>&1 & echo $!; set -m; sleep 1001 >/dev/null 2>&1 & echo $!; disown"],
                     capture_output=True, text=True, start_new_session=True).stdout.split()
print(" ".join(out), flush=True)
jobs.JOBS.stop_all(grace=0)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_processes_that_left_the_group_end_with_mrsmith() -> None:
    done = subprocess.run([sys.executable, "-c", _ORPHANS], capture_output=True, text=True, check=True)
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2
    assert [p for p in pids if _alive(p)] == []


def test_an_ended_job_is_never_signalled(ctx, monkeypatch) -> None:
    ended = threading.Event()
    ctx.emit = lambda m: ended.set() if isinstance(m, msgs.JobEnded) else None
    ShellTool().run({"command": "true", "background": True}, ctx)
    assert ended.wait(30)
    job = jobs.JOBS.list()[-1]
    assert job.ended
    signalled = []
    monkeypatch.setattr(jobs, "_signal_group", lambda pgid, sig: signalled.append(pgid) or False)
    jobs.JOBS.stop_all(grace=0)
    assert job.pid not in signalled


def test_a_finished_call_emits_no_more_output(ctx, root: Path, monkeypatch) -> None:
    fifo = root / "go"
    os.mkfifo(fifo)
    started: list[threading.Thread] = []

    class Recorded(threading.Thread):
        def start(self) -> None:
            started.append(self)
            super().start()

    monkeypatch.setattr(shell.threading, "Thread", Recorded)
    out: list[str] = []
    ctx.output = out.append
    r = ShellTool().run({"command": "echo early; setsid sh -c 'read x < go; echo late' 2>/dev/null &"}, ctx)
    assert "early" in r.content
    with open(fifo, "w") as f:  # opens once the holder is listening
        f.write("x\n")
    for t in started:
        t.join(30)  # the readers end when the holder closes the pipe
    assert not any(t.is_alive() for t in started)
    assert "late" not in "".join(out) and "early" in "".join(out)
