"""Rough edges a script or a small local model hits, tried as a new user would: the real CLI
(a subprocess) against the loopback server."""

from __future__ import annotations

import json
import subprocess

from loopback import Turn, chunk, text_turn, tool_turn, usage_chunk


def jsonl(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_stdin_without_a_terminal_is_the_prompt_and_an_empty_one_is_exit_2(cli, loopback):
    done = cli.run()  # stdin is /dev/null: no terminal, nothing to read
    assert (done.code, done.out) == (2, "")
    assert done.err_lines == ["mrsmith: error: no prompt (stdin was empty; give -p PROMPT or pipe a prompt in)"]
    srv = loopback([text_turn("read it")])
    done = cli.using(srv.base_url).run(input="what is in stdin?\n")
    assert (done.code, done.out) == (0, "read it\n")
    assert srv.requests[0]["messages"][-1]["content"] == "what is in stdin?"


def test_a_reader_that_goes_away_ends_the_listing_quietly(cli, loopback):
    srv = loopback([text_turn("ok")])
    for i in range(3):
        assert cli.using(srv.base_url).run("-p", f"session {i}").code == 0
    listing = subprocess.Popen(cli.args("--list"), cwd=cli.cwd, env=cli.env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    listing.stdout.close()  # like `| head -0`: the reader is gone before the first line
    err = listing.stderr.read().decode()
    assert listing.wait(timeout=100) == 0 and err == ""


def test_the_round_cap_is_exit_3_with_the_reason_and_how_to_go_on(cli, loopback, tmp_path):
    (cli.cwd / "a.txt").write_text("x\n")
    config = tmp_path / "config.toml"
    url = loopback([tool_turn("read_file", {"path": "a.txt"})]).base_url
    config.write_text(f'defaultAgent = "a"\n[[providers]]\nname = "loop"\nbaseUrl = "{url}"\n'
                      '[[agents]]\nname = "a"\nprovider = "loop"\nmodel = "m"\nmaxToolRounds = 2\n'
                      'tools = ["read_file"]\n')
    done = cli.run("--config", str(config), "-p", "loop forever")
    assert done.code == 3
    assert done.err_lines[-1] == "stopped at maxToolRounds; continue where it stopped with: mrsmith -c -p continue"
    events = jsonl(cli.run("--config", str(config), "-p", "loop forever", "--json").out)
    assert events[-1]["type"] == "RunEnded" and events[-1]["reason"] == "max_rounds"
    records = done.transcripts()[0]  # the first run's (sorted by id, which is by time)
    assert records[-1]["type"] == "RunEnded" and records[-1]["reason"] == "max_rounds"


def test_an_answer_cut_at_the_output_limit_says_so(cli, loopback):
    srv = loopback([Turn(events=[chunk(role="assistant", content=""), chunk("The first half of"),
                                 chunk(finish="length"), usage_chunk(prompt=50, completion=128)])])
    done = cli.using(srv.base_url).run("-p", "write a lot")
    assert done.code == 0 and done.out == "The first half of\n"
    assert "warning: answer cut at the output limit (max_tokens 128)" in done.err_lines


def test_a_refusal_is_shown_as_the_answer(cli, loopback):
    srv = loopback([Turn(events=[chunk(role="assistant", content=None),
                                 {"choices": [{"index": 0, "delta": {"refusal": "I can't help with that."},
                                               "finish_reason": "stop"}]}])])
    done = cli.using(srv.base_url).run("-p", "something bad")
    assert (done.code, done.out) == (0, "I can't help with that.\n")


def test_a_vllm_error_object_mid_stream_is_exit_1_with_its_message(cli, loopback):
    srv = loopback([Turn(events=[chunk(role="assistant", content=""), chunk("par"),
                                 {"object": "error", "message": "engine dead: CUDA out of memory", "type": "InternalError"}])])
    done = cli.using(srv.base_url).run("-p", "hi")
    assert done.code == 1
    assert done.err_lines[-1] == "error: provider 'openai' sent an error: engine dead: CUDA out of memory"


def test_retries_are_announced_on_stderr(cli, loopback):
    srv = loopback([Turn(status=429, body={"error": {"message": "slow down"}}, headers={"Retry-After": "0.1"}),
                    text_turn("after the wait")])
    done = cli.using(srv.base_url).run("-p", "hi")
    assert (done.code, done.out) == (0, "after the wait\n")
    assert "retrying in 0.1 s (429 from 127.0.0.1)" in done.err_lines


def test_a_headless_refusal_names_the_flags_that_allow_it(cli, loopback):
    srv = loopback([tool_turn("write_file", {"path": "out.txt", "content": "x"}), text_turn("could not")])
    done = cli.using(srv.base_url).run("-p", "write it")
    assert done.code == 0 and not (cli.cwd / "out.txt").exists()
    assert done.err_lines[-1] == ("  ✗ write_file refused: not approved (writes a file: write_file creates out.txt); "
                                  "rerun with --allow 'write_file' or --yes")


def test_a_context_overflow_is_trimmed_and_retried_once(cli, loopback):
    too_long = {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                          "type": "exceed_context_size_error", "n_prompt_tokens": 5000, "n_ctx": 4096}}
    srv = loopback([text_turn("first answer " * 200), Turn(status=400, body=too_long), text_turn("fits now")])
    assert cli.using(srv.base_url).run("-p", "a long first question " * 300).code == 0
    done = cli.run("-c", "-p", "second")
    assert (done.code, done.out) == (0, "fits now\n")
    assert any("did not fit the model's 4,096 tokens" in line for line in done.err_lines)
    retried = srv.requests[2]["messages"]
    assert retried[-1]["content"] == "second" and len(json.dumps(retried)) < len(json.dumps(srv.requests[1]["messages"]))


def test_a_context_overflow_that_still_does_not_fit_is_one_line(cli, loopback):
    too_long = {"error": {"message": "This model's maximum context length is 8192 tokens. However, your messages "
                                     "resulted in 9000 tokens.", "code": "context_length_exceeded"}}
    srv = loopback([Turn(status=400, body=too_long)])
    done = cli.using(srv.base_url).run("-p", "hi")
    assert done.code == 1 and len(srv.requests) == 2
    assert done.err_lines[-1].startswith("error: the request does not fit the model's context (8,192 tokens)")


def test_resuming_a_session_of_another_folder_says_whose_it_is_and_needs_the_flag(cli, loopback, tmp_path):
    srv = loopback([text_turn("one"), text_turn("two")])
    assert cli.using(srv.base_url).run("-p", "first").code == 0
    (session_id,) = [p.name for p in cli.sessions.iterdir()]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cli.cwd, project = elsewhere, cli.cwd
    done = cli.run("--resume", session_id[:13], "-p", "go on")
    assert done.code == 2 and len(srv.requests) == 1
    assert done.err_lines == [f"mrsmith: error: session {session_id} belongs to {project}, not this folder ({elsewhere}); "
                              f"run mrsmith there, or add --other-folder to go on with it (it works in {project})"]
    done = cli.run("--resume", session_id[:13], "--other-folder", "-p", "go on")
    assert (done.code, done.out) == (0, "two\n")
    assert f"this session belongs to {project}: working there" in done.err_lines
    assert f"Working directory: {project}" in srv.requests[1]["messages"][0]["content"]
    assert cli.run("--other-folder", "-p", "x").code == 2


def test_a_200_html_page_is_exit_1_and_an_error_not_an_empty_answer(cli, loopback):
    srv = loopback([Turn(body="<html><body>Welcome to nginx!</body></html>", content_type="text/html")])
    done = cli.using(srv.base_url).run("-p", "hi")
    assert (done.code, done.out) == (1, "")
    assert done.err_lines[-1] == ("error: provider 'openai' answered 200 text/html, not an event stream: "
                                  "<html><body>Welcome to nginx!</body></html>")
    ended = jsonl(cli.using(srv.base_url).run("-p", "hi", "--json").out)[-1]
    assert ended["type"] == "RunEnded" and "not an event stream" in ended["error"]
