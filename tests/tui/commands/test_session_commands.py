"""The session family: /help, /exit, /reset (and its question), /compact, /sessions."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from mrsmith_tui.tools.approval import ApprovalGate, Permission, PolicyApprover
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands import REGISTRY, run_command
from mrsmith_tui.tui.commands.session import CompactCommand, ResetCommand, SessionsCommand
from mrsmith_tui.tui.screens.keep_permissions import KeepPermissionsModal
from mrsmith_tui.tui.screens.sessions_picker import SessionPicker
from tests.tui.commands.fake_context import FakeContext
from tests.tui.fakes import FakeSession, fake_session


def session(*permissions: Permission) -> FakeSession:
    return fake_session(gate=ApprovalGate(PolicyApprover(), list(permissions)))


def test_the_family_and_its_help():
    for name in ("/help", "/exit", "/reset", "/compact", "/sessions"):
        assert REGISTRY.find(name) is not None and REGISTRY.find(name).summary
    assert ResetCommand().parse("anything") is None and ResetCommand.waits_for_run and ResetCommand.in_worker
    assert CompactCommand.in_worker and SessionsCommand.waits_for_run and not SessionsCommand.in_worker


def test_reset_with_nothing_remembered_refuses_the_requests_and_resets_in_a_worker():
    s = session(Permission("write_file", "config"))
    ctx = FakeContext(session=s)
    run_command(REGISTRY, ctx, "/reset", "")
    assert ctx.cancelled_requests == 1 and ctx.asked == []
    assert ctx.run_jobs() == [None] and s.resets == 1 and ctx.emitted_later == [(ui.Cleared, {})]
    assert [p.spec for p in s.gate.permissions()] == ["write_file"]


def test_reset_asks_about_always_answers_and_forgets_them_on_no():
    s = session(Permission("write_file", "config"), Permission("shell:ls", "answer"))
    ctx = FakeContext(session=s)
    run_command(REGISTRY, ctx, "/reset", "")
    (screen, answered), = ctx.asked
    assert isinstance(screen, KeepPermissionsModal) and screen.specs == ["shell:ls"] and ctx.jobs == []
    answered(False)
    assert ctx.run_jobs() == ["forgot shell:ls: such calls ask again"] and s.resets == 1
    assert [p.spec for p in s.gate.permissions()] == ["write_file"]


def test_reset_cancelled_at_the_question_frees_the_run_and_keeps_the_conversation():
    ctx = FakeContext(session=session(Permission("shell:ls", "answer")))
    run_command(REGISTRY, ctx, "/reset", "")
    ctx.asked[0][1](None)
    assert ctx.last_note == ("/reset cancelled: the conversation goes on", "notice")
    assert ctx.emitted_later == [(ui.WorkerDone, {})] and ctx.jobs == []


def test_compact_runs_in_a_worker():
    s = fake_session()
    ctx = FakeContext(session=s)
    run_command(REGISTRY, ctx, "/compact", "")
    assert ctx.notes == [] and ctx.emitted_later == []
    assert ctx.run_jobs() == [None] and s.compactions == 1  # the core's notices say how it went, nothing more


def test_a_compact_that_worked_shows_its_summary():
    s = fake_session()
    s.compact = lambda cancel: "the summary"
    ctx = FakeContext(session=s)
    run_command(REGISTRY, ctx, "/compact", "")
    assert ctx.run_jobs() == ["the summary"]


def test_sessions_lists_this_folders_sessions_in_a_picker(tmp_path: Path):
    ctx = FakeContext(session=fake_session(cwd=tmp_path, session_id="s1"))
    run_command(REGISTRY, ctx, "/sessions", "")
    assert ctx.last_note == ("/sessions: this screen cannot switch sessions", "warning")
    ctx.sessions_root = tmp_path / "sessions"
    run_command(REGISTRY, ctx, "/sessions", "")
    assert ctx.last_note == (f"no sessions of this folder under {tmp_path / 'sessions'}", "notice")
    assert ctx.asked == [] and ctx.switched_to == []


def test_a_picked_session_is_switched_to(monkeypatch, tmp_path: Path):
    info = SimpleNamespace(id="s2")
    monkeypatch.setattr("mrsmith_tui.session.store.list_sessions", lambda root, cwd: [info])
    ctx = FakeContext(session=fake_session(cwd=tmp_path, session_id="s1"), sessions_root=tmp_path)
    run_command(REGISTRY, ctx, "/sessions", "")
    (screen, picked), = ctx.asked
    assert isinstance(screen, SessionPicker)
    picked(None)
    picked("s2")
    assert ctx.switched_to == ["s2"]
