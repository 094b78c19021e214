"""The TUI against the real AgentSession, OpenAICompatProvider and the loopback server."""

from __future__ import annotations

from pathlib import Path

import pytest

from loopback import text_turn, tool_turn
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.modals import ApprovalModal
from tests.tui.pilot import until

session_mod = pytest.importorskip("mrsmith_tui.core.session")


def config_for(base_url: str, tmp_path: Path) -> Config:
    return Config(providers=[ProviderConfig(name="loop", base_url=base_url)],
                  agents=[AgentConfig(name="default", provider="loop", model="m1", max_context_tokens=8000)],
                  sessions_dir=str(tmp_path / "sessions"))


def app_for(config: Config, cwd: Path) -> MrSmithApp:
    def make(sink, approver):
        return session_mod.build_session(config=config, agent_name=None, cwd=cwd, sink=sink, approver=approver)
    return MrSmithApp(make, config=config, history_path=None)


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
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"write", "enter")
        await until(pilot, lambda: isinstance(app.screen, ApprovalModal))
        assert app.screen.req.tool == "write_file"
        await pilot.press("y")
        await until(pilot, lambda: not app.model.run.running and any(b.kind == "usage" for b in app.model.conv.blocks))
        tool = next(b for b in app.model.conv.blocks if b.kind == "tool")
        assert tool.ok and tool.diff and "+print('hi')" in tool.diff
    assert (tmp_path / "hello.py").read_text() == "print('hi')\n"
