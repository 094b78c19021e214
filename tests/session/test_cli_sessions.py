"""The session commands of the CLI: --list [--all], -c / --resume with -p, view, export."""

from __future__ import annotations

import sys
import types

import pytest

from loopback import text_turn
from mrsmith_tui import msgs
from mrsmith_tui.cli import main
from mrsmith_tui.session.store import typed_id
from mrsmith_tui.session.transcript import read_transcript


def cli_project(tmp_path, monkeypatch, srv):
    """The CLI run from tmp_path/project against `srv`, its sessions in tmp_path/sessions: (here, sessions)."""
    here = tmp_path / "project"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
    monkeypatch.setenv("MODEL", "test-model")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("MRSMITH_SESSIONS_DIR", str(tmp_path / "sessions"))
    return here, tmp_path / "sessions"


@pytest.fixture
def project(tmp_path, monkeypatch, loopback):
    srv = loopback([text_turn("first answer", reasoning="hmm"), text_turn("second answer"), text_turn("third answer"),
                    text_turn("fourth answer")])
    return (srv, *cli_project(tmp_path, monkeypatch, srv))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_continue_resume_export_and_view(project, capsys, monkeypatch, tmp_path):
    srv, here, sessions = project
    assert run(capsys, "--list")[1].startswith("no sessions started in this folder")
    code, out, _ = run(capsys, "-p", "hello there")
    assert (code, out.strip()) == (0, "first answer")
    [transcript] = sessions.glob("*/transcript.jsonl")
    session_id = transcript.parent.name

    code, out, _ = run(capsys, "--list")
    assert code == 0 and typed_id(session_id) in out and "hello there" in out and "default/test-model" in out
    shown = out.splitlines()[1].split()[0]
    assert shown == session_id.replace("-", "")[-8:]  # #23: the random tail, which a person can type

    code, out, _ = run(capsys, "--resume", shown, "-p", "by its tail")
    assert (code, out.strip()) == (0, "second answer")  # the tail finds it

    code, out, err = run(capsys, "-c", "-p", "and again")
    assert (code, out.strip()) == (0, "third answer") and f"resumed session {session_id}" in err
    assert [m["content"] for m in srv.requests[2]["messages"][1:]] == [
        "hello there", "first answer", "by its tail", "second answer", "and again"]

    code, out, _ = run(capsys, "--resume", session_id[:15], "-p", "third")
    assert (code, out.strip()) == (0, "fourth answer")
    records, warnings = read_transcript(transcript)
    assert warnings == [] and [r.text for r in records if isinstance(r, msgs.UserPrompt)] == [
        "hello there", "by its tail", "and again", "third"]
    assert len(list(sessions.glob("*/transcript.jsonl"))) == 1

    monkeypatch.chdir(tmp_path)
    assert run(capsys, "--list")[1].startswith("no sessions")
    code, out, _ = run(capsys, "--list", "--all")
    assert "DIRECTORY" in out and str(here.name) in out and "4" in out.splitlines()[1].split()

    code, out, _ = run(capsys, "export", session_id[:13], str(tmp_path / "s.md"))
    assert code == 0 and out.strip() == str(tmp_path / "s.md")
    assert "> and again" in (tmp_path / "s.md").read_text()

    # view: on a terminal the UI's read-only view gets the records; with no UI, or stdout not a
    # terminal, the Markdown is printed
    code, out, _ = run(capsys, "view", session_id[:13])
    assert code == 0 and "## 3. You\n\n> and again" in out
    monkeypatch.setattr("mrsmith_tui.cli.sessions_cmd._stdout_is_terminal", lambda: True)
    seen = {}
    fake = types.ModuleType("mrsmith_tui.tui.app")
    fake.run_view = lambda records, **kw: seen.setdefault("records", records) and 0
    monkeypatch.setitem(sys.modules, "mrsmith_tui.tui.app", fake)
    monkeypatch.delenv("OPENAI_BASE_URL")  # no endpoint needed
    assert run(capsys, "view", session_id[:13])[0] == 0
    assert seen["records"][0].session_id == session_id
    monkeypatch.setitem(sys.modules, "mrsmith_tui.tui.app", types.ModuleType("mrsmith_tui.tui.app"))
    code, out, _ = run(capsys, "view", session_id[:13])
    assert code == 0 and "## 3. You\n\n> and again" in out


def test_session_command_errors_are_one_line(project, capsys):
    _, _, _sessions = project
    code, _, err = run(capsys, "--resume", "zzzz", "-p", "hi")
    assert code == 2 and "no session id starts with 'zzzz'" in err
    assert run(capsys, "--all")[2] == "mrsmith: error: --all goes with --list\n"
    assert run(capsys, "-c", "--resume", "x")[0] == 2
    code, _, err = run(capsys, "export", "nope")
    assert code == 2 and "no session id starts with 'nope'" in err


def test_export_keeps_an_existing_file_unless_forced(project, capsys, tmp_path):
    _, here, sessions = project
    assert run(capsys, "-p", "hello there")[0] == 0
    session_id = next(sessions.glob("*/transcript.jsonl")).parent.name
    (here / "README.md").write_text("the project's own\n")
    code, out, err = run(capsys, "export", session_id[:13], "README.md")
    assert (code, out) == (2, "")
    assert err == "mrsmith: error: README.md exists: give another name, or --force to replace it\n"
    assert (here / "README.md").read_text() == "the project's own\n"
    code, out, _ = run(capsys, "export", session_id[:13], "README.md", "--force")
    assert (code, out) == (0, "README.md\n") and "> hello there" in (here / "README.md").read_text()
    code, _, err = run(capsys, "export", session_id[:13], "")
    assert code == 2 and "the file name is empty" in err and sorted(p.name for p in here.iterdir()) == ["README.md"]
    assert run(capsys, "export", session_id[:13])[1] == f"{here / ('mrsmith-' + session_id[:13] + '.md')}\n"


def test_export_to_dash_writes_the_markdown_to_stdout(project, capsys):
    _, here, sessions = project
    assert run(capsys, "-p", "hello there")[0] == 0
    session_id = next(sessions.glob("*/transcript.jsonl")).parent.name
    code, out, err = run(capsys, "export", session_id[:13], "-")
    assert (code, err) == (0, "") and "> hello there" in out and "first answer" in out
    assert not (here / "-").exists() and sorted(p.name for p in here.iterdir()) == []
    code, _, err = run(capsys, "export", "nope", "-")
    assert code == 2 and "no session id starts with 'nope'" in err


def test_a_project_folder_for_id_says_what_id_takes_and_points_at_list(project, capsys, tmp_path):
    _, here, sessions = project
    empty = tmp_path / "tryout"
    empty.mkdir()
    code, _, err = run(capsys, "view", str(empty))
    assert code == 2 and len(err.splitlines()) == 1
    assert f"{empty} is a folder, not a session: give a session id as mrsmith --list shows it" in err
    assert "no session was started there (mrsmith --list --all" in err
    assert run(capsys, "-p", "hello there")[0] == 0
    session_id = next(sessions.glob("*/transcript.jsonl")).parent.name
    code, _, err = run(capsys, "export", str(here), "-")
    assert code == 2 and f"its newest session is {typed_id(session_id)} (mrsmith --list run there" in err
    code, out, _ = run(capsys, "view", str(sessions / session_id))  # a session's own folder still works
    assert code == 0 and "> hello there" in out
    code, _, err = run(capsys, "--resume", str(empty), "-p", "hi")
    assert code == 2 and "is a folder, not a session" in err
