"""#23's screens, frozen: the welcome, the narrow sidebar strip, a question under NO_COLOR.

Regenerate with `pytest tests/tui/test_first_day_snapshots.py --snapshot-update`, then look at the SVGs."""

from __future__ import annotations

from mrsmith_tui import msgs as m
from mrsmith_tui.tui import model as ui
from tests.tui.test_snapshots import TASKS, TURN, app, at, play

WELCOME = ui.Welcomed(version="0.1.0", endpoint="http://127.0.0.1:8080/v1", folder="/home/ann/code/greet",
                      last_id="01a23d6f-8b8e", last_when="2026-12-03 18:40", last_prompt="make greet build its message once",
                      last_turns=3, can_resume=True, at=at(0))


def test_welcome_at_80x24(snap_compare):
    assert snap_compare(app(), terminal_size=(80, 24), run_before=play(WELCOME))


def test_welcome_at_60x20_no_color(snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(app(), terminal_size=(60, 20), run_before=play(WELCOME))


def test_narrow_sidebar_is_a_strip_under_the_conversation(snap_compare):
    assert snap_compare(app(), terminal_size=(60, 20),
                        run_before=play(*TURN, *TASKS, ui.ToggleSidebar(at=at(8))))


def test_a_single_choice_question_under_no_color(snap_compare, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    question = m.QuestionRequested(request_id="q1", at=at(2), questions=(m.Question(
        question="Which test runner?", options=(m.QuestionOption(label="pytest", description="the project's own"),
                                                m.QuestionOption(label="unittest"))),))
    assert snap_compare(app(), terminal_size=(80, 24), run_before=play(*TURN, question, ui.Tick(at=at(3))))
