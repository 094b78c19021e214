"""Listing and finding sessions, and the Markdown export."""

from __future__ import annotations

import json

import pytest
from sessionkit import new_session, two_agents

from core.fakes import EchoTool, answer, calls
from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.history import UserEntry, assistant
from mrsmith_tui.session import records
from mrsmith_tui.session.export import ExportError, export_markdown, export_session
from mrsmith_tui.session.store import (
    SessionNotFound,
    find_session,
    format_sessions,
    last_used_session,
    list_sessions,
    local_minute,
    read_info,
    transcript_of,
)
from mrsmith_tui.session.transcript import TranscriptWriter, read_transcript


def write_session(root, session_id, cwd, created, prompts, *, agent="main", model="m1", used=None):
    """A session started at `created` whose turns come a second apart, the last at `used` when given."""
    w = TranscriptWriter(root / session_id / "transcript.jsonl", header=records.header(
        session_id=session_id, created=created, cwd=str(cwd), agent=agent, model=model, provider="p", version="0"))
    for i, p in enumerate(prompts, 1):
        at = used - len(prompts) + i if used is not None else created + i
        w.append(msgs.UserPrompt(run_id=f"run{i}", text=records.prompt_of(p), at=at))
        w.append(msgs.RunStarted(run_id=f"run{i}", agent=agent, model=model, at=at))
        w.append(msgs.PromptRecorded(run_id=f"run{i}", entry=UserEntry(text=p), at=at))
        w.append(msgs.AnswerRecorded(run_id=f"run{i}", entry=assistant("the user said " + p), model=model, at=at))
        w.append(msgs.RunEnded(run_id=f"run{i}", at=at))
    w.close()


