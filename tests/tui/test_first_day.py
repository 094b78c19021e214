"""#23: every defect a new user hit on the first day, each held by a test (pure `update`, or Pilot)."""

from __future__ import annotations

import json
import re

import pytest
from textual import events

from mrsmith_tui import msgs as m
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.commands import REGISTRY, run_command
from mrsmith_tui.tui.model import fit_status, status_fields
from mrsmith_tui.tui.screens.modals import ApprovalModal, QuestionModal, _arguments_text, in_full
from mrsmith_tui.tui.screens.theme_picker import ThemePicker
from mrsmith_tui.tui.shell.bridge import TuiApprover
from mrsmith_tui.tui.shell.theme_file import load_theme, save_theme
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update import initial_model, update
from mrsmith_tui.tui.view.answer import AnswerRenderer
from mrsmith_tui.tui.view.blocks import _wrap, render_tool
from mrsmith_tui.tui.view.prompt_box import PromptArea, line_breaks
from mrsmith_tui.tui.view.welcome import welcome_content
from tests.tui.commands.fake_context import FakeContext
from tests.tui.fakes import AT, CONFIG, Clock, factory, fold
from tests.tui.pilot import painted, settled, until


def running():
    model, _ = fold(initial_model(agent="default", model="m"), ui.Submit(text="hi", at=1.0),
                    m.RunStarted(run_id="r1", at=1.0))
    return model


def make_app(script=None, made=None, **kw) -> MrSmithApp:
    return MrSmithApp(factory(script, made), config=CONFIG, history_path=None, welcome=False, **kw)


# ------------------------------------------------------------------ 1. a pasted CR is a line break


def test_a_lone_cr_and_crlf_are_line_breaks():
    assert line_breaks("a\rb\r\nc\n") == "a\nb\nc\n"


async def test_a_paste_with_cr_line_breaks_reaches_the_prompt_as_lines():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(events.Paste("first\rsecond\rthird"))  # as the terminal sends it
        await until(pilot, lambda: app.model.input.draft == "first\nsecond\nthird")
        assert app.prompt_area is not None and "␍" not in app.prompt_area.text


# ------------------------------------------------------------------ 2. Tab and Shift-Tab lose no key


@pytest.mark.parametrize("key", ["tab", "shift+tab"])
async def test_tab_with_nothing_to_complete_keeps_the_focus_and_the_keys(key):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"abc", key, *"def")
        await until(pilot, lambda: app.model.input.draft == "abcdef")
        assert app.focused is app.query_one(PromptArea)


# ------------------------------------------------------------------ 3. queued prompts are put back


@pytest.mark.parametrize("key", [ui.CancelKey, ui.InterruptKey])
def test_cancelling_puts_the_queued_prompts_back_in_the_prompt(key):
    model, _ = fold(running(), ui.Submit(text="then this", at=2), ui.Submit(text="and that", at=3),
                    ui.DraftChanged(text="typing", at=4))
    model, effects = fold(model, key(at=5))
    assert fx.CancelRun() in effects and model.run.queued == ()
    assert model.input.draft == "then this\n\nand that\n\ntyping"
    assert "2 queued prompts not sent: put back in the prompt" in model.conv.blocks[-1].text


def test_the_cancelling_note_goes_when_the_run_is_over():
    model, _ = fold(running(), ui.CancelKey(at=2))
    assert model.screen.note == "cancelling…"
    model, _ = fold(model, m.RunEnded(run_id="r1", cancelled=True, at=3), ui.WorkerDone(at=3))
    assert model.screen.note == "" and not model.run.running


# ------------------------------------------------------------------ 5. hints and aliases


@pytest.mark.parametrize(("typed", "runs"), [("/clear", "/reset"), ("/new", "/reset"), ("/resume", "/sessions"),
                                             ("/cost", "/usage")])
def test_the_names_people_bring_from_other_agents_are_aliases(typed, runs):
    _, effects = update(initial_model(), ui.Submit(text=typed, at=1))
    assert fx.Command(runs, "") in effects


