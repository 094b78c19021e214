"""Ctrl-G (the prompt in $VISUAL/$EDITOR) and Ctrl-R (incremental search of the prompt history),
as Pilot tests with a fake editor script, and the search's rules as a pure table (issue #25).
The welcome's "resume the last session" key is Ctrl-T."""

from __future__ import annotations

import stat

import pytest

from mrsmith_tui.records import replace
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.update import update
from mrsmith_tui.tui.view.prompt_box import PromptArea
from tests.tui.fakes import AT, CONFIG, factory
from tests.tui.pilot import until

HISTORY = ("git status please", "fix the failing test", "add a test for parse", "explain the parser")


def make_app() -> MrSmithApp:
    return MrSmithApp(factory([]), config=CONFIG, history_path=None, welcome=False)


def with_history(app: MrSmithApp) -> None:
    app.model = replace(app.model, input=replace(app.model.input, history=HISTORY))


def fake_editor(tmp_path, body: str) -> str:
    script = tmp_path / "fake-editor"
    script.write_text("#!/bin/sh\n" + body + "\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


# --------------------------------------------------------------------------- Ctrl-G


async def test_ctrl_g_edits_the_prompt_in_the_editor_and_takes_it_back(tmp_path, monkeypatch):
    editor = fake_editor(tmp_path, 'for f; do :; done; printf "%s\\nsecond line\\n" "$(cat "$f") edited" > "$f"')
    monkeypatch.setenv("VISUAL", f"{editor} --wait")
    monkeypatch.delenv("EDITOR", raising=False)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*"draft")
        await until(pilot, lambda: app.model.input.draft == "draft")
        await pilot.press("ctrl+g")
        await until(pilot, lambda: app.query_one(PromptArea).text == "draft edited\nsecond line")
        assert app.model.input.draft == "draft edited\nsecond line"
        assert "back from the editor" in app.model.screen.note
    assert not list(tmp_path.glob("mrsmith-prompt-*"))


@pytest.mark.parametrize(("visual", "editor", "says"), [
    (None, None, "set $VISUAL or $EDITOR"),
    ("/no/such/editor", None, "was not found"),
    (None, "FAIL", "exited with 3"),
    ("'unbalanced", None, "cannot be split"),
])
async def test_a_missing_or_failing_editor_is_one_line_and_the_prompt_stays(tmp_path, monkeypatch, visual, editor, says):
    for name, value in (("VISUAL", visual), ("EDITOR", editor)):
        if value == "FAIL":
            value = fake_editor(tmp_path, 'echo changed > "$1"; exit 3')
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*"keep me")
        await until(pilot, lambda: app.model.input.draft == "keep me")
        await pilot.press("ctrl+g")
        await until(pilot, lambda: says in app.model.screen.note)
        assert "\n" not in app.model.screen.note
        assert app.query_one(PromptArea).text == "keep me"


def suspend_calls(app, monkeypatch) -> list[str]:
    """The test driver made to say it can suspend (as a real terminal's does), recording the suspends
    and resumes: Pilot's own cannot, so the suspended path would never run."""
    calls: list[str] = []
    driver = type(app._driver)
    monkeypatch.setattr(driver, "can_suspend", property(lambda _self: True))
    monkeypatch.setattr(driver, "suspend_application_mode", lambda _self: calls.append("suspend"))
    monkeypatch.setattr(driver, "resume_application_mode", lambda _self: calls.append("resume"))
    return calls


async def test_an_editor_not_found_gives_the_terminal_back(tmp_path, monkeypatch):
    """With a real terminal (suspend supported), an editor that is not installed (`VISUAL="code --wait"`
    without code) once left the app suspended: blank screen, raw keys, draft lost. Textual's suspend
    resumes only when its block ends without raising."""
    monkeypatch.setenv("VISUAL", "no-such-editor-here --wait")
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        calls = suspend_calls(app, monkeypatch)
        await pilot.press(*"keep me")
        await until(pilot, lambda: app.model.input.draft == "keep me")
        await pilot.press("ctrl+g")
        await until(pilot, lambda: "was not found" in app.model.screen.note)
        assert calls.count("suspend") == calls.count("resume")
        assert "no-such-editor-here" in app.model.screen.note and "\n" not in app.model.screen.note
        assert app.query_one(PromptArea).text == "keep me"


