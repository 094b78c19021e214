"""The headless fold: which text goes to stdout, which to stderr, and the run's exit code."""

from __future__ import annotations

import io
import json

from mrsmith_tui import msgs
from mrsmith_tui.headless import FoldState, HeadlessPrinter, fold, json_line, run_headless, wants_color


def fold_all(items, color=False):
    state, out, err = FoldState(), "", ""
    for m in items:
        state, o, e = fold(state, m, color=color)
        out, err = out + o, err + e
    return out, err


ANSWER = [
    msgs.RunStarted(run_id="1"),
    msgs.ReasoningDelta(block_id="r1", text="thinking "),
    msgs.ReasoningDelta(block_id="r1", text="hard"),
    msgs.BlockEnded(block_id="r1", kind="reasoning", text="thinking hard"),
    msgs.TextDelta(block_id="t1", text="Hello "),
    msgs.TextDelta(block_id="t1", text="world"),
    msgs.BlockEnded(block_id="t1", kind="text", text="Hello world"),
    msgs.UsageReported(usage=msgs.UsageInfo(prompt_tokens=10, completion_tokens=5)),
    msgs.RunEnded(run_id="1"),
]


def test_answer_to_stdout_reasoning_to_stderr():
    out, err = fold_all(ANSWER)
    assert out == "Hello world\n"
    assert err == "thinking hard\n"


def test_tool_activity_goes_to_stderr_on_its_own_lines():
    out, err = fold_all([
        msgs.TextDelta(block_id="t1", text="Let me look."),
        msgs.BlockEnded(block_id="t1", kind="text", text="Let me look."),
        msgs.ToolCallStarted(call_id="c1", name="shell", arguments='{"command": "ls"}', summary="ls"),
        msgs.ToolOutput(call_id="c1", text="a.py\nb.py"),
        msgs.ToolCallFinished(call_id="c1", name="shell", ok=True, result="a.py\nb.py", exit_code=0, elapsed=0.25),
        msgs.ToolCallStarted(call_id="c2", name="write_file", arguments="{}", summary="x.txt"),
        msgs.ToolCallFinished(call_id="c2", name="write_file", ok=False, result="refused by policy\nmore", denied=True),
        msgs.ToolCallStarted(call_id="c3", name="read_file", arguments="{}", summary="nope"),
        msgs.ToolCallFinished(call_id="c3", name="read_file", ok=False, result="no such file: nope"),
    ])
    assert out == "Let me look.\n"
    assert err.splitlines() == [
        "→ shell ls",
        "a.py",
        "b.py",
        "  ✓ shell · exit 0 · 0.2s",
        "→ write_file x.txt",
        "  ✗ write_file refused: refused by policy",
        "→ read_file nope",
        "  ✗ read_file failed: no such file: nope",
    ]


def test_an_error_is_printed_once_even_when_the_run_end_repeats_it():
    out, err = fold_all([
        msgs.TextDelta(block_id="t1", text="partial"),
        msgs.Error(text="provider 'x' answered 401: bad key"),
        msgs.RunEnded(run_id="1", error="provider 'x' answered 401: bad key"),
    ])
    assert out == "partial\n"
    assert err == "error: provider 'x' answered 401: bad key\n"


def test_run_end_alone_reports_its_error_and_cancel():
    assert fold_all([msgs.RunEnded(run_id="1", error="boom")])[1] == "error: boom\n"
    assert fold_all([msgs.RunEnded(run_id="1", cancelled=True)])[1] == "interrupted\n"


def test_agent_messages_go_to_stderr_prefixed_with_the_agent_id():
    out, err = fold_all([
        msgs.AgentSpawned(agent_id="agent-1", label="tests", task="run the tests"),
        msgs.FromAgent(agent_id="agent-1", msg=msgs.TextDelta(block_id="t9", text="ignored delta")),
        msgs.FromAgent(agent_id="agent-1", msg=msgs.BlockEnded(block_id="t9", kind="text", text="all green\n2 files")),
        msgs.FromAgent(agent_id="agent-1", msg=msgs.ToolCallStarted(call_id="c", name="glob", arguments="{}", summary="**/*.py")),
        msgs.FromAgent(agent_id="agent-1", msg=msgs.FromAgent(agent_id="subagent-1", msg=msgs.Error(text="nested"))),
        msgs.AgentStateChanged(agent_id="agent-1", state="done"),
    ])
    assert out == ""
    assert err.splitlines() == [
        "[agent-1] started tests: run the tests",
        "[agent-1] all green",
        "[agent-1] 2 files",
        "[agent-1] → glob **/*.py",
        "[agent-1/subagent-1] error: nested",
        "[agent-1] done",
    ]


