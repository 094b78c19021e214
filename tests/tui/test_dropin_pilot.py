"""The TUI with a real session and the loopback model: a project drop-in tool is trusted through the
dialog (which shows its whole code), offered, approved and called end to end; /tools lists every tool
with its origin; an edited file asks again on /tools reload."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

from loopback import text_turn, tool_turn
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.modals import ApprovalModal
from tests.tui.pilot import painted, until

SHOUT = '''NAME = "shout"
DESCRIPTION = "Shout the text back in capitals."
PARAMETERS = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


def run(args):
    return args["text"].upper() + "!"
'''
ECHO = SHOUT.replace('"shout"', '"echo_back"').replace("Shout the text back in capitals.", "Echo the text.").replace(
    '.upper() + "!"', "")


def _notes(app) -> str:
    return "\n".join(b.text for b in app.model.conv.blocks)


async def _modal(app, tool: str) -> None:
    for _ in range(9000):  # painted, and its grace over (a key within it is dropped, not an answer)
        if painted(app, ApprovalModal) and app.clock() > app.model.pending.keys_from and app.screen.req.tool == tool:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"no approval dialog for {tool}")


async def test_a_project_tool_trusted_then_called_end_to_end(loopback, tmp_path):
    srv = loopback([tool_turn("shout", {"text": "hello"}, call_id="c1"), text_turn("shouted")])
    work = tmp_path / "project"
    (work / ".mrsmith" / "tools").mkdir(parents=True)
    tool_file = work / ".mrsmith" / "tools" / "shout.py"
    tool_file.write_text(SHOUT)
    user = Path(os.environ["XDG_CONFIG_HOME"]) / "mrsmith" / "tools"
    user.mkdir(parents=True)
    (user / "echo.py").write_text(ECHO)
    (user / "broken.py").write_text(ECHO.replace('"echo_back"', '"x"').replace('"type": "object"', '"type": {"a": 1}', 1))
    config = Config(providers=[ProviderConfig(name="loop", base_url=srv.base_url)],
                    agents=[AgentConfig(name="default", provider="loop", model="m1", max_context_tokens=64000)],
                    sessions_dir=str(tmp_path / "sessions"))

    def make(sink, approver):
        return compose_session(config=config, cwd=work, sink=sink, approver=approver)

    app = MrSmithApp(make, config=config, history_path=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.session is not None)
        await pilot.press(*"shout hello", "enter")
        await _modal(app, "project tool .mrsmith/tools/shout.py")
        assert app.screen.req.diff == "\n".join("+" + line for line in SHOUT.rstrip("\n").split("\n"))
        await pilot.press("y")
        await _modal(app, "shout")  # the call itself asks: a drop-in tool always does unless allowed
        assert app.screen.req.spec == "shout"
        await pilot.press("y")
        await until(pilot, lambda: len(srv.requests) == 2 and not app.model.run.running)
        names = [t["function"]["name"] for t in srv.requests[0]["tools"]]
        assert "shout" in names and "echo_back" in names and "x" not in names
        broken = [line for line in _notes(app).splitlines() if "broken.py" in line]
        assert broken == ["drop-in tool ~/.config/mrsmith/tools/broken.py not loaded: PARAMETERS: the top must say \"type\": \"object\""]
        assert srv.requests[1]["messages"][-1]["content"] == "HELLO!"

        await pilot.press(*"/tools", "enter")
        await until(pilot, lambda: "Tools · " in _notes(app))
        listing = _notes(app)
        for name, origin in (("shout", "project"), ("echo_back", "user"), ("shell", "built-in"), ("task", "built-in")):
            assert re.search(rf"^{name} +{origin} ", listing, re.M), listing

        tool_file.write_text(SHOUT + "# edited\n")
        await pilot.press(*"/tools reload", "enter")
        await _modal(app, "project tool .mrsmith/tools/shout.py")  # an edit asks again
        assert app.screen.req.diff.endswith("+# edited")
        await pilot.press("n")
        await until(pilot, lambda: "drop-in tools reloaded: echo_back (user)" in _notes(app))
        assert "project tool .mrsmith/tools/shout.py left off (/tools reload asks again)" in _notes(app)