def write_v1_session(root, session_id, cwd, created, prompts, *, agent="main", model="m1"):
    """The same session as an older mrsmith wrote it (format 1)."""
    lines = [{"type": "header", "at": created, "format": 1, "id": session_id, "created": created, "cwd": str(cwd),
              "agent": agent, "model": model, "provider": "p", "version": "0"}]
    for i, p in enumerate(prompts, 1):
        lines += [{"type": "user", "at": created + i, "run_id": f"run{i}", "text": p},
                  {"type": "assistant", "at": created + i, "run_id": f"run{i}", "content": "the user said " + p,
                   "reasoning": "", "tool_calls": [], "model": model},
                  {"type": "run_end", "at": created + i, "run_id": f"run{i}", "cancelled": False, "error": None}]
    (root / session_id).mkdir(parents=True)
    (root / session_id / "transcript.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))


def test_list_this_folder_last_used_first_or_all(tmp_path):
    root, here, there = tmp_path / "s", tmp_path / "here", tmp_path / "there"
    here.mkdir(), there.mkdir()
    write_v1_session(root, "0001-old", here, 100.0, ["first", "again"])
    write_session(root, "0002-new", here, 200.0, ['<attachment name="stdin">\nlog\n</attachment>\n\nwhy?'])
    write_session(root, "0003-else", there, 300.0, ["elsewhere"], agent="other", model="m2")
    (root / "not-a-session").mkdir()
    mine = list_sessions(root, cwd=here)
    assert [s.id for s in mine] == ["0002-new", "0001-old"]
    assert (mine[1].turns, mine[1].first_prompt, mine[0].first_prompt) == (2, "first", "why?")
    assert [s.id for s in list_sessions(root)] == ["0003-else", "0002-new", "0001-old"]
    assert last_used_session(root, here).id == "0002-new"
    table = format_sessions(list_sessions(root), show_dir=True).splitlines()
    assert table[0].split() == ["ID", "LAST", "USED", "AGENT/MODEL", "TURNS", "DIRECTORY", "FIRST", "PROMPT"]
    assert "other/m2" in table[1] and str(there) in table[1] and table[1].endswith("elsewhere")
    assert "DIRECTORY" not in format_sessions(mine)
    assert format_sessions([]) == "no sessions"


def test_a_session_resumed_later_is_the_last_used_for_c_the_welcome_and_the_list(tmp_path):
    from mrsmith_tui.tui.shell.welcome import _last_session

    root, here = tmp_path / "s", tmp_path / "here"
    here.mkdir()
    write_session(root, "0001-resumed", here, 100.0, ["old work", "back at it"], used=900.0)
    write_session(root, "0002-left", here, 500.0, ["tried something"], used=510.0)
    assert [s.id for s in list_sessions(root, cwd=here)] == ["0001-resumed", "0002-left"]
    assert list_sessions(root, cwd=here)[0].used == 900.0
    assert transcript_of(root, None, here) == root / "0001-resumed" / "transcript.jsonl"  # -c
    welcome = _last_session(root, here)
    assert (welcome["last_id"], welcome["last_when"]) == ("0001-resumed", local_minute(900.0))
    table = format_sessions(list_sessions(root, cwd=here)).splitlines()
    assert table[1].startswith("0001-resumed") and local_minute(900.0) in table[1]


def test_a_torn_last_line_falls_back_to_the_record_before_it(tmp_path):
    root = tmp_path / "s"
    write_session(root, "torn-end", tmp_path, 100.0, ["one"], used=700.0)
    with open(root / "torn-end" / "transcript.jsonl", "a") as f:
        f.write('{"type": "UserPrompt", "at": 99')  # killed mid-write
    assert read_info(root / "torn-end" / "transcript.jsonl").used == 700.0


def test_find_by_prefix_ambiguous_or_missing(tmp_path):
    root = tmp_path / "s"
    write_session(root, "abc-1", tmp_path, 1.0, ["one"])
    write_session(root, "abc-2", tmp_path, 2.0, ["two"])
    assert find_session(root, "ABC-2").id == "abc-2"
    with pytest.raises(SessionNotFound) as e:
        find_session(root, "abc")
    assert "'abc' matches 2 sessions: abc-2" in e.value.message and "abc-1" in e.value.message
    with pytest.raises(SessionNotFound, match="no session id starts with 'zz'"):
        find_session(root, "zz")
    with pytest.raises(SessionNotFound, match="no session was started in"):
        last_used_session(tmp_path / "nothing-here", tmp_path)


def test_listing_hundreds_of_long_sessions_is_fast(tmp_path):
    root = tmp_path / "s"
    big = "x" * 20_000
    for n in range(300):
        write_session(root, f"s{n:04d}", tmp_path, float(n), ["p"] * 3)
        with open(root / f"s{n:04d}" / "transcript.jsonl", "a") as f:
            for _ in range(10):
                f.write(json.dumps(msgs.to_json(msgs.ToolCallFinished(call_id="c", name="read_file", ok=True,
                                                                      result=big))) + "\n")
    sessions = list_sessions(root, cwd=tmp_path)  # its speed: bench/latency.py
    assert len(sessions) == 300 and sessions[0].id == "s0299" and sessions[0].turns == 3


def test_a_session_with_a_torn_header_is_left_out(tmp_path):
    root = tmp_path / "s"
    (root / "torn").mkdir(parents=True)
    (root / "torn" / "transcript.jsonl").write_text('{"type": "header", "id"')
    assert read_info(root / "torn" / "transcript.jsonl") is None
    assert list_sessions(root) == []


def test_export_markdown_folds_reasoning_and_tools(tmp_path):
    s, _, _ = new_session(
        two_agents(tmp_path), tmp_path,
        calls(("echo", {"text": "```x"}), reasoning="I should echo"), answer("All done.", reasoning="it worked"),
        tools=[EchoTool()],
    )
    s.run("please echo", CancelToken())
    records, _ = read_transcript(s.transcript_path)
    md = export_markdown(records)
    assert md.startswith(f"# mrsmith session {s.session_id}\n")
    assert "## 1. You\n\n> please echo\n" in md
    assert "<details><summary>Reasoning</summary>\n\nI should echo\n\n</details>" in md
    assert "<details><summary>Tool: echo (ok)</summary>" in md
    assert '````json\n{\n  "text": "```x"\n}\n````' in md  # a longer fence than the content's backticks
    assert "\nAll done.\n" in md
    assert "<sub>usage: 200 tokens in, 20 out, 2 model calls</sub>" in md

    out = export_session(s.session_id[:20], tmp_path / "out.md", root=tmp_path / "sessions")
    assert out.read_text() == md
    assert export_session(s.transcript_path, tmp_path).name.startswith("mrsmith-")


def test_export_errors_are_one_line_and_leave_no_file(tmp_path):
    with pytest.raises(ExportError, match="no session id starts with 'nope'"):
        export_session("nope", tmp_path / "x.md", root=tmp_path)
    src = tmp_path / "t.jsonl"
    src.write_text('{"type": "header", "id": "a"}\n{"type": "user", "text": "hi"}\n')
    with pytest.raises(ExportError, match="cannot write"):
        export_session(src, tmp_path / "missing-dir" / "x.md")
    assert not (tmp_path / "missing-dir").exists()


def test_export_names_a_bang_commands_output_as_context_not_a_skill(tmp_path):
    from mrsmith_tui.core.prompt_run import run_prompt

    s, _, _ = new_session(two_agents(tmp_path), tmp_path, answer("ok"))
    run_prompt(s, "!echo from-the-shell", CancelToken(), typed=True)
    records, _ = read_transcript(s.transcript_path)
    md = export_markdown(records)
    assert "Context added (a `!command` the person ran)" in md and "from-the-shell" in md
    assert "Skill loaded" not in md
