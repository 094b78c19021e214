"""The small families: /usage, /jobs, /theme."""

from __future__ import annotations

from types import SimpleNamespace

from mrsmith_tui.core.usage_report import usage_report
from mrsmith_tui.tui.commands import REGISTRY, run_command
from mrsmith_tui.tui.commands.theme import ThemeCommand
from mrsmith_tui.tui.update import initial_model
from tests.tui.commands.fake_context import FakeContext
from tests.tui.fakes import fake_session


def test_each_has_help_and_theme_needs_no_session():
    assert REGISTRY.find("/usage").summary and REGISTRY.find("/jobs").summary
    theme = REGISTRY.find("/theme")
    assert isinstance(theme, ThemeCommand) and not theme.needs_argument and not theme.needs_session  # #23: a picker
    assert theme.complete(initial_model(themes=("mrsmith", "nord")), "n") == ("/theme nord",)


def test_usage_shows_the_report_of_the_sessions_ledger():
    from mrsmith_tui.core.usage import UsageLedger

    ledger = UsageLedger(lambda msg: None, max_context_tokens=32_000)
    ctx = FakeContext(session=fake_session(ledger=ledger))
    run_command(REGISTRY, ctx, "/usage", "")
    assert ctx.last_note == (usage_report(ledger), "notice")


def test_jobs_lists_the_background_jobs(monkeypatch):
    from mrsmith_tui.tools import jobs

    ctx = FakeContext(session=fake_session())
    monkeypatch.setattr(jobs.JOBS, "list", list)
    run_command(REGISTRY, ctx, "/jobs", "")
    assert ctx.last_note == ("no background jobs (a shell call with background: true starts one)", "notice")
    monkeypatch.setattr(jobs.JOBS, "list", lambda: [SimpleNamespace(describe=lambda: "j1  pid 42  running")])
    run_command(REGISTRY, ctx, "/jobs", "")
    assert ctx.last_note[0] == "Background jobs · stopped when mrsmith exits unless detached\nj1  pid 42  running"


def test_theme_switches_to_a_known_theme_and_names_them_otherwise():
    ctx = FakeContext(session=None)
    run_command(REGISTRY, ctx, "/theme", "nord")
    assert ctx.theme == "nord" and ctx.last_note == ("theme nord", "notice")
    run_command(REGISTRY, ctx, "/theme", "nope")
    assert ctx.last_note == ("/theme: no theme 'nope'; themes: mrsmith, nord", "error") and ctx.theme == "nord"
