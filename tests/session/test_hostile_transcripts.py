"""One hostile transcript (nested past the interpreter's limit, a header time no date can show) is
a skipped line or a "?", never a crash of --list, view, export, --resume or /sessions."""

from __future__ import annotations

import json

import pytest

from loopback import text_turn
from mrsmith_tui import msgs
from mrsmith_tui.cli import main
from mrsmith_tui.session.export import export_markdown
from mrsmith_tui.session.replay import for_screen
from mrsmith_tui.session.store import format_sessions, list_sessions, read_info
from mrsmith_tui.session.transcript import TranscriptWriter, read_transcript
from tests.session.test_cli_sessions import cli_project

DEEP = "[" * 100_000 + "]" * 100_000
DEEPISH = "[" * 500 + "]" * 500  # parses, but deeper than any line the writer writes


def header(session_id: str, cwd, created) -> dict:
    return {"type": "TranscriptHeader", "at": 1.0, "format": 2, "session_id": session_id, "created": created,
            "cwd": str(cwd), "agent": "default", "model": "test-model", "provider": "p"}


def write(folder, *lines: dict | str) -> None:
    folder.mkdir(parents=True)
    (folder / "transcript.jsonl").write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))


def hostile_sessions(root, cwd) -> None:
    prompt = {"type": "PromptRecorded", "at": 2.0, "run_id": "run1", "entry": {"role": "user", "text": "good prompt"}}
    write(root / "0193aaaa-0000-7000-8000-00000000000a", header("0193aaaa-0000-7000-8000-00000000000a", cwd, 1.0e9), prompt,
          '{"type": "PromptRecorded", "entry": ' + DEEP + "}",
          '{"type": "user", "text": ' + DEEPISH + "}",
          json.dumps({"type": "AnswerRecorded", "at": 3.0, "run_id": "run1",
                      "entry": {"blocks": [{"type": "tool_call", "id": "c", "name": "shell", "arguments": DEEP}]}}),
          {"type": "ToolCallFinished", "at": 4.0, "call_id": "c", "name": "shell", "ok": True, "result": "r"})
    write(root / "0193bbbb-0000-7000-8000-00000000000b", header("0193bbbb-0000-7000-8000-00000000000b", cwd, float("nan")), prompt)
    write(root / "0193cccc-0000-7000-8000-00000000000c", header("0193cccc-0000-7000-8000-00000000000c", cwd, 1e308), prompt)


def test_a_line_nested_too_deep_is_a_skipped_line(tmp_path):
    hostile_sessions(tmp_path, tmp_path)
    path = tmp_path / "0193aaaa-0000-7000-8000-00000000000a" / "transcript.jsonl"
    found, warnings = read_transcript(path)
    assert [m.type for m in found] == ["TranscriptHeader", "PromptRecorded", "AnswerRecorded", "ToolCallFinished"]
    assert warnings == ["transcript.jsonl: skipped a broken record (line 3)",
                        "transcript.jsonl: skipped a broken record (line 4)"]
    assert "shell" in export_markdown(found)
    assert [m.type for m in for_screen(found)] == ["PromptRecorded", "AnswerRecorded", "ToolCallStarted", "ToolCallFinished"]
    info = read_info(path)
    assert info is not None and info.turns == 1 and info.first_prompt == "good prompt"
    TranscriptWriter(path).append(msgs.UserPrompt(run_id="run2", text="goes on"))  # the format marker reads its ends


def test_header_times_no_date_can_show(tmp_path):
    hostile_sessions(tmp_path, tmp_path)
    sessions = list_sessions(tmp_path)
    assert len(sessions) == 3
    table = format_sessions(sessions).splitlines()
    assert len(table) == 4 and all("good prompt" in row for row in table[1:])
    for s in sessions:
        records, _ = read_transcript(s.path)
        export_markdown(records)
    nan = read_transcript(tmp_path / "0193bbbb-0000-7000-8000-00000000000b" / "transcript.jsonl")[0]
    assert "- started: ?" in export_markdown([nan[0].model_copy(update={"created": float("nan"), "at": 1e308})])


@pytest.fixture
def project(tmp_path, monkeypatch, loopback):
    here, sessions = cli_project(tmp_path, monkeypatch, loopback([text_turn("resumed answer")]))
    hostile_sessions(sessions, here)
    return tmp_path


def test_the_cli_lists_views_exports_and_resumes_them(project, capsys):
    assert main(["--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 4 and all("good prompt" in row for row in out[1:])
    for prefix in ("0193aaaa", "0193bbbb", "0193cccc"):
        assert main(["view", prefix]) == 0
        assert "good prompt" not in capsys.readouterr().err
        assert main(["export", prefix, str(project / f"{prefix}.md")]) == 0
        capsys.readouterr()
    assert "- started: ?" in (project / "0193cccc.md").read_text()
    assert main(["--resume", "0193aaaa", "-p", "again"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == "resumed answer" and "skipped a broken record (line 3)" in err


def test_a_transcript_that_is_a_symbolic_link_is_not_written_through(project, capsys):
    elsewhere = project / "elsewhere.jsonl"
    folder = project / "sessions" / "0193dddd-0000-7000-8000-00000000000d"
    folder.mkdir()
    lines = [header(folder.name, project / "project", 1.0e9),
             {"type": "PromptRecorded", "at": 2.0, "run_id": "run1", "entry": {"role": "user", "text": "linked"}}]
    elsewhere.write_text("".join(json.dumps(x) + "\n" for x in lines) + '{"type": "torn')
    elsewhere.chmod(0o644)
    before = elsewhere.read_bytes()
    (folder / "transcript.jsonl").symlink_to(elsewhere)
    assert main(["--resume", "0193dddd", "-p", "again"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == "resumed answer"
    [refused] = [line for line in err.splitlines() if "transcript" in line and "torn" not in line]
    assert "cannot write the transcript" in refused and "not saved" in refused
    assert elsewhere.read_bytes() == before and elsewhere.stat().st_mode & 0o777 == 0o644
