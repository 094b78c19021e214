"""#32: defects a new user's try-out found at main, each held by a test (pure `update`, or Pilot)."""

from __future__ import annotations

import re
from pathlib import Path

from mrsmith_tui import msgs as m
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.model import fit_status, status_fields
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update import initial_model
from mrsmith_tui.tui.update.commands import help_text
from mrsmith_tui.tui.view.welcome import welcome_content
from tests.tui.fakes import AT, CONFIG, factory, fold
from tests.tui.pilot import until

WELCOME = ui.Welcomed(at=AT, folder="/proj", last_id="0193-abc", last_when="yesterday", last_turns=2, can_resume=True)
MCP_FAILED = "mcp server proj failed: Connection closed (/mcp list)"


# ------------------------------------------------------------------ 1. start-up warnings keep the welcome


def test_a_warning_before_the_conversation_is_a_toast_kept_for_help_and_ctrl_t_still_resumes():
    model, effects = fold(initial_model(), m.Warning(text=MCP_FAILED, code="mcp", at=AT), WELCOME)
    assert model.conv.blocks == () and effects == [fx.Notify(MCP_FAILED)]
    assert model.startup_warnings == (MCP_FAILED,) and model.welcome.warnings == 1
    model, effects = fold(model, m.Warning(text="theme 'nope' not found", code="theme", at=AT))
    assert model.welcome.warnings == 2 and model.conv.blocks == ()
    _, effects = fold(model, ui.ResumeLast(at=AT))
    assert effects == [fx.SwitchSession("0193-abc")]
    model, _ = fold(model, ui.Submit(text="/help", at=AT))
    assert MCP_FAILED in model.conv.blocks[-1].text and "theme 'nope' not found" in model.conv.blocks[-1].text


def test_the_same_start_up_warning_twice_is_kept_once():
    model, effects = fold(initial_model(), m.Warning(text=MCP_FAILED, at=AT), m.Warning(text=MCP_FAILED, at=AT))
    assert model.startup_warnings == (MCP_FAILED,) and len(effects) == 1


def test_a_warning_once_the_conversation_has_started_is_a_block():
    model, _ = fold(initial_model(), ui.Note(text="hello", at=AT))
    model, effects = fold(model, m.Warning(text=MCP_FAILED, at=AT))
    assert model.conv.blocks[-1].kind == "warning" and effects == [] and model.startup_warnings == ()


def test_the_welcome_says_how_many_start_up_warnings_and_where_to_read_them():
    w = ui.Welcome(folder="/proj", warnings=2)
    text = welcome_content(w, ui.StatusLedger(agent="default", model="m"), 100).plain
    assert "2 start-up warnings" in text and "/help" in text
    assert "warning" not in welcome_content(ui.Welcome(folder="/proj"), ui.StatusLedger(), 100).plain


def test_start_up_warnings_stay_on_the_status_line_once_the_welcome_is_gone():
    """`-c`: a resumed session's history hides the welcome from the start, and the toast fades."""
    model, _ = fold(initial_model(agent="a", model="m"), m.Warning(text=MCP_FAILED, at=AT))
    assert not any("start-up" in text for _, text, _ in status_fields(model))  # the welcome counts it
    model, _ = fold(model, m.Notice(text="resumed session 0193", at=AT))
    shown = [(text, style) for _, text, style in status_fields(model) if "start-up" in text]
    assert shown == [("⚠ 1 start-up warning · /help", "ctx-warning")]
    assert any("start-up" in text for text, _ in fit_status(status_fields(model), 80))


def test_a_switched_session_keeps_the_start_up_warnings_for_help():
    model, _ = fold(initial_model(), m.Warning(text=MCP_FAILED, at=AT), WELCOME,
                    ui.SessionSwitched(session_id="x", agent="a", model="m", at=AT))
    assert model.startup_warnings == (MCP_FAILED,)