def test_quit_is_exit_and_help_lists_every_alias():
    _, effects = update(initial_model(), ui.Submit(text="/quit", at=1))
    assert fx.Exit() in effects
    text = REGISTRY.help_text()
    for alias in ("/clear", "/quit", "/resume", "/cost"):
        assert f"also {alias}" in text or f", {alias}" in text


@pytest.mark.parametrize(("typed", "hint"), [("/omit", None), ("/mpc", "/mcp"), ("/hlep", "/help"), ("/exti", "/exit"),
                                             ("/sesions", "/sessions"), ("/permisions", "/permissions"),
                                             ("/them", "/theme")])
def test_an_unknown_command_suggests_only_a_close_match(typed, hint):
    model, _ = update(initial_model(), ui.Submit(text=typed, at=1))
    text = model.conv.blocks[-1].text
    if hint is None:
        assert "did you mean" not in text and "/help lists the commands" in text
    else:
        assert text.endswith(f"did you mean {hint}?")


# ------------------------------------------------------------------ 6. End from the prompt


async def test_end_in_the_prompt_jumps_to_new_output_below():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for i in range(30):
            app.dispatch(ui.Note(text=f"line {i}\n" * 3, at=AT))
        app.dispatch(ui.Scrolled(at_bottom=False, at=AT))
        app.dispatch(ui.Note(text="news", at=AT))
        await until(pilot, lambda: app.prompt_area is not None and app.prompt_area.output_below)
        await pilot.press("end")
        await until(pilot, lambda: app.model.conv.follow and not app.model.conv.unseen)


# ------------------------------------------------------------------ 8. a read-only view has no prompt


async def test_mrsmith_view_shows_no_prompt():
    app = MrSmithApp(None, config=CONFIG, history_path=None, replay=[m.Notice(text="recorded", at=AT)])
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.model.conv.blocks)
        assert not app.query(PromptArea) and app.prompt_area is None
        assert app.focused is app.query_one("#conversation")


@pytest.mark.parametrize("key", ["q", "escape"])
async def test_mrsmith_view_is_left_with_q_or_esc_as_a_pager(key):
    app = MrSmithApp(None, config=CONFIG, history_path=None, replay=[m.Notice(text="recorded", at=AT)])
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.model.conv.blocks)
        await pilot.press(key)
        await until(pilot, lambda: not app.is_running)


# ------------------------------------------------------------------ 9. question glyphs


def _ask(multiple: bool):
    def ask(session, cancel):
        session.answers.append(session.approver.ask((m.Question(question="which?", multiple=multiple, options=(
            m.QuestionOption(label="red"), m.QuestionOption(label="blue"))),)))
    return ask


async def test_a_single_choice_question_shows_radio_glyphs_that_follow_the_cursor():
    made: list = []
    clock = Clock()
    app = make_app([[_ask(False)]], made, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, QuestionModal))
        options = app.screen.query_one("#q-options")
        rows = [str(options.get_option_at_index(i).prompt) for i in range(2)]
        assert rows[0].startswith("› (•) 1. red") and rows[1].startswith("  ( ) 2. blue")
        assert "▐X▌" not in "".join(rows)
        clock.later(10)
        await pilot.press("down")
        await until(pilot, lambda: str(options.get_option_at_index(1).prompt).startswith("› (•)"))
        await pilot.press("enter")
        await until(pilot, lambda: not app.model.run.running)
    assert made[0].answers == ["blue"]


async def test_a_multiple_choice_question_ticks_with_a_glyph():
    made: list = []
    clock = Clock()
    app = make_app([[_ask(True)]], made, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: painted(app, QuestionModal))
        options = app.screen.query_one("#q-options")
        assert "[ ] 1. red" in str(options.get_option_at_index(0).prompt)
        clock.later(10)
        await pilot.press("space")
        await until(pilot, lambda: "[x] 1. red" in str(options.get_option_at_index(0).prompt))
        await pilot.press("2", "enter")
        await until(pilot, lambda: not app.model.run.running)
    assert made[0].answers == ["red, blue"]


