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
    assert ExportCommand().parse(" ~/out.md ") == Path("~/out.md").expanduser()


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
    assert (tmp_path / "mrsmith-0193abcd.md").is_file()


def test_export_from_the_transcript(tmp_path: Path, monkeypatch):
    calls = []
    monkeypatch.setattr("mrsmith_tui.session.export.export_session",
                        lambda transcript, target: calls.append((transcript, target)) or target)
    ctx = FakeContext(session=fake_session(session_id="s", transcript_path=tmp_path / "t.jsonl"))
    run_command(REGISTRY, ctx, "/export", str(tmp_path / "x.md"))
    assert calls == [(tmp_path / "t.jsonl", tmp_path / "x.md")] and ctx.last_note[0].startswith("exported to")


def test_an_unwritable_target_is_one_line(tmp_path: Path):
    ctx = FakeContext(session=fake_session(session_id="s"), model=answered("hi"))
    run_command(REGISTRY, ctx, "/export", str(tmp_path / "missing" / "out.md"))
    text, kind = ctx.last_note
    assert kind == "error" and text.startswith("/export: ") and "\n" not in text
    assert not os.path.exists(tmp_path / "missing")
