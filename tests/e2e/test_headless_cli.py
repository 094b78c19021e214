"""The headless CLI end to end: a subprocess of `python -m mrsmith_tui` against tests/loopback.py."""

from __future__ import annotations

import importlib.util
import json
import os
import select
import signal
import socket
import threading
import time

import pytest

from loopback import Turn, chunk, held, text_turn, tool_turn, usage_chunk


def only_error_line(done) -> str:
    assert "Traceback" not in done.err
    errors = [line for line in done.err_lines if "error" in line]
    assert len(errors) == 1, done.err
    return errors[0]


def user_texts(request: dict) -> str:
    return "\n".join(str(m.get("content")) for m in request["messages"] if m["role"] == "user")


def assert_transcript_intact(done) -> list[dict]:
    (records,) = done.transcripts()
    assert records[0]["type"] == "TranscriptHeader" and records[0]["format"] == 2
    assert "sk-test" not in json.dumps(records)
    return records


# --------------------------------------------------------------------------- the answer


def test_prompt_prints_the_streamed_answer(cli, loopback):
    srv = loopback([text_turn("Hello from the loopback server.")])
    done = cli.using(srv.base_url).run("-p", "say hello")
    assert done.code == 0, done.err
    assert done.out == "Hello from the loopback server.\n"
    (request,) = srv.requests
    assert request["model"] == "test-model" and request["stream"] is True
    assert "say hello" in user_texts(request)
    assert srv.headers[0]["Authorization"] == "Bearer sk-test"
    records = assert_transcript_intact(done)
    assert {"PromptRecorded", "AnswerRecorded"} <= {r["type"] for r in records}


def test_piped_stdin_is_the_prompt(cli, loopback):
    srv = loopback([text_turn("four")])
    done = cli.using(srv.base_url).run(input="what is 2+2?\n")
    assert done.code == 0, done.err
    assert done.out == "four\n"
    assert "what is 2+2?" in user_texts(srv.requests[0])


def test_piped_stdin_and_files_become_context_for_the_prompt(cli, loopback):
    srv = loopback([text_turn("a timeout")])
    (cli.cwd / "notes.txt").write_text("NOTE-CONTENT-7")
    done = cli.using(srv.base_url).run("-p", "why did it fail?", "-f", "notes.txt", input="ERROR-LOG-LINE-42\n")
    assert done.code == 0, done.err
    sent = user_texts(srv.requests[0])
    assert "why did it fail?" in sent and "ERROR-LOG-LINE-42" in sent and "NOTE-CONTENT-7" in sent


def test_no_session_writes_no_transcript(cli, loopback):
    srv = loopback([text_turn("ok")])
    done = cli.using(srv.base_url).run("-p", "hi", "--no-session")
    assert done.code == 0, done.err
    assert done.transcripts() == []


def test_flags_alone_configure_the_endpoint(cli, loopback):
    srv = loopback([text_turn("flagged")])
    done = cli.run("-p", "hi", "--base-url", srv.base_url, "--model", "flag-model", "--api-key", "sk-flag")
    assert done.code == 0, done.err
    assert done.out == "flagged\n"
    assert srv.requests[0]["model"] == "flag-model"
    assert srv.headers[0]["Authorization"] == "Bearer sk-flag"


# --------------------------------------------------------------------------- reasoning, every dialect


