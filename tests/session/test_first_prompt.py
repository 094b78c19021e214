"""#23: a session's file is made at its first prompt (a failed start leaves no session behind), and
`--list` and the resume picker mark the runs made headless."""

from __future__ import annotations

import json

import pytest
from textual.widgets import OptionList

from loopback import Turn
from mrsmith_tui import msgs
from mrsmith_tui.cli import main
from mrsmith_tui.history import UserEntry
from mrsmith_tui.session import records
from mrsmith_tui.session.store import format_sessions, list_sessions, read_info
from mrsmith_tui.session.transcript import TranscriptWriter, read_transcript
from mrsmith_tui.tui.screens.sessions_picker import SessionPicker
from session.sessionkit import new_session, two_agents
from session.test_cli_sessions import cli_project


def _header(frontend: str = "tui") -> msgs.TranscriptHeader:
    return records.header(session_id="s1", created=1.0, cwd="/w", agent="a", model="m", provider="p", frontend=frontend)


def test_what_comes_before_the_first_prompt_waits_for_it(tmp_path):
    path = tmp_path / "sessions" / "s1" / "transcript.jsonl"
    w = TranscriptWriter(path, header=_header(), from_first_prompt=True)
    w.append(msgs.AgentChanged(agent="b", model="m2", provider="p"))
    w.append(msgs.Warning(text="the endpoint is down", code="x"))
    assert not path.exists() and not path.parent.exists() and not w.started
    w.append(msgs.UserPrompt(run_id="run-1", text="hello"))
    w.close()
    read, warnings = read_transcript(path)
    assert warnings == [] and [type(r).__name__ for r in read] == ["TranscriptHeader", "AgentChanged", "Warning", "UserPrompt"]


@pytest.mark.parametrize("first", ["UserPrompt", "RunStarted", "PromptRecorded"])
def test_any_msg_of_a_prompt_makes_the_file(tmp_path, first):
    path = tmp_path / "t.jsonl"
    w = TranscriptWriter(path, header=_header(), from_first_prompt=True)
    made = {"UserPrompt": msgs.UserPrompt(run_id="r", text="x"),
            "RunStarted": msgs.RunStarted(run_id="r", agent="a", model="m"),
            "PromptRecorded": msgs.PromptRecorded(run_id="r", entry=UserEntry(text="x"))}[first]
    w.append(made)
    w.close()
    assert [type(r).__name__ for r in read_transcript(path)[0]] == ["TranscriptHeader", first]


def test_a_start_that_never_got_a_prompt_leaves_nothing_even_after_many_msgs_are_dropped(tmp_path):
    path = tmp_path / "t.jsonl"
    w = TranscriptWriter(path, header=_header(), from_first_prompt=True)
    for i in range(TranscriptWriter.MAX_HELD):
        w.append(msgs.Warning(text=f"w{i}", code="x"))
    w.close()
    assert not path.exists()
    w2 = TranscriptWriter(path, header=_header(), from_first_prompt=True)  # bounded: one more than it holds starts it
    for i in range(TranscriptWriter.MAX_HELD + 1):
        w2.append(msgs.Warning(text=f"w{i}", code="x"))
    w2.close()
    assert len(read_transcript(path)[0]) == TranscriptWriter.MAX_HELD + 2


def test_a_session_switched_before_any_prompt_is_not_listed(tmp_path):
    config = two_agents(tmp_path)
    s, _, _ = new_session(config, tmp_path)
    s.set_model("m9")  # /model before any prompt
    s.switch_agent("other")  # /agent too
    s.close()
    assert list_sessions(tmp_path / "sessions") == [] and not (tmp_path / "sessions").exists()


def test_a_session_switched_then_prompted_keeps_the_switch(tmp_path):
    from core.fakes import answer

    config = two_agents(tmp_path)
    s, _, _ = new_session(config, tmp_path, answer("an answer"))
    s.set_model("m9")
    from mrsmith_tui.cancel import CancelToken

    s.run("a prompt", CancelToken())
    s.close()
    [info] = list_sessions(tmp_path / "sessions")
    read, _ = read_transcript(info.path)
    assert [type(r).__name__ for r in read][:3] == ["TranscriptHeader", "AgentChanged", "UserPrompt"]
    assert info.turns == 1 and info.frontend == "tui"


def test_a_headless_run_whose_endpoint_fails_is_kept_and_listed_as_headless(tmp_path, monkeypatch, capsys, loopback):
    srv = loopback([Turn(status=401)])  # the endpoint refuses the key: no retry, the run fails
    _, sessions = cli_project(tmp_path, monkeypatch, srv)
    assert main(["-p", "a prompt to nobody"]) == 1
    capsys.readouterr()
    [info] = list_sessions(sessions)
    assert info.frontend == "headless" and info.turns == 1
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    assert "[headless] a prompt to nobody" in out


