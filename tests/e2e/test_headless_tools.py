"""Headless approvals and cancelling a running tool, through the real CLI subprocess."""

from __future__ import annotations

import json
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


def test_json_reports_the_permissions_in_force_before_the_run(cli, loopback):
    srv = loopback(write_turns())
    done = cli.using(srv.base_url).run("-p", "write it", "--json", "--allow", "write_file", "--allow", "shell:git commit")
    assert done.code == 0, done.err
    events = [json.loads(line) for line in done.out.splitlines()]
    assert [e["type"] for e in events[:2]] == ["SessionStarted", "PermissionsInForce"]
    assert events[1]["specs"] == [{"spec": "write_file", "origin": "--allow"},
                                  {"spec": "shell:git commit", "origin": "--allow"}]
    assert events[1]["approve_all"] is False
    assert (cli.cwd / "out.txt").read_text() == "WRITTEN\n"  # --allow reached the gate


def test_an_empty_allow_spec_is_one_usage_line(cli):
    done = cli.run("-p", "hi", "--allow", " ")
    assert done.code == 2 and done.err.strip() == "mrsmith: error: --allow needs a spec: a tool (write_file) or a shell command ('shell:git commit')"


def test_an_allow_naming_no_tool_is_one_usage_line(cli, loopback):
    srv = loopback([text_turn("never asked")])
    done = cli.using(srv.base_url).run("-p", "hi", "--allow", "wrte_file")
    assert (done.code, done.out, srv.requests) == (2, "", [])
    assert done.err_lines == ["mrsmith: error: --allow wrte_file: no tool is called wrte_file (did you mean write_file?)"]


def test_sigint_stops_a_running_shell_command(cli, loopback):
    srv = loopback([tool_turn("shell", {"command": "echo started; sleep 600; touch marker"}), text_turn("never")])
    proc = cli.using(srv.base_url).popen("-p", "run it", "--yes")
    try:
        seen = b""
        deadline = time.monotonic() + 90  # a safety net, not a budget
        while b"started" not in seen and time.monotonic() < deadline and proc.poll() is None:
            ready, _, _ = select.select([proc.stderr], [], [], 0.1)
            if ready:
                seen += os.read(proc.stderr.fileno(), 4096)
        assert b"started" in seen, seen
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=90)  # a safety net: `sleep 600` would outlast a missed SIGINT anyway
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 130
    assert not (cli.cwd / "marker").exists()
    assert len(srv.requests) == 1  # the run stopped; the model was not called again
