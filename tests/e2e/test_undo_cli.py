"""`mrsmith -c -p /undo`: the last session's turn of file changes is put back, without asking the model."""

from __future__ import annotations

import json

import pytest

from loopback import text_turn, tool_turn


def test_undo_puts_back_the_last_sessions_turn(cli, loopback):
    (cli.cwd / "a.bin").write_bytes(b"\x00\x01before\xff")
    srv = loopback([tool_turn("write_file", {"path": "a.bin", "content": "after\n"}, call_id="c1"),
                    tool_turn("write_file", {"path": "new.txt", "content": "made\n"}, call_id="c2"),
                    text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "change them", "--yes")
    assert done.code == 0, done.err
    assert (cli.cwd / "a.bin").read_text() == "after\n" and (cli.cwd / "new.txt").exists()
    asked = len(srv.requests)
    undone = cli.run("-c", "-p", "/undo")
    assert undone.code == 0, undone.err
    assert (cli.cwd / "a.bin").read_bytes() == b"\x00\x01before\xff"
    assert not (cli.cwd / "new.txt").exists()
    assert "a.bin: put back as it was (9 bytes)" in undone.out
    assert "new.txt: created by the turn: removed" in undone.out
    assert "files changed by shell commands are not tracked" in undone.out
    assert len(srv.requests) == asked  # the model was not asked
    again = cli.run("-c", "-p", "/undo", "--json")
    assert again.code == 0, again.err
    event = json.loads(again.out.strip().splitlines()[-1])
    assert event["type"] == "UndoDone" and event["restored"] == 0 and event["lines"][0].startswith("nothing to undo")


def test_undo_in_a_new_session_says_how_to_reach_the_last_one(cli, loopback):
    srv = loopback([text_turn("never")])
    done = cli.using(srv.base_url).run("-p", "/undo")
    assert done.code == 0, done.err
    assert "nothing to undo" in done.out and "mrsmith -c -p /undo" in done.out and not srv.requests


def test_a_bad_count_is_one_line(cli, loopback):
    srv = loopback([text_turn("never")])
    done = cli.using(srv.base_url).run("-p", "/undo lots")
    assert done.code == 2 and done.err_lines == ["mrsmith: error: /undo: N is a number of turns from 1 to 200, not 'lots'"]


def test_init_headless_writes_with_leave(cli, loopback):
    (cli.cwd / "Makefile").write_text("test:\n\tpytest\n")
    srv = loopback([tool_turn("write_file", {"path": "AGENTS.md", "content": "# notes\n"}), text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "/init", "--allow", "write_file")
    assert done.code == 0, done.err
    assert (cli.cwd / "AGENTS.md").read_text() == "# notes\n"
    sent = srv.requests[0]["messages"][-1]["content"]
    assert sent.startswith("/init: write the project's notes") and "targets: test" in sent


def test_init_headless_without_leave_is_one_line(cli, loopback):
    srv = loopback([text_turn("never")])
    done = cli.using(srv.base_url).run("-p", "/init")
    assert done.code == 2 and not srv.requests and not (cli.cwd / "AGENTS.md").exists()
    assert done.err_lines[-1] == ("mrsmith: /init writes AGENTS.md, which needs leave to write: "
                                  "add --allow write_file (or --yes)")


@pytest.mark.parametrize(("mode", "writes"), [("accept-edits", False), ("auto", True), ("plan", False)])
def test_init_headless_follows_the_permission_mode(cli, loopback, mode, writes):
    """accept-edits still asks for AGENTS.md (agents take instructions from it): headless, one line."""
    pytest.importorskip("mrsmith_tui.tools.permission_mode")  # the modes of #25 (another part)
    srv = loopback([tool_turn("write_file", {"path": "AGENTS.md", "content": "# notes\n"}), text_turn("done")])
    done = cli.using(srv.base_url).run("-p", "/init", "--permission-mode", mode)
    assert (cli.cwd / "AGENTS.md").exists() == writes, done.err
    if not writes:
        assert done.code == 2 and not srv.requests and "/init writes AGENTS.md" in done.err_lines[-1]