def _reasoning_then_tool(dialect: str, thought: str) -> Turn:
    events: list = [chunk(role="assistant", content="")]
    if dialect == "think":
        events += [chunk("<think>" + thought[:5]), chunk(thought[5:] + "</think>")]
    elif dialect == "reasoning_details":
        delta = {"reasoning_details": [{"type": "reasoning.text", "text": thought}]}
        events.append({**chunk(), "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
    else:
        events += [chunk(reasoning=thought[:5], reasoning_field=dialect), chunk(reasoning=thought[5:], reasoning_field=dialect)]
    events.append(chunk(tool_calls=[{"index": 0, "id": "call_l", "type": "function",
                                     "function": {"name": "list_dir", "arguments": '{"path": "."}'}}]))
    events += [chunk(finish="tool_calls"), usage_chunk()]
    return Turn(events=events)


@pytest.mark.parametrize("dialect", ["reasoning_content", "reasoning", "reasoning_details", "think"])
def test_reasoning_shows_on_stderr_and_is_not_sent_back(cli, loopback, dialect):
    thought = "PONDERING-deeply-about-files"
    srv = loopback([_reasoning_then_tool(dialect, thought), text_turn("The folder is empty.")])
    done = cli.using(srv.base_url).run("-p", "what is here?")
    assert done.code == 0, done.err
    assert thought in done.err
    assert thought not in done.out
    assert done.out.strip() == "The folder is empty."
    assert len(srv.requests) == 2
    assert thought not in json.dumps(srv.requests[1]["messages"])
    assert [m["tool_call_id"] for m in srv.requests[1]["messages"] if m["role"] == "tool"] == ["call_l"]


# --------------------------------------------------------------------------- tools


@pytest.mark.skipif(importlib.util.find_spec("mrsmith_tui.tools.builtin") is None, reason="tools.builtin not built yet")
def test_read_file_and_glob_round_trip(cli, loopback):
    (cli.cwd / "src").mkdir()
    (cli.cwd / "src" / "a.txt").write_text("SECRET-CONTENT-42\n")
    srv = loopback([
        tool_turn("glob", {"pattern": "**/*.txt"}, call_id="call_glob"),
        tool_turn("read_file", {"path": "src/a.txt"}, call_id="call_read"),
        text_turn("It says SECRET-CONTENT-42."),
    ])
    done = cli.using(srv.base_url).run("-p", "read the txt files")
    assert done.code == 0, done.err
    assert done.out.strip() == "It says SECRET-CONTENT-42."
    glob_result = srv.requests[1]["messages"][-1]
    assert (glob_result["role"], glob_result["tool_call_id"]) == ("tool", "call_glob")
    assert "src/a.txt" in glob_result["content"]
    read_result = srv.requests[2]["messages"][-1]
    assert (read_result["role"], read_result["tool_call_id"]) == ("tool", "call_read")
    assert "SECRET-CONTENT-42" in read_result["content"]
    assert "glob" in done.err and "read_file" in done.err  # tool activity on stderr
    types = [r["type"] for r in assert_transcript_intact(done)]
    assert types.count("ToolCallFinished") == 2


# --------------------------------------------------------------------------- --json


def test_json_output_parses_line_by_line(cli, loopback):
    srv = loopback([text_turn("Answer in JSON mode.", reasoning="hmm")])
    done = cli.using(srv.base_url).run("-p", "hi", "--json")
    assert done.code == 0, done.err
    events = [json.loads(line) for line in done.out.splitlines()]
    types = [e["type"] for e in events]
    assert "RunStarted" in types and types.count("RunEnded") == 1
    assert "".join(e["text"] for e in events if e["type"] == "TextDelta") == "Answer in JSON mode."
    assert "".join(e["text"] for e in events if e["type"] == "ReasoningDelta") == "hmm"
    assert all(isinstance(e["at"], (int, float)) for e in events)


# --------------------------------------------------------------------------- failures


def test_401_is_one_line_and_exit_1(cli, loopback):
    srv = loopback([Turn(status=401, body={"error": {"message": "Invalid API Key"}})])
    done = cli.using(srv.base_url).run("-p", "hi")
    assert done.code == 1
    line = only_error_line(done)
    assert "401" in line and "Invalid API Key" in line
    assert len(srv.requests) == 1  # not retried
    assert_transcript_intact(done)


def test_429_that_clears_is_retried(cli, loopback):
    srv = loopback([Turn(status=429, headers={"Retry-After": "0"}), text_turn("after the wait")])
    done = cli.using(srv.base_url).run("-p", "hi")
    assert done.code == 0, done.err
    assert done.out == "after the wait\n"
    assert len(srv.requests) == 2
    assert_transcript_intact(done)


def test_stream_cut_midway_keeps_the_partial_answer(cli, loopback):
    events = [chunk(role="assistant", content=""), chunk("PARTIAL-"), chunk("ANSWER"), chunk(" never sent")]
    srv = loopback([Turn(events=events, cut_after=3)])
    done = cli.using(srv.base_url).run("-p", "hi")
    assert done.code == 1
    assert "PARTIAL-ANSWER" in done.out
    only_error_line(done)
    records = assert_transcript_intact(done)
    assert "PARTIAL-ANSWER" in json.dumps(records)


def test_a_malformed_chunk_is_skipped_with_one_warning_and_counted(cli, loopback):
    bad = "data: {not json\n\n"
    srv = loopback([Turn(events=[chunk(role="assistant", content=""), chunk("ok so far"), bad, chunk(" and on"), bad,
                                 chunk(" done", finish="stop")])] * 2)
    done = cli.using(srv.base_url).run("-p", "hi")
    assert done.code == 0 and done.out == "ok so far and on done\n"
    assert done.err_lines == ["warning: skipped a malformed chunk from provider 'openai': {not json"]
    assert_transcript_intact(done)
    events = [json.loads(line) for line in cli.run("-p", "hi", "--json").out.splitlines()]
    assert events[-1]["type"] == "RunEnded" and events[-1]["skipped_chunks"] == 2 and events[-1]["error"] is None


def test_malformed_chunks_in_a_row_are_one_line_and_exit_1(cli, loopback):
    srv = loopback([Turn(events=[chunk(role="assistant", content=""), chunk("ok so far")] + ["data: {not json\n\n"] * 5)])
    done = cli.using(srv.base_url).run("-p", "hi")
    assert done.code == 1
    assert "5 malformed chunks in a row" in done.err_lines[-1] and done.err_lines[-1].startswith("error: ")
    assert_transcript_intact(done)


def test_unreachable_host_is_one_line_and_exit_1(cli):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = cli.using(f"http://127.0.0.1:{port}/v1").run("-p", "hi")
    assert done.code == 1
    assert f"127.0.0.1:{port}" in only_error_line(done)
    assert_transcript_intact(done)


# --------------------------------------------------------------------------- usage and config errors


def test_bad_config_is_one_line_naming_the_field(cli, loopback):
    srv = loopback([text_turn("never")])
    cfg = cli.cwd / "bad.toml"
    cfg.write_text(f'[[providers]]\nname = "local"\nbaseUrl = "{srv.base_url}"\n\n'
                   '[[agents]]\nname = "a"\nprovider = "opencode"\nmodel = "m"\n')
    done = cli.run("--config", str(cfg), "-p", "hi")
    assert done.code == 2
    assert done.err_lines == [f"mrsmith: error: {cfg}: agents[0].provider: 'opencode' is not a configured provider"]
    assert done.out == "" and srv.requests == []


def test_default_config_file_error(cli):
    folder = cli.cwd.parent / "xdg" / "mrsmith"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text("[[agents]]\nname = 'a'\nprovider = 'p'\nmodel = 'm'\nmaxToolRounds = -1\n")
    done = cli.run("-p", "hi", env={"XDG_CONFIG_HOME": str(folder.parent)})
    assert done.code == 2
    (line,) = done.err_lines
    assert line.endswith("config.toml: agents[0].maxToolRounds: input should be greater than 0 (got -1)")


def test_no_model_anywhere_is_a_usage_error(cli):
    done = cli.run("-p", "hi")
    assert done.code == 2
    (line,) = done.err_lines
    assert "no agent configured" in line


def test_an_empty_config_given_is_named_and_a_folder_is_no_config(cli, tmp_path):
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    done = cli.run("--config", str(empty), "-p", "hi")
    assert done.code == 2
    assert done.err_lines == [f"mrsmith: error: {empty} is empty: add an agent ([[agents]] name, provider, model), "
                              "or pass --model"]
    done = cli.run("--config", str(tmp_path), "-p", "hi")
    assert (done.code, done.err_lines) == (2, [f"mrsmith: error: --config: {tmp_path}: a folder, not a config file"])


def test_empty_prompt_and_missing_file_are_usage_errors(cli):
    cli.using("http://127.0.0.1:9/v1")
    assert cli.run("-p", "  ").code == 2
    done = cli.run("-p", "hi", "-f", "missing.txt")
    assert (done.code, done.err_lines) == (2, ["mrsmith: error: -f missing.txt: no such file"])


def test_help_and_version_need_no_config_or_network(cli):
    env = {"XDG_CONFIG_HOME": "/nonexistent", "OPENAI_BASE_URL": "http://256.0.0.1/v1"}
    done = cli.run("--help", env=env)
    assert done.code == 0 and "usage: mrsmith" in done.out and "--allow SPEC" in done.out
    done = cli.run("--version", env=env)
    assert done.code == 0 and done.out.strip() == "mrsmith 0.1.0"


def test_session_listing_in_an_empty_folder(cli):
    done = cli.run("--list")  # the session commands themselves: tests/session/test_cli_sessions.py
    assert done.code == 0 and done.out.startswith("no sessions started in this folder")


# --------------------------------------------------------------------------- Ctrl-C


def test_sigint_mid_stream_exits_130_quickly(cli, loopback):
    # A few ticks, then the stream stays open (held until the test ends): only SIGINT can end the run.
    slow = held(Turn(events=[chunk(role="assistant", content="")] + [chunk("tick ") for _ in range(400)]),
                threading.Event(), at=5)
    srv = loopback([slow])
    proc = cli.using(srv.base_url).popen("-p", "count slowly")
    try:
        got = b""
        deadline = time.monotonic() + 90  # a safety net, not a budget
        while b"tick" not in got and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 0.1)
            if ready:
                got += os.read(proc.stdout.fileno(), 4096)
        assert b"tick" in got, proc.stderr.read() if proc.poll() is not None else "no output"
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=90)  # a safety net: the held stream would never end on its own
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 130
    err = proc.stderr.read().decode()
    assert "Traceback" not in err
    for path in cli.sessions.glob("*/transcript.jsonl"):
        for line in path.read_text().splitlines():
            json.loads(line)
