"""The export family: /copy (answered from the model) and /export (transcript, else the screen's text)."""

from __future__ import annotations

import os
from pathlib import Path

from mrsmith_tui import msgs as m
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands import REGISTRY, run_command
from mrsmith_tui.tui.commands.export import ExportCommand
from mrsmith_tui.tui.update import effects as fx
from mrsmith_tui.tui.update import initial_model, update
from tests.tui.commands.fake_context import FakeContext
from tests.tui.fakes import fake_session

SECRET = "sk-EXPORT-KEY-123456"


def answered(text: str) -> ui.Model:
    model, _ = update(initial_model(), m.BlockEnded(block_id="t1", kind="text", text=text, at=1))
    return model


def test_the_family_and_its_argument():
    assert REGISTRY.find("/copy").answered_on_screen and REGISTRY.find("/export").usage == "[path]"
    assert ExportCommand().parse("") is None
    assert ExportCommand().parse(" ~/out.md ") == "~/out.md"
    assert ExportCommand().parse('"my notes.md"') == ExportCommand().parse("my notes.md") == "my notes.md"


def test_copy_takes_the_last_answers_source():
    model, effects = update(answered("**bold**"), ui.Submit(text="/copy", at=2))
    assert fx.Copy("**bold**", "answer") in effects and model.screen.note.startswith("copied the last answer")
    model, effects = update(initial_model(), ui.Submit(text="/copy", at=2))
    assert model.screen.note == "nothing to copy yet"


def test_export_writes_the_screens_text_redacted_when_there_is_no_transcript(tmp_path: Path):
    PROCESS.add(SECRET)
    target = tmp_path / "out.md"
    ctx = FakeContext(session=fake_session(session_id="0193abcdef"), model=answered(f"the key is {SECRET}"))
    run_command(REGISTRY, ctx, "/export", str(target))
    assert ctx.last_note == (f"exported to {target}", "notice")
    text = target.read_text(encoding="utf-8")
    assert "the key is [redacted]" in text and SECRET not in text
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]  # no temporary file left behind


def test_export_names_the_file_after_the_session(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ctx = FakeContext(session=fake_session(session_id="0193abcdef"), model=answered("hi"))
    run_command(REGISTRY, ctx, "/export", "")
    assert [p.name for p in tmp_path.iterdir()] == ["mrsmith-0193abcdef.md"]  # as `mrsmith export` names it


def test_export_names_a_session_the_same_with_or_without_a_transcript(tmp_path: Path, monkeypatch):
    from mrsmith_tui.session.export import export_name

    monkeypatch.chdir(tmp_path)
    session_id = "0193abcd-ef01-7abc-8def-0123456789ab"
    (tmp_path / "docs").mkdir()
    ctx = FakeContext(session=fake_session(session_id=session_id), model=answered("hi"))
    run_command(REGISTRY, ctx, "/export", "")
    run_command(REGISTRY, ctx, "/export", "docs")
    assert export_name(session_id) == "mrsmith-0193abcd-ef01.md"
    assert (tmp_path / export_name(session_id)).is_file() and (tmp_path / "docs" / export_name(session_id)).is_file()


def test_export_keeps_an_existing_file_and_says_so(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    readme = tmp_path / "README.md"
    readme.write_text("the project's own\n")
    readme.chmod(0o644)
    ctx = FakeContext(session=fake_session(session_id="0193abcdef"), model=answered("hi"))
    run_command(REGISTRY, ctx, "/export", "README.md")
    assert ctx.last_note == ("/export: README.md exists: give another name", "error")
    assert readme.read_text() == "the project's own\n" and readme.stat().st_mode & 0o777 == 0o644
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")  # a link is not written through either
    run_command(REGISTRY, ctx, "/export", "gone")
    assert ctx.last_note[1] == "error" and not (tmp_path / "nowhere").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "gone"]  # no temporary file left


def test_an_empty_quoted_name_is_refused(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ctx = FakeContext(session=fake_session(session_id="s"), model=answered("hi"))
    for arg in ('""', "''", '"  "'):
        run_command(REGISTRY, ctx, "/export", arg)
        assert ctx.last_note == ("/export: the file name is empty: give one, or none for ./mrsmith-<id>.md", "error")
    assert list(tmp_path.iterdir()) == []


def test_export_from_the_transcript(tmp_path: Path, monkeypatch):
    calls = []
    monkeypatch.setattr("mrsmith_tui.session.export.export_session",
                        lambda transcript, target: calls.append((transcript, target)) or target)
    ctx = FakeContext(session=fake_session(session_id="s", transcript_path=tmp_path / "t.jsonl"))
    run_command(REGISTRY, ctx, "/export", str(tmp_path / "x.md"))
    assert calls == [(tmp_path / "t.jsonl", str(tmp_path / "x.md"))] and ctx.last_note[0].startswith("exported to")


def test_an_unwritable_target_is_one_line(tmp_path: Path):
    ctx = FakeContext(session=fake_session(session_id="s"), model=answered("hi"))
    run_command(REGISTRY, ctx, "/export", str(tmp_path / "missing" / "out.md"))
    text, kind = ctx.last_note
    assert kind == "error" and text.startswith("/export: ") and "\n" not in text
    assert not os.path.exists(tmp_path / "missing")