async def test_an_unknown_theme_leaves_the_welcome_on_screen_and_says_so_in_a_toast():
    app = MrSmithApp(factory(), config=CONFIG, history_path=None, welcome=False, theme="nope")
    async with app.run_test(size=(100, 30)) as pilot:
        app.dispatch(WELCOME)
        welcome = app.query_one("#welcome")
        await until(pilot, lambda: welcome.display and "Ctrl-T" in str(welcome.render()))
        assert app.model.conv.blocks == ()
        assert any("theme 'nope' not found" in n.message for n in app._notifications)
        assert "1 start-up warning" in str(welcome.render())


# ------------------------------------------------------------------ 3. Ctrl-D quits only an empty prompt


def test_ctrl_d_quits_only_on_an_empty_prompt():
    assert fold(initial_model(), ui.QuitKey(at=AT))[1] == [fx.Exit()]
    model, _ = fold(initial_model(), ui.DraftChanged(text="half a thought", at=AT))
    assert fold(model, ui.QuitKey(typed="half a thought", after_cursor=True, at=AT))[1] == [fx.DeleteRight()]
    model, effects = fold(model, ui.QuitKey(typed="half a thought", at=AT))
    assert fx.Exit() not in effects and "empty prompt" in model.screen.note
    # the widget's text counts even when the model's draft is a key behind
    assert fx.Exit() not in fold(initial_model(), ui.QuitKey(typed="a", at=AT))[1]


async def test_ctrl_d_in_a_draft_deletes_the_character_under_the_cursor_and_keeps_the_app():
    from mrsmith_tui.tui.view.prompt_box import PromptArea

    app = MrSmithApp(factory(), config=CONFIG, history_path=None, welcome=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"abc", "home", "ctrl+d")
        await until(pilot, lambda: app.model.input.draft == "bc")
        await pilot.press("end", "ctrl+d")
        await until(pilot, lambda: "empty prompt" in app.model.screen.note)
        assert app.is_running and app.query_one(PromptArea).text == "bc"
        await pilot.press("ctrl+a", "ctrl+k")  # readline's kill to the end: the prompt is empty
        await until(pilot, lambda: app.query_one(PromptArea).text == "")
        await pilot.press("ctrl+d")
        await until(pilot, lambda: not app.is_running)


# ------------------------------------------------------------------ 4. /help names every key the docs name

KEY_NAME = re.compile(r"\b(?:(?:Ctrl|Alt|Shift)-(?:[A-Z]\b|Tab|Up|Down|Enter)|F\d+\b|PageUp|PageDown|Esc\b|End\b|Tab\b)")


def _section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def _doc_keys() -> set[str]:
    root = Path(__file__).parents[2]
    table = _section((root / "docs" / "ui.md").read_text(), "Keys")
    firsts = " ".join(line.split("|")[1] for line in table.splitlines() if line.startswith("| "))
    readme = _section((root / "README.md").read_text(), "Keys")
    return set(KEY_NAME.findall(firsts) + KEY_NAME.findall(readme))


def test_help_names_every_key_of_the_readme_and_the_keys_table():
    keys = _doc_keys()
    assert {"Shift-Tab", "Ctrl-R", "Ctrl-G", "Ctrl-T", "Ctrl-D", "F2"} <= keys  # the table was read
    assert keys - set(KEY_NAME.findall(help_text().split("\nKeys\n", 1)[1])) == set()


# ------------------------------------------------------------------ 5. a broken theme file says why


def _sea(folder: Path) -> Path:
    themes = folder / "mrsmith" / "themes"
    themes.mkdir(parents=True)
    (themes / "sea.toml").write_text('name = "sea"\nprimary = "blurple"\n')
    return themes


async def test_a_broken_user_theme_is_a_start_up_warning_and_theme_says_why(tmp_path, monkeypatch):
    from mrsmith_tui.tui.commands import REGISTRY, run_command
    from tests.tui.commands.fake_context import FakeContext

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    _sea(tmp_path)
    app = MrSmithApp(factory(), config=CONFIG, history_path=None, welcome=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: any("sea.toml: primary" in w and "blurple" in w and "(skipped)" in w
                                       for w in app.model.startup_warnings))
        assert app.model.conv.blocks == () and "sea" not in app.available_themes
        ctx = FakeContext(model=app.model)
    run_command(REGISTRY, ctx, "/theme", "sea")
    assert "no theme 'sea'" in ctx.notes[-1][0] and "blurple" in ctx.notes[-1][0]