def test_warning_breaks_a_reasoning_line():
    _, err = fold_all([msgs.ReasoningDelta(block_id="r1", text="mid-thought"), msgs.Warning(text="context at 85 %")])
    assert err == "mid-thought\nwarning: context at 85 %\n"


def test_colour_only_when_asked():
    _, plain = fold_all(ANSWER, color=False)
    _, painted = fold_all(ANSWER, color=True)
    assert "\x1b[" not in plain
    assert "\x1b[2mthinking \x1b[0m" in painted


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_wants_color_needs_a_terminal_and_no_NO_COLOR():
    assert wants_color(_Tty(), {}) is True
    assert wants_color(_Tty(), {"NO_COLOR": "1"}) is False
    assert wants_color(_Tty(), {"NO_COLOR": ""}) is True
    assert wants_color(io.StringIO(), {}) is False


def test_json_lines_go_to_stdout_and_the_error_line_to_stderr():
    out, err = io.StringIO(), io.StringIO()
    printer = HeadlessPrinter(out, err, json_lines=True)
    for m in ANSWER[:-1] + [msgs.Error(text="cut"), msgs.RunEnded(run_id="1", error="cut")]:
        printer(m)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [x["type"] for x in lines][:3] == ["RunStarted", "ReasoningDelta", "ReasoningDelta"]
    assert lines[-1] == {"type": "RunEnded", "at": lines[-1]["at"], "run_id": "1", "cancelled": False, "error": "cut",
                         "reason": "", "skipped_chunks": 0}
    assert err.getvalue() == "error: cut\n"


def _session(result_factory):
    class S:
        def run(self, prompt, cancel, *, attachments=()):
            self.args = (prompt, attachments)
            return result_factory(cancel)

    return S()


class _Result:
    def __init__(self, final_text="", cancelled=False, error=None):
        self.final_text, self.cancelled, self.error = final_text, cancelled, error


def test_exit_codes_of_run_headless():
    printer = HeadlessPrinter(io.StringIO(), err := io.StringIO())
    ok = _session(lambda c: _Result("done"))
    assert run_headless(ok, "hi", printer=printer, attachments=[("stdin", "log")]) == 0
    assert ok.args == ("hi", [("stdin", "log")])
    assert run_headless(_session(lambda c: _Result(error="net down")), "hi", printer=printer) == 1
    assert err.getvalue() == "error: net down\n"
    assert run_headless(_session(lambda c: _Result(cancelled=True)), "hi", printer=printer) == 130


def test_run_headless_reraises_unexpected_exceptions():
    def boom(cancel):
        raise RuntimeError("bug")

    printer = HeadlessPrinter(io.StringIO(), io.StringIO())
    try:
        run_headless(_session(boom), "hi", printer=printer)
    except RuntimeError as e:
        assert str(e) == "bug"
    else:
        raise AssertionError("expected the worker's exception")


def test_permissions_in_force_are_a_line_on_stderr_and_one_json_object():
    report = msgs.PermissionsInForce(specs=(msgs.Allowed(spec="write_file", origin="--allow"), msgs.Allowed(spec="shell", origin="config")))
    out, err = fold_all([report])
    assert out == "" and err == "allowed without asking: write_file (--allow), shell (config)\n"
    assert fold_all([msgs.PermissionsInForce()]) == ("", "")
    assert "--yes" in fold_all([msgs.PermissionsInForce(approve_all=True)])[1]
    line = json.loads(json_line(report))
    assert line["type"] == "PermissionsInForce" and line["approve_all"] is False
    assert line["specs"] == [{"spec": "write_file", "origin": "--allow"}, {"spec": "shell", "origin": "config"}]


def test_the_recorded_msgs_stay_out_of_the_json_stream_and_the_log():
    from mrsmith_tui.history import UserEntry, assistant

    recorded = [msgs.PromptRecorded(run_id="1", entry=UserEntry(text="hi")),
                msgs.AnswerRecorded(run_id="1", entry=assistant("hello")),
                msgs.FromAgent(agent_id="subagent-1", msg=msgs.ContextAdded(entry=UserEntry(text="x", kind="context")))]
    for json_lines in (True, False):
        out, err = io.StringIO(), io.StringIO()
        printer = HeadlessPrinter(out, err, json_lines=json_lines)
        for m in [msgs.UserPrompt(run_id="1", text="hi"), *recorded, msgs.RunEnded(run_id="1")]:
            printer(m)
        assert err.getvalue() == ""
        if json_lines:
            assert [json.loads(line)["type"] for line in out.getvalue().splitlines()] == ["UserPrompt", "RunEnded"]
        else:
            assert out.getvalue() == ""
