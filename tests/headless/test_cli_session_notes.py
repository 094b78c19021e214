"""What the CLI says about the session around a run (a try-out by people coming from Claude Code and
Codex): `-c` with nothing to continue starts a new session and says so; leaving the UI names the
session and how to go on with it."""

from __future__ import annotations

import pytest

from loopback import text_turn
from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.cli import command as cli
from mrsmith_tui.msgs import ListSink
from mrsmith_tui.session.store import typed_id
from mrsmith_tui.tools.approval import PolicyApprover
from tests.headless import stand_in_tui


@pytest.fixture
def fake_tui(monkeypatch, tmp_path):
    """The UI stood in for: it builds the session, runs `calls["prompts"]` in it, and quits."""
    calls: dict = {"prompts": []}

    def run_tui(make_session, **_kw):
        calls["sink"] = sink = ListSink()
        session = calls["session"] = make_session(sink, PolicyApprover())
        for prompt in calls["prompts"]:
            session.run(prompt, CancelToken())
        session.close()
        return 0

    stand_in_tui.install(monkeypatch, run_tui)
    monkeypatch.setattr(cli, "_stdout_is_terminal", lambda: True)
    here = tmp_path / "project"
    here.mkdir()
    monkeypatch.chdir(here)
    return calls


def flags(srv, tmp_path) -> list[str]:
    return ["--model", "m", "--base-url", srv.base_url, "--api-key", "none", "--sessions-dir", str(tmp_path / "s")]


def test_leaving_the_ui_after_a_turn_names_the_session_and_how_to_go_on(fake_tui, loopback, tmp_path, capsys):
    srv = loopback([text_turn("hello")])
    fake_tui["prompts"] = ["hi"]
    assert cli.main(flags(srv, tmp_path)) == 0
    short = typed_id(fake_tui["session"].session_id)
    assert capsys.readouterr().out == f"session {short} · continue it with mrsmith -c (or mrsmith --resume {short})\n"


def test_no_line_without_a_turn_or_a_terminal(fake_tui, loopback, tmp_path, capsys, monkeypatch):
    srv = loopback([text_turn("hello")])
    assert cli.main(flags(srv, tmp_path)) == 0  # quit before any prompt: nothing to go on with
    assert capsys.readouterr().out == ""
    monkeypatch.setattr(cli, "_stdout_is_terminal", lambda: False)
    fake_tui["prompts"] = ["hi"]
    assert cli.main(flags(srv, tmp_path)) == 0
    assert capsys.readouterr().out == ""
    monkeypatch.setattr(cli, "_stdout_is_terminal", lambda: True)
    assert cli.main([*flags(srv, tmp_path), "--no-session"]) == 0  # nothing recorded
    assert capsys.readouterr().out == ""


def test_continue_with_no_session_here_starts_a_new_one_and_says_so(fake_tui, loopback, tmp_path, capsys):
    srv = loopback([text_turn("hello")])
    assert cli.main([*flags(srv, tmp_path), "-c"]) == 0
    warnings = [m.text for m in fake_tui["sink"].msgs if isinstance(m, msgs.Warning)]
    assert len(warnings) == 1 and warnings[0].startswith("no session was started in ")
    assert warnings[0].endswith("to continue: this is a new one (mrsmith --list --all shows every folder's)")
    assert fake_tui["session"] is not None


def test_headless_continue_with_no_session_runs_in_a_new_one(loopback, tmp_path, capsys, monkeypatch):
    srv = loopback([text_turn("fresh answer")])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    code = cli.main([*flags(srv, tmp_path), "-c", "-p", "hi"])
    out, err = capsys.readouterr()
    assert (code, out.strip()) == (0, "fresh answer")
    assert "warning: no session was started in" in err
    code = cli.main([*flags(srv, tmp_path), "--resume", "zzzz", "-p", "hi"])
    assert code == 2 and "no session id starts with 'zzzz'" in capsys.readouterr().err  # a bad id stays an error
