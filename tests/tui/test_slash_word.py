"""A prompt's first word is a /command by one rule, on screen and headless alike (a try-out: `-p '/bogus'`
went to the model with exit 0 while the UI said `unknown command`)."""

from __future__ import annotations

import pytest

from loopback import text_turn
from mrsmith_tui.cli import main
from mrsmith_tui.core.prompt_syntax import command_word
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update import initial_model
from tests.tui.fakes import AT, fold

COMMANDS = ["/bogus", "/help", "/git:pr now", "/my-cmd.v2 x", "/", "/review src/app.py"]
TEXT = ["/etc/hosts: what is it?", "/tmp/x.log why", "/review\nsecond line", "//x", "/:x", "hello /bogus", "/git: x"]


@pytest.mark.parametrize("prompt", COMMANDS)
def test_a_name_after_the_slash_is_a_command(prompt):
    assert command_word(prompt) == prompt.split(" ")[0]


@pytest.mark.parametrize("prompt", TEXT)
def test_any_other_first_word_is_text(prompt):
    assert command_word(prompt) is None


def test_on_screen_a_path_goes_to_the_model_and_an_unknown_name_is_refused():
    model, effects = fold(initial_model(), ui.Submit(text="/etc/hosts: what is it?", at=AT))
    assert fx.StartRun("/etc/hosts: what is it?") in effects
    model, effects = fold(initial_model(), ui.Submit(text="/bogus", at=AT))
    assert not any(isinstance(e, fx.StartRun) for e in effects)
    assert model.conv.blocks[-1].text.startswith("unknown command /bogus")


@pytest.fixture
def cli_here(tmp_path, monkeypatch, loopback):
    srv = loopback([text_turn("answer")])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # none of the person's own commands
    monkeypatch.setenv("NO_COLOR", "1")
    return srv, ["--base-url", srv.base_url, "--model", "m", "--api-key", "none", "--sessions-dir", str(tmp_path / "s")]


def test_headless_an_unknown_name_is_one_line_naming_what_a_run_takes(cli_here, capsys, tmp_path):
    srv, flags = cli_here
    (tmp_path / ".mrsmith" / "commands").mkdir(parents=True)
    (tmp_path / ".mrsmith" / "commands" / "review.md").write_text("Review $ARGUMENTS\n")
    assert main([*flags, "-p", "/reveiw src"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and not srv.requests
    assert "unknown command /reveiw; did you mean /review?" in err
    assert "a headless run takes /init, /undo and custom commands; custom commands here: /review" in err


def test_headless_a_path_is_still_text_for_the_model(cli_here, capsys):
    srv, flags = cli_here
    assert main([*flags, "-p", "/etc/hosts: what is it?"]) == 0
    assert srv.requests[0]["messages"][-1]["content"] == "/etc/hosts: what is it?"