# ------------------------------------------------------------------ 10. a cancelled setup is no error


def test_a_cancelled_first_run_setup_exits_0(monkeypatch, tmp_path, capsys):
    import mrsmith_tui.tui.screens.setup as setup
    from mrsmith_tui import cli
    from mrsmith_tui.cli import command

    monkeypatch.setattr(setup, "run_setup", lambda path: False)
    args = cli.build_parser().parse_args(["--config", str(tmp_path / "config.toml")])
    with pytest.raises(SystemExit) as ended:
        command._first_run(args, CONFIG)
    assert ended.value.code == 0 and "setup cancelled" in capsys.readouterr().err
    assert not (tmp_path / "config.toml").exists()


# ------------------------------------------------------------------ seen once


def test_a_finished_agent_no_longer_reads_writing():
    model, _ = fold(initial_model(), m.AgentSpawned(agent_id="a1", label="x", task="t", at=1),
                    m.FromAgent(agent_id="a1", msg=m.TextDelta(block_id="t", text="hi", at=2), at=2),
                    m.AgentStateChanged(agent_id="a1", state="done", at=3))
    assert model.sidebar.agents[0].last_action == "finished"


def test_reset_zeroes_the_tool_count():
    model, _ = fold(initial_model(), m.ToolBudget(used=3, limit=None, at=1), ui.Cleared(at=2))
    assert model.ledger.tool_used == 0


def test_at_80_columns_the_running_agents_outlast_the_agents_name():
    model, _ = fold(initial_model(agent="default", model="qwen3-coder-30b-a3b-instruct", context_limit=32000),
                    *[m.AgentSpawned(agent_id=f"a{i}", label="x", task="t", at=1) for i in range(3)],
                    m.UsageReported(usage=m.UsageInfo(prompt_tokens=9000, completion_tokens=900), context_tokens=9900,
                                    at=2))
    shown = [text for text, _ in fit_status(status_fields(model), 60)]
    assert "3 agents running" in shown


def test_a_diffed_write_shows_its_content_once_and_the_footer_repeats_nothing():
    args = json.dumps({"path": "a.py", "content": "print(1)\n" * 50})
    assert "content" not in _arguments_text(args, diff_shown=True) and "path: a.py" in _arguments_text(args, diff_shown=True)
    req = ui.Request(request_id="q", kind="approval", at=0, tool="shell", reason="short", spec="shell:" + "x" * 200)
    shown = str(in_full(req, 60))
    assert "Why" not in shown and "short" not in shown and "x" * 100 in shown
    assert ("a", "always (press twice)") in ApprovalModal.KEYS


def test_a_no_can_carry_a_line_for_the_model():
    from mrsmith_tui.tools.base import ApprovalQuery

    approver = TuiApprover(lambda msg: approver.resolve(msg.request_id, "no: use ruff instead"))
    query = ApprovalQuery(tool="shell", arguments="{}", reason="runs flake8", spec="shell:flake8")
    assert approver.approve(query) == "no"
    assert approver.refusal(query).endswith("They said: use ruff instead")
    model, _ = fold(running(), m.ApprovalRequested(request_id="r", tool="shell", arguments="{}", reason="x",
                                                   spec="shell", at=2), ui.RequestShown(request_id="r", at=2))
    model, effects = fold(model, ui.Answer(request_id="r", answer="explain", at=9))
    assert model.pending.explaining and effects == []
    from mrsmith_tui.tui.update import key_route
    assert key_route(model, 10, "y", True) == "pass"  # typing the line: "y" is a letter, not a yes
    model, effects = fold(model, ui.Answer(request_id="r", answer="no: use ruff", at=10))
    assert effects == [fx.Resolve("r", "no: use ruff")]