async def test_ctrl_c_in_the_terminal_while_the_editor_runs_gives_the_terminal_back(tmp_path, monkeypatch):
    """While suspended the terminal is in its own mode, so Ctrl-C there is a real SIGINT: the
    KeyboardInterrupt out of the editor's run once left the app suspended, like a missing editor."""
    import subprocess

    editor = tmp_path / "slow-editor"
    editor.write_text("#!/bin/sh\nexit 0\n")
    editor.chmod(0o755)
    monkeypatch.setenv("VISUAL", str(editor))

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        calls = suspend_calls(app, monkeypatch)
        monkeypatch.setattr(subprocess, "run", interrupted)
        await pilot.press(*"keep me")
        await until(pilot, lambda: app.model.input.draft == "keep me")
        await pilot.press("ctrl+g")
        await until(pilot, lambda: "was interrupted" in app.model.screen.note)
        assert calls == ["suspend", "resume"]
        assert app.query_one(PromptArea).text == "keep me"


# --------------------------------------------------------------------------- Ctrl-R


async def test_ctrl_r_searches_incrementally_and_enter_takes_the_match(tmp_path):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        with_history(app)
        await pilot.press(*"half typed")
        await until(pilot, lambda: app.model.input.draft == "half typed")
        await pilot.press("ctrl+r", *"tes")
        await until(pilot, lambda: app.query_one(PromptArea).text == "add a test for parse")
        assert "search: “tes” 2 back · Ctrl-R older" in str(app.query_one("#note").render())
        await pilot.press("ctrl+r")  # the next older match
        await until(pilot, lambda: app.query_one(PromptArea).text == "fix the failing test")
        await pilot.press("enter")  # taken into the prompt, not sent
        await until(pilot, lambda: app.model.input.search is None)
        assert app.model.input.draft == "fix the failing test" and not app.model.run.running
        await pilot.press(*"!")
        await until(pilot, lambda: app.query_one(PromptArea).text == "fix the failing test!")


async def test_esc_leaves_the_search_with_the_prompt_as_it_was(tmp_path):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        with_history(app)
        await pilot.press(*"mine")
        await until(pilot, lambda: app.model.input.draft == "mine")
        await pilot.press("ctrl+r", *"git")
        await until(pilot, lambda: app.query_one(PromptArea).text == "git status please")
        await pilot.press("escape")
        await until(pilot, lambda: app.query_one(PromptArea).text == "mine")
        assert app.model.input.search is None and not app.model.run.running


def _fold(*msgs: ui.Msg) -> ui.Model:
    model = replace(ui.Model(), input=ui.InputState(history=HISTORY, draft="was"))
    for msg in msgs:
        model, _ = update(model, msg)
    return model


def key(action: str, text: str = "") -> ui.SearchKey:
    return ui.SearchKey(action=action, text=text, at=AT)


@pytest.mark.parametrize(("keys", "draft", "failed"), [
    ([key("start")], "was", False),
    ([key("start"), key("type", "p")], "explain the parser", False),
    ([key("start"), key("type", "P")], "explain the parser", False),  # case folded
    ([key("start"), key("type", "p"), key("start")], "add a test for parse", False),
    ([key("start"), key("type", "p"), key("start"), key("start")], "git status please", False),
    ([key("start"), key("type", "p"), key("start"), key("start"), key("start")], "git status please", True),
    ([key("start"), key("type", "z")], "was", True),
    ([key("start"), key("type", "fix"[0]), key("type", "i"), key("type", "x")], "fix the failing test", False),
    ([key("start"), key("type", "x"), key("erase")], "was", False),
    ([key("start"), key("start")], "explain the parser", False),  # an empty query steps through all
    ([key("start"), key("type", "git"), key("cancel")], "was", False),
    ([key("start"), key("type", "git"), key("accept")], "git status please", False),
    ([key("type", "x")], "was", False),  # no search going: nothing happens
])
def test_the_search_rules(keys, draft, failed):
    model = _fold(*keys)
    assert model.input.draft == draft
    assert (model.input.search is not None and model.input.search.failed) == failed


async def test_the_welcome_resumes_with_ctrl_t_and_ctrl_r_searches():
    app = MrSmithApp(factory([]), config=CONFIG, history_path=None, welcome=False)
    keys = {b.key: b.action for bindings in app._bindings.key_to_bindings.values() for b in bindings}
    assert keys.get("ctrl+t") == "resume_last" and "ctrl+r" not in keys