def test_a_bad_config_writes_no_session(tmp_path, monkeypatch, capsys, loopback):
    srv = loopback([])
    _, sessions = cli_project(tmp_path, monkeypatch, srv)
    assert main(["-p", "hi", "--agent", "nobody"]) == 2
    assert "nobody" in capsys.readouterr().err
    assert not sessions.exists()


def _write(path, header: dict, prompt: str) -> None:
    path.parent.mkdir(parents=True)
    lines = [header, {"type": "PromptRecorded", "run_id": "r", "entry": {"role": "user", "text": prompt}}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


def test_an_old_transcript_without_the_field_reads_as_the_tui(tmp_path):
    old = {"type": "TranscriptHeader", "format": 2, "session_id": "01a2", "created": 5.0, "cwd": "/w", "agent": "a",
           "model": "m", "provider": "p"}
    _write(tmp_path / "01a2" / "transcript.jsonl", old, "an old prompt")
    _write(tmp_path / "01a3" / "transcript.jsonl", {**old, "session_id": "01a3", "created": 6.0, "frontend": "headless"},
           "a scripted prompt")
    _write(tmp_path / "01a4" / "transcript.jsonl", {**old, "session_id": "01a4", "created": 7.0, "frontend": "[odd]"},
           "an odd one")
    info = read_info(tmp_path / "01a2" / "transcript.jsonl")
    assert info is not None and info.frontend == "tui"
    table = format_sessions(list_sessions(tmp_path))
    assert "[headless] a scripted prompt" in table and "  an old prompt" in table and "[headless] an old" not in table
    assert "[odd]" not in table and "[headless] an odd one" not in table


async def test_the_picker_marks_headless_runs(tmp_path):
    from textual.app import App

    old = {"type": "TranscriptHeader", "format": 2, "session_id": "01a2", "created": 5.0, "cwd": "/w", "agent": "a",
           "model": "m", "provider": "p"}
    _write(tmp_path / "01a2" / "transcript.jsonl", old, "typed on screen")
    _write(tmp_path / "01a3" / "transcript.jsonl", {**old, "session_id": "01a3", "created": 6.0, "frontend": "headless"},
           "from a script")
    sessions = list_sessions(tmp_path)

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(SessionPicker(sessions, None))

    app = Host()
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        options = app.screen.query_one(OptionList)
        rows = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert "[h] from a script" in rows[0] and "[h]" not in rows[1] and "typed on screen" in rows[1]
        title = str(app.screen.query_one(".title").render())
        assert "[h] headless run" in title


def test_a_command_the_person_ran_starts_the_file_a_skill_does_not(tmp_path):
    path = tmp_path / "t.jsonl"
    w = TranscriptWriter(path, header=_header(), from_first_prompt=True)
    w.append(msgs.ContextAdded(entry=UserEntry(text="skill body", kind="context"), skill="plan"))
    assert not path.exists()
    w.append(msgs.ContextAdded(entry=UserEntry(text="$ ls\nREADME.md", kind="context")))  # `!ls`
    w.close()
    assert [getattr(r, "skill", None) for r in read_transcript(path)[0][1:]] == ["plan", ""]


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (89, 24), (90, 24), (120, 30), (200, 60)])
async def test_no_picker_row_wraps(tmp_path, size):
    from textual.app import App

    old = {"type": "TranscriptHeader", "format": 2, "session_id": "01a2", "created": 5.0, "cwd": "/w",
           "agent": "coder", "model": "qwen3-coder-30b", "provider": "p"}
    long_prompt = "a first prompt that is much longer than any column a terminal could give it " * 3
    for n, frontend in enumerate(("tui", "headless", "tui")):
        sid = f"01a2{n}"
        _write(tmp_path / sid / "transcript.jsonl", {**old, "session_id": sid, "created": 5.0 + n, "frontend": frontend},
               long_prompt)
    sessions = list_sessions(tmp_path)

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(SessionPicker(sessions, sessions[0].id))

    app = Host()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        options = app.screen.query_one(OptionList)
        inner = options.scrollable_content_region.width
        for i in range(options.option_count):
            text = str(options.get_option_at_index(i).prompt)
            assert len(text) <= inner - 2, (inner, text)  # the option's own padding: one line each
            assert ("coder/qwen3" in text) is (size[0] >= 90)  # narrow: no agent/model column
