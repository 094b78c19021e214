"""Headless approvals and cancelling a running tool, through the real CLI subprocess."""

from __future__ import annotations

import os
import select
import signal
import time

import pytest
from loopback import text_turn, tool_turn

pytest.importorskip("mrsmith_tui.tools.builtin")


def write_turns():
    return [tool_turn("write_file", {"path": "out.txt", "content": "WRITTEN\n"}, call_id="call_w"), text_turn("finished")]


def test_headless_refuses_what_needs_approval(cli, loopback):
    srv = loopback(write_turns())
    done = cli.using(srv.base_url).run("-p", "write it")
    assert done.code == 0, done.err
    assert not (cli.cwd / "out.txt").exists()
    result = srv.requests[1]["messages"][-1]
    assert result["tool_call_id"] == "call_w" and "approve" in result["content"]
    assert "refused" in done.err


@pytest.mark.parametrize("flag", [["--yes"], ["--allow", "write_file"]])
def test_yes_and_allow_approve(cli, loopback, flag):
    srv = loopback(write_turns())
    done = cli.using(srv.base_url).run("-p", "write it", *flag)
    assert done.code == 0, done.err
    assert (cli.cwd / "out.txt").read_text() == "WRITTEN\n"


def test_sigint_stops_a_running_shell_command(cli, loopback):
    srv = loopback([tool_turn("shell", {"command": "echo started; sleep 30; touch marker"}), text_turn("never")])
    proc = cli.using(srv.base_url).popen("-p", "run it", "--yes")
    try:
        seen = b""
        deadline = time.monotonic() + 20
        while b"started" not in seen and time.monotonic() < deadline and proc.poll() is None:
            ready, _, _ = select.select([proc.stderr], [], [], 0.1)
            if ready:
                seen += os.read(proc.stderr.fileno(), 4096)
        assert b"started" in seen, seen
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=5)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (code, took < 2.0) == (130, True)
    assert not (cli.cwd / "marker").exists()
    assert len(srv.requests) == 1  # the run stopped; the model was not called again
