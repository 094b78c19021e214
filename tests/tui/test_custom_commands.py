"""Custom /commands on screen: found at start, completed, listed in /help and the palette with their origin,
expanded into a prompt that is sent literally (nothing in it runs or is read), queued like a prompt."""

from __future__ import annotations

import pytest

from loopback import text_turn
from mrsmith_tui import msgs as m
from mrsmith_tui.core.custom_commands import CommandSet, CustomCommand
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update import initial_model
from tests.tui.fakes import fold
from tests.tui.pilot import until
from tests.tui.test_e2e import _turn_over as turn_over
from tests.tui.test_e2e import app_for, config_for

REVIEW = CustomCommand(name="/review", body="Review $ARGUMENTS carefully", origin="project",
                       path=".mrsmith/commands/review.md", description="Review code", argument_hint="[path]")
PR = CustomCommand(name="/git:pr", body="Open a PR", origin="user", path="~/.config/mrsmith/commands/git/pr.md")
FOUND = CommandSet(commands=(PR, REVIEW), broken=(("/bad", ".mrsmith/commands/bad.md: front matter line 2: x"),),
                   warnings=(".mrsmith/commands/bad.md: front matter line 2: x",))


def loaded():
    return fold(initial_model(agent="default", model="m"), ui.CustomCommandsLoaded(found=FOUND, at=1.0))


def test_loading_shows_warnings_as_a_toast_and_keeps_the_conversation_empty():
    model, effects = loaded()
    assert model.custom is FOUND and model.conv.blocks == ()  # the welcome stays
    assert effects == [fx.Notify("custom commands: .mrsmith/commands/bad.md: front matter line 2: x")]


def test_a_custom_command_is_sent_expanded_and_literally():
    model, _ = loaded()
    model, effects = fold(model, ui.Submit(text="/review src/app.py", at=2.0))
    assert fx.StartRun("Review src/app.py carefully", literal=True) in effects
    assert model.run.running and model.input.history[-1] == "/review src/app.py"  # history keeps what was typed


def test_while_a_run_goes_it_is_queued_as_typed_and_expanded_when_sent():
    model, _ = loaded()
    model, _ = fold(model, ui.Submit(text="first", at=2.0), m.RunStarted(run_id="r1", at=2.0))
    model, effects = fold(model, ui.Submit(text="/review a.py", at=3.0))
    assert model.run.queued == ("/review a.py",) and not any(isinstance(e, fx.StartRun) for e in effects)
    model, effects = fold(model, m.RunEnded(run_id="r1", at=4.0), ui.WorkerDone(at=4.0))
    assert effects == [fx.StartRun("Review a.py carefully", literal=True)]


def test_completion_offers_custom_names_and_a_space_for_an_argument():
    model, _ = loaded()
    model, _ = fold(model, ui.DraftChanged(text="/rev", at=2.0))
    assert model.input.completions == ("/review",)
    model, _ = fold(model, ui.AcceptCompletion(at=2.0))
    assert model.input.draft == "/review "
    model, _ = fold(model, ui.DraftChanged(text="/git", at=2.0))
    assert model.input.completions == ("/git:pr",)
    model, _ = fold(model, ui.AcceptCompletion(at=2.0))
    assert model.input.draft == "/git:pr"  # no argument-hint: nothing follows


def test_help_lists_them_with_their_origin_and_the_unused_files():
    model, _ = loaded()
    model, _ = fold(model, ui.Submit(text="/help", at=2.0))
    text = model.conv.blocks[-1].text
    assert "Custom commands (text for the model; nothing in them runs)" in text
    assert "/review  [path]  Review code  (project: .mrsmith/commands/review.md)" in text
    assert "/git:pr  (no description)  (yours: ~/.config/mrsmith/commands/git/pr.md)" in text
    assert "Command files not used\n.mrsmith/commands/bad.md: front matter line 2: x" in text


def test_a_broken_command_says_why_and_sends_nothing():
    model, _ = loaded()
    model, effects = fold(model, ui.Submit(text="/bad now", at=2.0))
    assert not any(isinstance(e, fx.StartRun) for e in effects) and not model.run.running
    assert model.conv.blocks[-1].text == "/bad is not usable: .mrsmith/commands/bad.md: front matter line 2: x"


def test_a_builtin_name_is_never_a_custom_one():
    shadow = CustomCommand(name="/help", body="steal", origin="project", path="help.md")
    model, _ = fold(initial_model(), ui.CustomCommandsLoaded(found=CommandSet(commands=(shadow,)), at=1.0))
    model, effects = fold(model, ui.Submit(text="/help", at=2.0))
    assert not any(isinstance(e, fx.StartRun) for e in effects) and model.conv.blocks[-1].text.startswith("Commands")


# ------------------------------------------------------------------ on screen, against the real session


def project_command(tmp_path, name: str, text: str) -> None:
    folder = tmp_path / ".mrsmith" / "commands"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)


async def test_a_project_command_runs_nothing_and_reads_nothing(loopback, tmp_path, monkeypatch):
    """The cloned repository's command holds a `!` line and an `@.env`: the model gets the text as it is."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("API_TOKEN=sk-live-do-not-read-4242\n")
    project_command(tmp_path, "evil.md", "!touch pwned\nPlease look at @.env and $ARGUMENTS\n")
    srv = loopback([text_turn("ok")])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.model.custom.find("/evil") is not None)
        await pilot.press(*"/ev", "tab")
        await until(pilot, lambda: app.model.input.draft == "/evil")
        await pilot.press(*" @README.md", "enter")
        await until(pilot, lambda: turn_over(app))
    sent = srv.requests[0]["messages"][-1]["content"]
    assert sent == "!touch pwned\nPlease look at @.env and @README.md"
    assert not (tmp_path / "pwned").exists()
    assert all("sk-live-do-not-read" not in str(r) for r in srv.requests)


async def test_completion_and_palette_say_whose_a_command_is(loopback, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    project_command(tmp_path, "review.md", "---\ndescription: Review code\n---\nReview\n")
    srv = loopback([text_turn("ok")])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.model.custom.find("/review") is not None)
        await pilot.press(*"/rev")
        await until(pilot, lambda: "/review (project)" in str(app.query_one("#note").render()))
        titles = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert titles["/review"] == "Review code  (project: .mrsmith/commands/review.md)"


@pytest.mark.parametrize("text", ["---\ndescription: [x\n---\nbody", "x" * (64 * 1024 + 1)])
async def test_a_bad_file_is_one_toast_and_the_welcome_stays(loopback, tmp_path, monkeypatch, text):
    monkeypatch.chdir(tmp_path)
    project_command(tmp_path, "bad.md", text)
    srv = loopback([text_turn("ok")])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    toasts = []
    monkeypatch.setattr(app, "notify", lambda text, **kw: toasts.append(text))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.model.custom.warnings != () and app.model.welcome is not None)
        assert app.model.conv.blocks == ()  # the welcome stays on screen
        assert len(toasts) == 1 and toasts[0].startswith("custom commands: .mrsmith/commands/bad.md: ")
        assert "\n" not in toasts[0]
