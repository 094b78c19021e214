"""`@path` and `!command` in the full-screen UI against the real session and the loopback server
(issue #25): what is attached is shown and sent, a secret asks, a command runs in the root with its
output in a shell block and in the next prompt's context, and only a `!` typed first runs."""

from __future__ import annotations

import json

import pytest

from loopback import text_turn
from mrsmith_tui.records import replace
from mrsmith_tui.tui.screens.modals import ApprovalModal
from mrsmith_tui.tui.shell.effect_runner import carry_out
from mrsmith_tui.tui.update import effects as fx
from tests.tui.fakes import Clock
from tests.tui.pilot import painted, until
from tests.tui.test_e2e import app_for, config_for

pytest.importorskip("mrsmith_tui.tools.builtin")


def _idle(app) -> bool:
    return not app.model.run.running and app.session is not None


def _user_texts(request: dict) -> str:
    return "\n".join(str(m.get("content")) for m in request["messages"] if m["role"] == "user")


async def _send(pilot, app, text: str) -> None:
    app.query_one("#prompt").insert(text)
    await pilot.press("enter")


async def test_a_mention_is_attached_and_said_so(loopback, tmp_path):
    srv = loopback([text_turn("read")])
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("APP_BODY = 1\n")
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await _send(pilot, app, "explain @src/app.py")
        await until(pilot, lambda: _idle(app) and any(b.kind == "usage" for b in app.model.conv.blocks))
        notice = next(b for b in app.model.conv.blocks if b.kind == "notice" and b.text.startswith("attached"))
        assert "src/app.py (1 line" in notice.text
    texts = _user_texts(srv.requests[0])
    assert "APP_BODY = 1" in texts and texts.rstrip().endswith("explain @src/app.py")


async def test_a_secret_mention_asks_and_no_leaves_it_out(loopback, tmp_path):
    srv = loopback([text_turn("ok")])
    (tmp_path / ".env").write_text("TOKEN=zzsecretvalue123456\n")
    clock = Clock()
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await _send(pilot, app, "look at @.env")
        await until(pilot, lambda: painted(app, ApprovalModal))
        assert app.screen.req.rule == "secret" and app.screen.req.spec == "read_file:.env"
        assert app.screen.req.reason.startswith("@.env in your prompt: .env looks like a secret")
        clock.later(10)
        await pilot.press("n")
        await until(pilot, lambda: _idle(app) and any(b.kind == "usage" for b in app.model.conv.blocks))
        warning = next(b for b in app.model.conv.blocks if b.kind == "warning")
        assert warning.text.startswith("@.env: not attached")
    assert "zzsecretvalue123456" not in json.dumps(srv.requests)


async def test_a_bang_command_runs_shows_its_output_and_feeds_the_next_prompt(loopback, tmp_path):
    srv = loopback([text_turn("I see the marker")])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await _send(pilot, app, "!echo marker-99 && touch made.txt")
        await until(pilot, lambda: _idle(app) and any(b.kind == "tool" and b.done for b in app.model.conv.blocks))
        tool = next(b for b in app.model.conv.blocks if b.kind == "tool")
        assert tool.name == "shell" and tool.summary.startswith("!echo marker-99") and tool.exit_code == 0
        assert "marker-99" in tool.text
        assert (tmp_path / "made.txt").exists()  # no approval asked: the person typed it
        assert srv.requests == []
        await _send(pilot, app, "what did it print?")
        await until(pilot, lambda: _idle(app) and any(b.kind == "usage" for b in app.model.conv.blocks))
    texts = _user_texts(srv.requests[0])
    assert "marker-99" in texts and "$ echo marker-99" in texts


async def test_a_blank_before_the_bang_is_a_sentence_for_the_model(loopback, tmp_path):
    srv = loopback([text_turn("ok")])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await _send(pilot, app, "  !touch nope.txt")
        await until(pilot, lambda: _idle(app) and any(b.kind == "usage" for b in app.model.conv.blocks))
    assert not (tmp_path / "nope.txt").exists()
    assert "!touch nope.txt" in _user_texts(srv.requests[0])


async def test_a_literal_start_is_never_parsed(loopback, tmp_path):
    """What another part hands the worker as literal (an expanded custom command) runs nothing."""
    srv = loopback([text_turn("ok")])
    (tmp_path / "notes.txt").write_text("NOTES-BODY")
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        app.model = replace(app.model, run=replace(app.model.run, running=True))
        carry_out(app, fx.StartRun("!touch literal.txt @notes.txt", literal=True))
        await until(pilot, lambda: _idle(app) and any(b.kind == "usage" for b in app.model.conv.blocks))
    assert not (tmp_path / "literal.txt").exists()
    sent = json.dumps(srv.requests)
    assert "NOTES-BODY" not in sent and "!touch literal.txt @notes.txt" in sent


async def test_at_completes_from_the_root_files_and_tab_takes_the_choice(loopback, tmp_path):
    srv = loopback([text_turn("ok")])
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("APP = 2\n")
    (tmp_path / ".env").write_text("X=1\n")
    (tmp_path / ".gitignore").write_text("ignored.txt\n")
    (tmp_path / "ignored.txt").write_text("x")
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await pilot.press(*"see @")
        await until(pilot, lambda: "@src/" in app.model.input.completions)
        offered = app.model.input.completions
        assert "@.env" not in offered and "@ignored.txt" not in offered
        assert "Tab ⇥" in str(app.query_one("#note").render())
        await pilot.press(*"sr", "tab")
        await until(pilot, lambda: app.model.input.draft == "see @src/")
        await until(pilot, lambda: app.model.input.completions == ("@src/app.py",))
        await pilot.press("tab")
        await until(pilot, lambda: app.query_one("#prompt").text == "see @src/app.py ")
        await pilot.press("enter")
        await until(pilot, lambda: _idle(app) and any(b.kind == "usage" for b in app.model.conv.blocks))
    assert "APP = 2" in _user_texts(srv.requests[0])


async def test_esc_on_a_long_bang_command_kills_it(loopback, tmp_path):
    srv = loopback([])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await _send(pilot, app, "!echo started; sleep 300; touch never.txt")
        await until(pilot, lambda: any(b.kind == "tool" and "started" in b.text for b in app.model.conv.blocks))
        await pilot.press("escape")
        await until(pilot, lambda: _idle(app))
        tool = next(b for b in app.model.conv.blocks if b.kind == "tool")
        assert tool.done and not tool.ok and "cancelled" in tool.text
    assert not (tmp_path / "never.txt").exists() and srv.requests == []


async def test_ctrl_c_while_a_mention_asks_sends_nothing(loopback, tmp_path):
    srv = loopback([])
    (tmp_path / ".env").write_text("T=1\n")
    clock = Clock()
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await _send(pilot, app, "see @.env")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)
        await pilot.press("ctrl+c")  # cancels the run (Esc on the modal is a "no")
        await until(pilot, lambda: _idle(app) and any("not sent" in b.text for b in app.model.conv.blocks))
        assert not any(b.kind == "error" for b in app.model.conv.blocks)
    assert srv.requests == []

