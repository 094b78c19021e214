"""/undo on screen: it lists the files, asks, and puts them back only after y (against the real session)."""

from __future__ import annotations

import pytest

from loopback import text_turn, tool_turn
from mrsmith_tui.tui.commands import REGISTRY
from mrsmith_tui.tui.commands.registry import CommandError
from mrsmith_tui.tui.screens.confirm import ConfirmModal
from mrsmith_tui.tui.screens.modals import ApprovalModal
from tests.tui.fakes import Clock
from tests.tui.pilot import painted, until
from tests.tui.test_e2e import _turn_over, app_for, config_for

pytest.importorskip("mrsmith_tui.tools.builtin")


@pytest.mark.parametrize(("arg", "steps"), [("", 1), ("3", 3), (" 200 ", 200)])
def test_undo_reads_its_count(arg, steps):
    assert REGISTRY.find("/undo").parse(arg) == steps


@pytest.mark.parametrize("arg", ["0", "201", "-1", "x", "1.5", "2 3"])
def test_a_bad_count_is_refused(arg):
    with pytest.raises(CommandError, match="N is a number of turns from 1 to 200"):
        REGISTRY.find("/undo").parse(arg)


async def _write_turn(app, pilot, clock, prompt: str) -> None:
    await pilot.press(*prompt, "enter")
    await until(pilot, lambda: painted(app, ApprovalModal))
    clock.later(10)
    await pilot.press("y")
    await until(pilot, lambda: _turn_over(app))


@pytest.mark.parametrize("answer", ["y", "n"])
async def test_undo_asks_then_puts_back(loopback, tmp_path, answer):
    (tmp_path / "a.txt").write_bytes(b"original \x00 bytes\n")
    srv = loopback([tool_turn("write_file", {"path": "a.txt", "content": "changed\n"}), text_turn("ok"),
                    tool_turn("write_file", {"path": "b.txt", "content": "made\n"}, call_id="c2"), text_turn("ok")])
    clock = Clock()
    app = app_for(config_for(srv.base_url, tmp_path), tmp_path, clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await _write_turn(app, pilot, clock, "one")
        await _write_turn(app, pilot, clock, "two")
        await pilot.press(*"/undo 2", "enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        assert app.screen.lines == ["b.txt: created by the turn: removed", "a.txt: put back as it was"]
        assert (tmp_path / "b.txt").exists()  # nothing changes before the answer
        await pilot.press(answer)
        if answer == "n":
            await until(pilot, lambda: app.model.conv.blocks[-1].text == "/undo: nothing changed")
            assert (tmp_path / "a.txt").read_text() == "changed\n" and (tmp_path / "b.txt").exists()
            return
        await until(pilot, lambda: "shell commands are not tracked" in app.model.conv.blocks[-1].text)
        assert (tmp_path / "a.txt").read_bytes() == b"original \x00 bytes\n"
        assert not (tmp_path / "b.txt").exists()
        await pilot.press(*"/undo", "enter")
        await until(pilot, lambda: app.model.conv.blocks[-1].text.startswith("nothing to undo"))
