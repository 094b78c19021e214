"""The CLI as composition root, in process: which frontend it picks and what it hands over."""

from __future__ import annotations

import pytest

from mrsmith_tui.cli import command as cli
from mrsmith_tui.msgs import ListSink
from mrsmith_tui.tools.approval import PolicyApprover
from tests.headless import stand_in_tui


@pytest.fixture
def fake_tui(monkeypatch):
    calls = {}

    def run_tui(make_session, *, config, theme=None, history_path=None, resume=None, sessions_root=None, pick_session=False,
                first_frame=None):
        calls["config"], calls["theme"] = config, theme
        calls["resume"], calls["sessions_root"] = resume, sessions_root
        sink = ListSink()
        calls["session"] = make_session(sink, PolicyApprover())
        calls["session"].close()
        return 0

    stand_in_tui.install(monkeypatch, run_tui)
    return calls


def test_without_prompt_on_a_terminal_the_tui_gets_a_session_factory(fake_tui, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = cli.main(["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--theme", "dusk", "--sessions-dir", str(tmp_path / "s")])
    assert code == 0
    assert fake_tui["theme"] == "dusk"
    session = fake_tui["session"]
    assert (session.agent.model, session.provider_name, session.cwd) == ("m", "openai", tmp_path)
    assert fake_tui["sessions_root"] == tmp_path / "s" and callable(fake_tui["resume"])  # for /sessions


def test_json_without_a_headless_run_is_a_usage_error(fake_tui, capsys):
    assert cli.main(["--json", "--model", "m"]) == 2
    assert "--json needs a headless run" in capsys.readouterr().err


def test_unexpected_errors_are_one_line_exit_1(monkeypatch, capsys):
    def boom(args):
        raise RuntimeError("something odd\nsecond line")

    monkeypatch.setattr(cli, "_main", boom)
    assert cli.main(["-p", "x"]) == 1
    assert capsys.readouterr().err == "mrsmith: error: RuntimeError: something odd\n"
    monkeypatch.setenv("MRSMITH_DEBUG", "1")
    assert cli.main(["-p", "x"]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_bad_flag_values_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["--agent-wait-ms", "0"])
    assert info.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err
