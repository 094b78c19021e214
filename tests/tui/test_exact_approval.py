"""#23 in the approval modal: `a` always this exact command, `r` the broader rule, labels that read cleanly."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from mrsmith_tui.tools.base import ApprovalQuery
from mrsmith_tui.tui.app import MrSmithApp
from mrsmith_tui.tui.screens.modals import ApprovalModal
from tests.tui.fakes import CONFIG, Clock, FakeSession, factory
from tests.tui.pilot import painted, until


def shell_approval(command: str = "rm -rf build", spec: str = "shell:rm", exact: str = "shell=rm -rf build"):
    def step(session: FakeSession, cancel: Any) -> None:
        session.answers.append(session.approver.approve(ApprovalQuery(
            tool="shell", arguments=f'{{"command": "{command}"}}', reason="rm is not in the read-only set",
            spec=spec, rule="runs", exact=exact)))
    return step


def write_approval(session: FakeSession, cancel: Any) -> None:
    session.answers.append(session.approver.approve(ApprovalQuery(
        tool="write_file", arguments='{"path": "a.py"}', reason="write_file creates a.py", spec="write_file",
        rule="writes")))


def keys_line(app) -> str:
    return str(app.screen.query_one(".keys", Static).render())


async def _modal(pilot, app, clock) -> None:
    await pilot.press(*"go", "enter")
    await until(pilot, lambda: painted(app, ApprovalModal))
    clock.later(10)  # past the grace: keys answer


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (60, 20)])
@pytest.mark.parametrize("keys, answer, confirming", [
    (("a", "a"), "always", "always allow this exact command"),
    (("a", "enter"), "always", "always allow this exact command"),
    (("r", "r"), "always_rule", "always allow shell:rm"),
    (("r", "enter"), "always_rule", "always allow shell:rm"),
    (("r", "a", "a"), "always", "always allow this exact command"),  # changing one's mind: the last key counts
    (("a", "r", "enter"), "always_rule", "always allow shell:rm"),
])
async def test_a_remembers_the_command_and_r_the_rule(size, keys, answer, confirming):
    made: list = []
    clock = Clock()
    app = MrSmithApp(factory([[shell_approval()]], made), config=CONFIG, history_path=None, clock=clock)
    async with app.run_test(size=size) as pilot:
        await _modal(pilot, app, clock)
        shown = keys_line(app)
        assert "a always this command" in shown and "a a always" not in shown
        if size[0] >= 80:
            assert "r always rm" in shown
        remember = str(app.screen.query_one(".remember", Static).render())
        assert "a this command · r shell:rm" in remember  # the rule whole, at 60 columns too
        for key in keys[:-1]:
            await pilot.press(key)
        await until(pilot, lambda: confirming in keys_line(app))
        await pilot.press(keys[-1])
        await until(pilot, lambda: not app.model.run.running)
    assert made[0].answers == [answer]


async def test_r_on_a_call_with_no_broader_rule_answers_nothing():
    made: list = []
    clock = Clock()
    app = MrSmithApp(factory([[write_approval]], made), config=CONFIG, history_path=None, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await _modal(pilot, app, clock)
        shown = keys_line(app)
        assert "a always (press twice)" in shown and " r " not in shown
        await pilot.press("r")
        await until(pilot, lambda: "no broader rule" in (app.model.screen.note or ""))
        assert isinstance(app.screen, ApprovalModal) and made[0].answers == []
        await pilot.press("a", "a")
        await until(pilot, lambda: not app.model.run.running)
    assert made[0].answers == ["always"]


async def test_the_welcome_reads_a_twice_not_a_a():
    app = MrSmithApp(factory(), config=CONFIG, history_path=None)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.session is not None and "Approvals" in _screen_text(app))
        text = _screen_text(app)
        assert "a twice: always" in text and "a a always" not in text


def _screen_text(app) -> str:
    return "\n".join(str(s.render()) for s in app.screen.query(Static))