# ------------------------------------------------------------------ 6. @ completion of a name with a blank


def _completed(draft: str, files: tuple[str, ...]) -> str:
    model, _ = fold(initial_model(), ui.FilesIndexed(paths=files, at=AT), ui.DraftChanged(text=draft, at=AT))
    assert model.input.completions, "nothing offered"
    model, _ = fold(model, ui.AcceptCompletion(at=AT))
    return model.input.draft


def test_tab_puts_a_name_with_a_blank_in_quotes_and_the_prompt_attaches_it():
    from mrsmith_tui.core.prompt_syntax import parse_prompt

    draft = _completed("look @my", ("my file.txt", "other.txt"))
    assert draft == 'look @"my file.txt" '
    assert [x.path for x in parse_prompt(draft + "please").mentions] == ["my file.txt"]
    assert _completed("look @oth", ("my file.txt", "other.txt")) == "look @other.txt "  # no blank: as before


def test_a_folder_with_a_blank_stays_open_so_its_names_complete_in_turn():
    files = ("my dir/", "my dir/a b.py", "my dir/c.py")
    draft = _completed("see @my", files)
    assert draft == 'see @"my dir/'
    model, _ = fold(initial_model(), ui.FilesIndexed(paths=files, at=AT), ui.DraftChanged(text=draft + "c", at=AT))
    assert model.input.completions == ("@my dir/c.py",)
    model, _ = fold(model, ui.AcceptCompletion(at=AT))
    assert model.input.draft == 'see @"my dir/c.py" '


def test_the_welcome_promises_what_the_permission_mode_does():
    def promise(mode: str) -> str:
        return welcome_content(ui.Welcome(folder="/proj"), ui.StatusLedger(agent="a", model="m", mode=mode), 100).plain

    assert "asks first" in promise("ask")
    assert "asks first" not in promise("auto") and "does NOT ask" in promise("auto")
    assert "changes nothing" in promise("plan") and "edits files without asking" in promise("accept-edits")


async def test_help_is_shown_from_its_first_line_and_the_next_prompt_follows_the_end_again():
    app = MrSmithApp(factory(), config=CONFIG, history_path=None, welcome=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.prompt_area is not None)
        await pilot.press(*"/help", "enter")
        await until(pilot, lambda: app.model.conv.top is not None)
        conversation = app.query_one("#conversation")
        await until(pilot, lambda: "/help         this list" in _screen_text(app))  # not only the keys table
        assert not app.model.conv.follow and conversation.scroll_y < conversation.max_scroll_y
        await pilot.press(*"hello", "enter")
        await until(pilot, lambda: app.model.conv.follow)


def _screen_text(app) -> str:
    return re.sub(r"<[^>]+>", "", app.export_screenshot()).replace("&#160;", " ")


async def test_the_hint_row_brackets_the_completion_tab_has_put_in_the_prompt():
    app = MrSmithApp(factory(), config=CONFIG, history_path=None, welcome=False)
    async with app.run_test(size=(100, 24)) as pilot:
        await until(pilot, lambda: app.prompt_area is not None)
        await pilot.press(*"/u", "tab", "tab")
        note = app.query_one("#note")
        await until(pilot, lambda: app.model.input.draft == "/undo " and "[/undo]" in str(note.render()))
        assert "/usage" in str(note.render())


def test_a_long_wait_for_the_model_says_how_long_and_how_to_stop_it():
    model, _ = fold(initial_model(agent="a", model="m"), ui.Tick(at=99.0), ui.Submit(text="hi", at=100.0))
    assert "thinking" in status_fields(model)[0][1] and "s ·" not in status_fields(model)[0][1]
    model, _ = fold(model, ui.Tick(at=112.4))
    assert status_fields(model)[0][1].endswith("thinking 12s · Esc cancels")
