"""No orphans: background shell jobs end with mrsmith, unless started with detach: true."""

from __future__ import annotations

import json
import os
import select
import signal
import time

import pytest

from loopback import text_turn, tool_turn

# The job writes its own pid and its child's, then waits on the child: a small process tree.
TREE = "echo $$ > pids; sleep 300 & echo $! >> pids; wait"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie waiting for its reaper is gone
    except (FileNotFoundError, ProcessLookupError):
        return False


def _all_gone(pids: list[int]) -> bool:
    """Until every pid is gone: a SIGKILL lands asynchronously, so a process may linger for a moment
    after mrsmith has exited (60 s is a safety net, not a budget)."""
    deadline = time.monotonic() + 60
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.01)
    return not any(_alive(p) for p in pids)


def _pids(cwd) -> list[int]:
    return [int(line) for line in (cwd / "pids").read_text().split()]


def _read_until(proc, needle: bytes, stream) -> bytes:
    seen = b""
    deadline = time.monotonic() + 30  # a safety net for a broken build, not a measurement
    while needle not in seen and time.monotonic() < deadline and proc.poll() is None:
        ready, _, _ = select.select([stream], [], [], 0.1)
        if ready:
            seen += os.read(stream.fileno(), 65536)
    return seen


def _job_started(out: str) -> dict:
    return next(e for e in map(json.loads, out.splitlines()) if e["type"] == "JobStarted")


def test_a_background_job_is_stopped_when_the_run_ends(cli, loopback):
    srv = loopback([tool_turn("shell", {"command": TREE, "background": True}),
                    tool_turn("shell", {"command": "until [ -s pids ] && [ $(wc -l < pids) -ge 2 ]; do :; done"},
                              call_id="call_2"),
                    text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "start a server", "--yes", "--json")
    assert done.code == 0, done.err
    event = _job_started(done.out)
    assert event["detach"] is False and event["command"] == TREE
    pids = _pids(cli.cwd)
    assert event["pid"] == pids[0] and len(pids) == 2
    assert _all_gone(pids)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_background_job_is_stopped_when_mrsmith_is_killed(cli, loopback, sig):
    srv = loopback([tool_turn("shell", {"command": TREE, "background": True}),
                    tool_turn("shell", {"command": "until [ -s pids ] && [ $(wc -l < pids) -ge 2 ]; do :; done; "
                                                   "echo $$ > fg; echo tree-ready; exec sleep 60"}, call_id="call_2"),
                    text_turn("never")])
    proc = cli.using(srv.base_url).popen("-p", "start a server", "--yes")
    try:
        assert b"tree-ready\n" in _read_until(proc, b"tree-ready\n", proc.stderr)  # the output, not the command line
        foreground = int((cli.cwd / "fg").read_text())
        proc.send_signal(sig)
        proc.wait(timeout=90)  # a safety net, not a budget
    finally:
        if proc.poll() is None:  # a broken build: leave nothing behind either way
            proc.kill()
            proc.wait()
            for name in ("pids", "fg"):
                if (cli.cwd / name).exists():
                    os.killpg(int((cli.cwd / name).read_text().split()[0]), signal.SIGKILL)
    pids = _pids(cli.cwd)
    assert len(pids) == 2 and _all_gone(pids)
    assert _all_gone([foreground])  # the command running in the foreground ended with mrsmith too


def test_a_detached_job_outlives_mrsmith(cli, loopback):
    srv = loopback([tool_turn("shell", {"command": TREE, "background": True, "detach": True}),
                    tool_turn("shell", {"command": "until [ -s pids ] && [ $(wc -l < pids) -ge 2 ]; do :; done"},
                              call_id="call_2"),
                    text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "start a server", "--yes", "--json")
    pids = _pids(cli.cwd)
    try:
        assert done.code == 0, done.err
        assert _job_started(done.out)["detach"] is True
        assert all(_alive(p) for p in pids)
    finally:
        os.killpg(pids[0], signal.SIGKILL)