def test_theme_without_a_name_opens_the_picker_and_the_choice_is_kept(tmp_path):
    ctx = FakeContext()
    run_command(REGISTRY, ctx, "/theme", "")
    picker, answered = ctx.asked[-1]
    assert isinstance(picker, ThemePicker) and picker.themes == ["mrsmith", "nord"]
    answered("nord")
    assert ctx.theme == "nord"
    save_theme(tmp_path / "theme", "nord")
    assert load_theme(tmp_path / "theme") == "nord"
    (tmp_path / "theme").write_text("../../etc\n")
    assert load_theme(tmp_path / "theme") is None


async def test_the_palette_keeps_export_usage_and_finds_theme():
    app = make_app()
    async with app.run_test(size=(100, 30)):
        commands = {c.title: c.help for c in app.get_system_commands(app.screen)}
    assert commands["/export"].startswith("\\[path]") and "/theme" in commands


def test_a_table_row_wraps_under_its_second_column():
    lines = _wrap("* pdf-tools  Extract text and tables from PDF files, fill forms, merge documents", 50, hang=True)
    assert len(lines) > 1 and all(line.startswith(" " * 13) for line in lines[1:])


def test_a_long_tool_output_folds_its_middle_and_keeps_its_end():
    text = "\n".join(f"line {i}" for i in range(600)) + "\nexit code 3"
    for folded in (True, False):
        shown = render_tool(ui.Block(key="b", kind="tool", name="shell", text=text, done=True, ok=False, exit_code=3,
                                     folded=folded), 0, 100).plain
        assert "line 0" in shown and "exit code 3" in shown and "line 300" not in shown


# ------------------------------------------------------------------ welcome


def test_the_welcome_says_what_answers_where_and_how_to_resume():
    w = ui.Welcome(version="0.1.0", endpoint="http://127.0.0.1:8080/v1", folder="/home/ann/proj", last_id="0193-abc",
                   last_when="2026-12-03 18:40", last_prompt="fix the tests", last_turns=3, can_resume=True)
    text = welcome_content(w, ui.StatusLedger(agent="default", model="qwen3-coder"), 100).plain
    for part in ("0.1.0", "qwen3-coder", "http://127.0.0.1:8080/v1", "/home/ann/proj", "F1 help", "Ctrl-T resumes it",
                 "fix the tests", "3 turns"):
        assert part in text
    gathered = {k: v for k, v in vars(w).items() if k != "warnings"}  # the model counts those (start-up warnings)
    model, effects = fold(initial_model(), ui.Welcomed(at=1, **gathered),
                          ui.ResumeLast(at=2))
    assert effects == [fx.SwitchSession("0193-abc")]
    model, effects = fold(model, ui.Note(text="x", at=3), ui.ResumeLast(at=4))
    assert effects == []  # only from the welcome


async def test_the_welcome_shows_on_an_empty_conversation_and_goes_with_the_first_block():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        app.dispatch(ui.Welcomed(version="9.9", folder="/proj", at=AT))
        welcome = app.query_one("#welcome")
        await until(pilot, lambda: welcome.display and "F1" in str(welcome.render()))
        app.dispatch(ui.Note(text="hello", at=AT))
        await until(pilot, lambda: not welcome.display)


# ------------------------------------------------------------------ long answers


def _long_answer(n: int) -> str:
    parts, i = [], 0
    while sum(map(len, parts)) < n:
        parts.append(f"## Part {i}\n\nSome **bold** words and a list:\n\n- one\n- two\n\n```python\nx = {i}\n```\n\n")
        i += 1
    return "".join(parts) + "THE END"


