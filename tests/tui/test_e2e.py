"""The TUI against the real AgentSession, OpenAICompatProvider and the loopback server."""

from __future__ import annotations

from pathlib import Path

import pytest

from loopback import text_turn, tool_turn
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.keep_permissions import KeepPermissionsModal
from mrsmith_tui.tui.screens.modals import ApprovalModal
from tests.tui.fakes import Clock
from tests.tui.pilot import painted, until

session_mod = pytest.importorskip("mrsmith_tui.core.session")


def config_for(base_url: str, tmp_path: Path) -> Config:
    return Config(providers=[ProviderConfig(name="loop", base_url=base_url)],
                  agents=[AgentConfig(name="default", provider="loop", model="m1", max_context_tokens=8000)],
                  sessions_dir=str(tmp_path / "sessions"))


def app_for(config: Config, cwd: Path, clock=None) -> MrSmithApp:
    def make(sink, approver):
        return session_mod.build_session(config=config, agent_name=None, cwd=cwd, sink=sink, approver=approver)
    return MrSmithApp(make, config=config, history_path=None, **({"clock": clock} if clock else {}))


async def test_reasoning_streams_folds_and_the_answer_lands(loopback, tmp_path):
    srv = loopback([text_turn("## Result\n\nall **good**", reasoning="first I look\nthen I answer")])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"hi", "enter")
        await until(pilot, lambda: not app.model.run.running and any(b.kind == "usage" for b in app.model.conv.blocks))
        kinds = [b.kind for b in app.model.conv.blocks]
        assert kinds[:3] == ["user", "reasoning", "text"]
        thought = app.model.conv.blocks[1]
        assert thought.folded and thought.text == "first I look\nthen I answer"
        assert app.model.conv.blocks[2].text == "## Result\n\nall **good**"
        assert app.model.ledger.tokens_in > 0 and app.model.ledger.state == "idle"
    assert srv.requests[0]["messages"][-1]["content"] == "hi"


async def test_a_write_is_approved_with_y_and_shows_its_diff(loopback, tmp_path):
    pytest.importorskip("mrsmith_tui.tools.builtin")
    srv = loopback([tool_turn("write_file", {"path": "hello.py", "content": "print('hi')\n"}), text_turn("written")])
    clock = Clock()
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"write", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        assert app.screen.req.tool == "write_file" and app.screen.req.rule == "writes"
        clock.later(10)  # past the grace
        await pilot.press("y")
        await until(pilot, lambda: not app.model.run.running and any(b.kind == "usage" for b in app.model.conv.blocks))
        tool = next(b for b in app.model.conv.blocks if b.kind == "tool")
        assert tool.ok and tool.diff and "+print('hi')" in tool.diff
    assert (tmp_path / "hello.py").read_text() == "print('hi')\n"


def _turn_over(app) -> bool:
    return not app.model.run.running and app.model.conv.blocks and app.model.conv.blocks[-1].kind == "usage"


async def test_an_always_answer_is_listed_revoked_and_the_next_call_asks_again(loopback, tmp_path):
    pytest.importorskip("mrsmith_tui.tools.builtin")
    writes = [[tool_turn("write_file", {"path": f"{n}.txt", "content": f"{n}\n"}, call_id=f"call_{n}"), text_turn("ok")]
              for n in ("one", "two", "three")]
    srv = loopback([turn for pair in writes for turn in pair])
    clock = Clock()
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"first", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)
        await pilot.press("a", "a")  # "always" takes a second press
        await until(pilot, lambda: _turn_over(app))
        await pilot.press(*"/permissions", "enter")
        await until(pilot, lambda: "Permissions" in app.model.conv.blocks[-1].text)
        listing = app.model.conv.blocks[-1].text
        assert '1. write_file  from an "always" answer' in listing
        await pilot.press(*"second", "enter")  # covered: runs without asking
        await until(pilot, lambda: _turn_over(app) and (tmp_path / "two.txt").exists())
        assert not isinstance(app.screen, ApprovalModal)
        await pilot.press(*"/permissions revoke 1", "enter")
        await until(pilot, lambda: app.model.conv.blocks[-1].text.startswith("revoked write_file"))
        assert app.session.gate.permissions() == []
        await pilot.press(*"third", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))  # asks again
        clock.later(10)
        await pilot.press("n")
        await until(pilot, lambda: _turn_over(app))
    assert (tmp_path / "one.txt").read_text() == "one\n" and (tmp_path / "two.txt").read_text() == "two\n"
    assert not (tmp_path / "three.txt").exists()


async def test_reset_asks_whether_to_keep_the_always_answers(loopback, tmp_path):
    pytest.importorskip("mrsmith_tui.tools.builtin")
    srv = loopback([tool_turn("write_file", {"path": "a.txt", "content": "a\n"}), text_turn("ok")])
    clock = Clock()
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"first", "enter")
        await until(pilot, lambda: painted(app, ApprovalModal))
        clock.later(10)
        await pilot.press("a", "a")  # "always" takes a second press
        await until(pilot, lambda: _turn_over(app))
        session_id = app.session.session_id
        await pilot.press(*"/reset", "enter")
        await until(pilot, lambda: isinstance(app.screen, KeepPermissionsModal))
        await pilot.press("escape")  # no reset
        await until(pilot, lambda: "cancelled" in app.model.conv.blocks[-1].text)
        assert app.session.session_id == session_id and app.session.gate.always_allowed("write_file")
        await pilot.press(*"/reset", "enter")
        await until(pilot, lambda: isinstance(app.screen, KeepPermissionsModal))
        await pilot.press("y")
        await until(pilot, lambda: app.session.session_id != session_id)
        assert app.session.gate.always_allowed("write_file")
        session_id = app.session.session_id
        await pilot.press(*"/reset", "enter")
        await until(pilot, lambda: isinstance(app.screen, KeepPermissionsModal))
        await pilot.press("n")
        await until(pilot, lambda: app.session.session_id != session_id)
        assert app.session.gate.permissions() == []
        # the note arrives in its own message after the new session's: waited for, not raced
        await until(pilot, lambda: any(b.text == "forgot write_file: such calls ask again" for b in app.model.conv.blocks))


async def test_a_200_html_page_is_an_error_block_not_a_blank_answer(loopback, tmp_path):
    from loopback import Turn

    srv = loopback([Turn(body="<html><body>Welcome to nginx!</body></html>", content_type="text/html")])
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"hi", "enter")
        await until(pilot, lambda: not app.model.run.running and app.model.conv.blocks[-1].kind == "error")
        assert app.model.conv.blocks[-1].text == ("provider 'loop' answered 200 text/html, not an event stream: "
                                                  "<html><body>Welcome to nginx!</body></html>")
        assert not [b for b in app.model.conv.blocks if b.kind == "text"]
