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
from mrsmith_tui.tools import jobs
from mrsmith_tui.tools.shell import tool as shell
from mrsmith_tui.tools.shell.tool import ShellTool

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
    # bash waits until the holder has left its group (the group is killed when bash ends)
    command = "echo early; setsid sh -c 'echo > left; read x < go; echo late' 2>/dev/null & until [ -s left ]; do :; done"
    r = ShellTool().run({"command": command}, ctx)
    assert "early" in r.content
    with open(fifo, "w") as f:  # opens once the holder is listening
        f.write("x\n")
    for t in started:
        t.join(30)  # the readers end when the holder closes the pipe
    assert not any(t.is_alive() for t in started)
    assert "late" not in "".join(out) and "early" in "".join(out)


def test_the_bounded_log_keeps_the_head_and_the_latest(tmp_path: Path) -> None:
    from mrsmith_tui.tools.joblog import BoundedLog

    path = tmp_path / "log"
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    log = BoundedLog(fd, head=1000, tail=500)
    data = b"".join(b"%08d\n" % i for i in range(100_000))
    for i in range(0, len(data), 777):
        log.write(data[i : i + 777])
    os.close(fd)
    kept = path.read_bytes()
    assert kept.startswith(data[:1000]) and kept.endswith(data[-500:])
    assert len(kept) <= 1000 + 100 + 2 * 500 and b"log cut:" in kept


def test_a_background_flood_leaves_a_small_log(ctx) -> None:
    ended = threading.Event()
    ctx.emit = lambda m: ended.set() if isinstance(m, msgs.JobEnded) else None
    r = ShellTool().run({"command": "head -c 40000000 /dev/zero", "background": True}, ctx)
    assert ended.wait(60)
    job = jobs.JOBS.list()[-1]
    for t in threading.enumerate():
        if t.name == f"mrsmith-log-{job.pid}":
            t.join(60)  # the copy ends with the pipe
    from mrsmith_tui.tools.joblog import HEAD_BYTES, TAIL_BYTES

    assert job.log in r.content and os.path.getsize(job.log) <= HEAD_BYTES + 2 * TAIL_BYTES + 200
    os.unlink(job.log)


def test_the_job_log_directory_must_be_ours(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    mine = tmp_path / "mrsmith"
    mine.mkdir(mode=0o777)
    os.chmod(mine, 0o777)
    assert jobs.job_log_dir() == str(mine) and (mine.stat().st_mode & 0o777) == 0o700
    mine.rmdir()
    (tmp_path / "elsewhere").mkdir()
    mine.symlink_to(tmp_path / "elsewhere")
    fresh = jobs.job_log_dir()
    assert fresh != str(mine) and not os.path.islink(fresh) and (os.stat(fresh).st_mode & 0o777) == 0o700
    os.rmdir(fresh)
    if os.getuid() == 0:
        mine.unlink()
        mine.mkdir(mode=0o700)
        os.chown(mine, 4242, -1)
        other = jobs.job_log_dir()
        assert other != str(mine)
        os.rmdir(other)