def test_a_60k_answer_streams_with_its_end_shown_and_ends_as_markdown():
    """The live tail shows the end of what arrived (its size capped); the Markdown worker renders
    the closed chunks meanwhile and says when the finished answer's lines are all there (#26)."""
    import threading

    from rich.console import Console

    from mrsmith_tui.tui.model import Block
    from mrsmith_tui.tui.view.blocks import LIVE_CHARS, render_text_live

    console = Console(width=100)
    ready = threading.Event()
    renderer = AnswerRenderer(lambda: (console, console.options), ready.set)
    text = _long_answer(60_000)
    for cut in range(2_000, len(text), 7_000):
        live = render_text_live(Block(key="b1", kind="text", started=0.0, text=text[:cut])).plain
        assert text[:cut].rstrip().split("\n")[-1] in live  # the end of what arrived is on screen
        assert len(live) < LIVE_CHARS + 200
        renderer.want(text[:cut], streaming=True, width=100)
    renderer.want(text, streaming=False, width=100)
    assert ready.wait(90)
    lines = renderer.lines(text, 100)
    assert lines is not None
    shown = "\n".join("".join(s.text for s in line) for line in lines)
    assert "THE END" in shown and "Part 0" in shown
    assert "## Part" not in shown and "```" not in shown and "**bold**" not in shown  # drawn, not source
    one_line = Block(key="b2", kind="text", started=0.0, text="x" * 50_000 + "END")
    assert render_text_live(one_line).plain.endswith("END") and len(render_text_live(one_line).plain) < 2 * LIVE_CHARS


def test_a_short_finished_answer_is_markdown_at_once_without_the_worker():
    from rich.console import Console

    console = Console(width=100)
    renderer = AnswerRenderer(lambda: (console, console.options), lambda: None)
    lines = renderer.lines("## Title\n\nSome **bold** words.\n", 100)
    assert lines is not None
    shown = "\n".join("".join(s.text for s in line) for line in lines)
    assert "Title" in shown and "bold" in shown and "**" not in shown and "##" not in shown


async def test_a_long_streamed_answer_is_markdown_on_screen_when_it_ends():
    text = _long_answer(60_000)
    app = make_app([[m.TextDelta(block_id="t", text=text[:30_000], at=AT),
                     m.TextDelta(block_id="t", text=text[30_000:], at=AT),
                     m.BlockEnded(block_id="t", kind="text", text=text, at=AT)]])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*"go", "enter")
        await until(pilot, lambda: not app.model.run.running)
        view = app.query(".-text").last()
        await until(pilot, lambda: view.settled)
        shown = view.text_shown()
        assert "THE END" in shown and "Part 0" in shown and "## Part" not in shown and "```" not in shown


# ------------------------------------------------------------------ narrow terminals


async def test_below_100_columns_the_sidebar_never_covers_the_conversation():
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        app.dispatch(m.TasksChanged(todos=(m.Todo(content="read it"),), at=AT))
        app.dispatch(ui.ToggleSidebar(at=AT))
        app.dispatch(ui.ToggleSidebar(at=AT))
        sidebar, conv = app.query_one("#sidebar"), app.query_one("#conversation")
        await until(pilot, lambda: sidebar.display)
        await pilot.resize_terminal(60, 20)
        await until(pilot, lambda: app.model.screen.width == 60 and sidebar.has_class("-strip"))
        await settled(pilot)  # laid out at the new size
        assert conv.display and conv.region.height > sidebar.region.height
        assert not conv.region.overlaps(sidebar.region)


# ------------------------------------------------------------------ 7. sessions a person can name


def _recorded(root, session_id, cwd, prompt):
    from mrsmith_tui.history import UserEntry, assistant
    from mrsmith_tui.session import records
    from mrsmith_tui.session.transcript import TranscriptWriter

    w = TranscriptWriter(root / session_id / "transcript.jsonl", header=records.header(
        session_id=session_id, created=AT, cwd=str(cwd), agent="default", model="m", provider="p", version="0"))
    w.append(m.UserPrompt(run_id="run1", text=prompt))
    w.append(m.PromptRecorded(run_id="run1", entry=UserEntry(text=prompt)))
    w.append(m.AnswerRecorded(run_id="run1", entry=assistant("ok"), model="m"))
    w.append(m.RunEnded(run_id="run1"))
    w.close()


def test_a_session_is_found_by_the_tail_list_shows(tmp_path):
    from mrsmith_tui.session.store import find_session, format_sessions, list_sessions, typed_id

    ids = [f"01a2{n:04x}-0000-7000-8000-00000000{n:04x}" for n in range(8)]  # one hour: the same start
    for i in ids:
        _recorded(tmp_path, i, tmp_path, "p")
    table = format_sessions(list_sessions(tmp_path)).splitlines()
    shown = [row.split()[0] for row in table[1:]]
    assert len(set(shown)) == 8 and all(len(s) == 8 for s in shown)
    for i in ids:
        assert find_session(tmp_path, typed_id(i)).id == i
    assert find_session(tmp_path, ids[3].replace("-", "")[:20]).id == ids[3]  # its start still works


def test_resume_without_an_id_needs_the_screen(capsys):
    from mrsmith_tui.cli import main

    code = main(["--resume", "-p", "hi"])
    assert code == 2 and "--resume without an ID picks a session on screen" in capsys.readouterr().err


async def test_resume_without_an_id_opens_the_picker_and_the_welcome_offers_the_last_session(tmp_path, monkeypatch):
    from pathlib import Path

    from mrsmith_tui.tui.screens.sessions_picker import SessionPicker

    _recorded(tmp_path, "01a20000-0000-7000-8000-0000000000aa", Path.cwd(), "fix the flaky test")
    app = MrSmithApp(factory(), config=CONFIG, history_path=None, sessions_root=tmp_path,
                     resume=lambda sid, sink, approver: factory()(sink, approver), pick_session=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SessionPicker))
        await pilot.press("escape")
        await until(pilot, lambda: app.model.welcome is not None and app.model.welcome.last_id)
        assert app.model.welcome.last_prompt == "fix the flaky test" and app.model.welcome.can_resume
        welcome = app.query_one("#welcome")
        await until(pilot, lambda: "Ctrl-T" in str(welcome.render()))


async def test_a_command_run_from_the_palette_shows_its_output_in_view():
    from textual.command import CommandPalette

    from tests.tui.test_app import palette_highlights

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for i in range(20):
            app.dispatch(ui.Note(text=f"line {i}\n" * 3, at=AT))
        conv = app.query_one("#conversation")
        await until(pilot, lambda: conv.max_scroll_y > 0 and conv.scroll_y == conv.max_scroll_y)
        before = conv.max_scroll_y
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"/help")
        await until(pilot, lambda: palette_highlights(app, "/help"))
        await pilot.press("enter")
        await until(pilot, lambda: app.model.conv.blocks[-1].text.startswith("Commands"))
        await until(pilot, lambda: conv.max_scroll_y > before and conv.scroll_y > before)  # moved to the help
        await until(pilot, lambda: "/help         this list" in _screen_text(app))  # shown from its first line


def _screen_text(app) -> str:
    return re.sub(r"<[^>]+>", "", app.export_screenshot()).replace("&#160;", " ")


async def test_typing_on_the_focused_panel_then_enter_sends_the_prompt_and_opens_no_agent():
    from mrsmith_tui.tui.view.sidebar import SidebarView

    made: list = []
    app = make_app(made=made)
    async with app.run_test(size=(120, 30)) as pilot:
        app.dispatch(m.AgentSpawned(agent_id="agent-1", label="x", task="t", at=AT))
        await pilot.press(*"/agents", "enter")
        await until(pilot, lambda: app.focused is app.query_one(SidebarView))
        await pilot.press(*"hi", "enter")
        await until(pilot, lambda: made and made[0].prompts == ["hi"])
        assert app.model.screen.agent_open is None and app.model.input.draft == ""
        await pilot.press(*"next", "enter")
        await until(pilot, lambda: made[0].prompts == ["hi", "next"])  # two prompts, never merged
