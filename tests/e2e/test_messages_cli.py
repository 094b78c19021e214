"""The headless CLI on the Messages wire (`--protocol anthropic`) against the Messages loopback server."""

from __future__ import annotations

import json

import pytest

from loopback import LoopbackServer, Turn, text_turn, usage_chunk
from messages_loopback import MessagesServer, error_event, message_start, text_answer, tool_answer


@pytest.fixture
def messages():
    servers: list[MessagesServer] = []

    def start(turns=None, **kw) -> MessagesServer:
        srv = MessagesServer(turns, **kw).start()
        servers.append(srv)
        return srv

    yield start
    for srv in servers:
        srv.stop()


def on(srv, *argv: str) -> tuple[str, ...]:
    return ("--protocol", "anthropic", "--base-url", srv.base_url, "--api-key", "sk-ant-test", "--model",
            "claude-test", *argv)


def test_text_on_stdout_and_reasoning_on_stderr(cli, messages):
    srv = messages([text_answer("Hello from Messages.", thinking="the user greets me", signature="sig1")])
    done = cli.run(*on(srv, "-p", "say hello"))
    assert done.code == 0, done.err
    assert done.out == "Hello from Messages.\n"
    assert "the user greets me" in done.err and "the user greets me" not in done.out
    assert srv.paths == ["/v1/messages"] and srv.headers[0]["x-api-key"] == "sk-ant-test"
    (records,) = done.transcripts()
    assert records[0]["protocol"] == "anthropic"
    assert "sk-ant-test" not in json.dumps(records)


def test_a_tool_loop_sends_the_signed_thinking_back_unchanged(cli, messages):
    (cli.cwd / "a.txt").write_text("alpha\n")
    srv = messages([tool_answer("read_file", {"path": "a.txt"}, thinking="I need a.txt", signature="EqQBCkYI+/=="),
                    text_answer("It says alpha.", thinking="done now", signature="sig2")])
    done = cli.run(*on(srv, "-p", "what is in a.txt?"))
    assert done.code == 0, done.err
    assert done.out.strip().endswith("It says alpha.")
    second = srv.requests[1]["messages"]
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    assert second[1]["content"][0] == {"type": "thinking", "thinking": "I need a.txt", "signature": "EqQBCkYI+/=="}
    assert second[1]["content"][-1]["type"] == "tool_use"
    result = second[2]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_1" and "alpha" in result["content"]
    assert srv.requests[1]["tools"] and srv.requests[1]["max_tokens"] > 0


def test_an_error_event_exits_1_with_the_servers_message(cli, messages):
    srv = messages([Turn(events=[message_start(), error_event("api_error", "the cluster is on fire")], done=False)])
    done = cli.run(*on(srv, "-p", "hi"))
    assert done.code == 1
    assert "the cluster is on fire" in done.err and "Traceback" not in done.err


@pytest.mark.parametrize(("argv", "rule"), [
    (("--protocol", "deepseek", "--cache", "active"), "cache active: the deepseek protocol"),
    (("--protocol", "zai", "--cache", "active"), "cache active: the zai protocol"),
    (("--protocol", "openai", "--cache", "active"), "cache active: the openai protocol"),
    (("--protocol", "zai", "--effort", "high", "--thinking", "strip"), "effort high with thinking strip"),
    (("--protocol", "deepseek", "--effort", "low", "--thinking", "strip"), "effort low with thinking strip"),
    (("--protocol", "anthropic", "--effort", "max", "--thinking", "strip"), "effort max with thinking strip"),
    (("--protocol", "minimax", "--effort", "medium", "--thinking", "strip"), "effort medium with thinking strip"),
    (("--protocol", "anthropic", "--effort", "high", "--max-tokens", "8000"), "max tokens 8000"),
    (("--protocol", "anthropic", "--effort", "bogus"), "effort 'bogus' is not one the anthropic protocol takes"),
    (("--protocol", "zai", "--effort", "xhigh"), "effort 'xhigh' is not one the zai protocol takes"),
])
def test_each_forbidden_combination_exits_2_with_one_line_and_sends_nothing(cli, messages, argv, rule):
    srv = messages([text_answer("never")])
    done = cli.run("--base-url", srv.base_url, "--api-key", "k", "--model", "claude-sonnet-4-5", *argv, "-p", "hi")
    assert done.code == 2, done.err
    assert done.err_lines == [line for line in done.err_lines if line.startswith("mrsmith: error: ")]
    assert len(done.err_lines) == 1 and rule in done.err_lines[0]
    assert srv.requests == []


def test_json_usage_events_carry_the_cache_percentage(cli, messages):
    srv = messages([text_answer("ok", usage={"input_tokens": 100, "cache_read": 300, "cache_creation": 0})])
    done = cli.run(*on(srv, "--json", "-p", "hi"))
    assert done.code == 0, done.err
    usage = [json.loads(line)["usage"] for line in done.out.splitlines() if '"UsageReported"' in line]
    assert {"prompt_tokens": 400, "cached_tokens": 300, "cache_pct": 75.0}.items() <= usage[-1].items()


def test_json_cache_pct_is_null_when_the_server_does_not_say(cli, loopback):
    no_cache = Turn(events=[*text_turn("ok", usage=False).events,
                            {**usage_chunk(), "usage": {"prompt_tokens": 10, "completion_tokens": 2}}])
    srv = loopback([no_cache])
    done = cli.using(srv.base_url).run("--json", "-p", "hi")
    usage = [json.loads(line)["usage"] for line in done.out.splitlines() if '"UsageReported"' in line]
    assert usage[-1]["prompt_tokens"] == 10 and usage[-1]["cache_pct"] is None


def test_a_session_started_on_deepseek_goes_on_on_anthropic(cli, messages):
    chat = LoopbackServer([text_turn("deepseek says hi", reasoning="deepseek thinks")]).start()
    try:
        first = cli.run("--protocol", "deepseek", "--base-url", chat.base_url, "--api-key", "k", "-p", "first question")
    finally:
        chat.stop()
    assert first.code == 0, first.err
    assert chat.requests[0]["model"] == "deepseek-v4-pro"
    srv = messages([text_answer("claude goes on")])
    done = cli.run("-c", *on(srv, "-p", "second question"))
    assert done.code == 0, done.err
    assert "started on the deepseek protocol" in done.err and "Messages wire" in done.err
    sent = srv.requests[0]["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert sent[1]["content"] == [{"type": "text", "text": "deepseek says hi"}]  # its unsigned reasoning stays out
    assert "second question" in json.dumps(sent[2])
    (records,) = done.transcripts()
    assert records[0]["protocol"] == "deepseek"
    assert any(r["type"] == "AgentChanged" and r["protocol"] == "anthropic" for r in records)


def test_a_vendor_protocol_needs_only_a_key(cli, messages):
    srv = messages([text_answer("hi from minimax")])
    done = cli.run("--protocol", "minimax", "--base-url", srv.base_url, "-p", "hi",
                   env={"MRSMITH_MINIMAX_API_KEY": "mm-env-key"})
    assert done.code == 0, done.err
    assert srv.requests[0]["model"] == "MiniMax-M2.7" and srv.headers[0]["x-api-key"] == "mm-env-key"
    (records,) = done.transcripts()
    assert (records[0]["provider"], records[0]["protocol"]) == ("minimax", "minimax")
    assert "mm-env-key" not in json.dumps(records)


def test_a_forbidden_combination_in_the_config_file_exits_2_too(cli, tmp_path, messages):
    srv = messages([text_answer("never")])
    config = tmp_path / "config.toml"
    config.write_text(f'[[providers]]\nname = "ds"\nprotocol = "deepseek"\nbaseUrl = "{srv.base_url}"\napiKey = "k"\n\n'
                      '[[agents]]\nname = "a"\nprovider = "ds"\nmodel = "deepseek-v4-pro"\ncache = "active"\n')
    done = cli.run("--config", str(config), "-p", "hi")
    assert done.code == 2 and len(done.err_lines) == 1 and "cache active: the deepseek protocol" in done.err
    assert srv.requests == []
    bogus = config.read_text().replace('cache = "active"', 'reasoningEffort = "bogus"')
    config.write_text(bogus)
    done = cli.run("--config", str(config), "-p", "hi")
    assert done.code == 2 and "effort 'bogus' is not one the deepseek protocol takes" in done.err


def test_openais_key_is_never_sent_to_another_protocols_endpoint(cli, messages):
    srv = messages([text_answer("one"), text_answer("two")])
    openai_env = {"OPENAI_API_KEY": "sk-openai-not-for-anthropic", "OPENAI_BASE_URL": srv.base_url}
    first = cli.run("--protocol", "anthropic", "--model", "claude-test", "-p", "hi", env=openai_env)
    second = cli.run("--protocol", "anthropic", "--base-url", srv.base_url, "--model", "claude-test", "-p", "hi",
                     env={**openai_env, "MRSMITH_ANTHROPIC_API_KEY": "sk-ant-own"})
    assert first.code == 0 and second.code == 0, first.err + second.err
    assert "x-api-key" not in srv.headers[0] and "authorization" not in {k.lower() for k in srv.headers[0]}
    assert srv.headers[1]["x-api-key"] == "sk-ant-own"
    assert "sk-openai-not-for-anthropic" not in json.dumps(srv.headers)


@pytest.mark.parametrize(("stop", "said"), [
    ("refusal", "refused to answer"),
    ("model_context_window_exceeded", "context window is full"),
    ("pause_turn", "paused a long turn"),
    ("max_tokens", "cut at the output limit"),
])
def test_a_stop_reason_that_ends_the_answer_short_is_said_and_the_answer_kept(cli, messages, stop, said):
    srv = messages([text_answer("as far as I got", stop=stop)])
    done = cli.run(*on(srv, "-p", "hi"))
    assert done.code == 0, done.err
    assert done.out == "as far as I got\n" and said in done.err


def test_an_unknown_stop_reason_still_gives_the_answer(cli, messages):
    srv = messages([text_answer("fine", stop="brand_new_reason")])
    done = cli.run(*on(srv, "-p", "hi"))
    assert (done.code, done.out) == (0, "fine\n") and "Traceback" not in done.err


def test_a_token_budget_for_a_model_that_takes_only_adaptive_thinking_exits_2(cli, tmp_path, messages):
    srv = messages([text_answer("never")])
    config = tmp_path / "config.toml"
    config.write_text(f'[[providers]]\nname = "c"\nprotocol = "anthropic"\nbaseUrl = "{srv.base_url}"\napiKey = "k"\n\n'
                      '[[agents]]\nname = "a"\nprovider = "c"\nmodel = "claude-opus-4-7"\nthinkingStyle = "budget"\n')
    done = cli.run("--config", str(config), "--effort", "high", "-p", "hi")
    assert done.code == 2 and len(done.err_lines) == 1, done.err
    assert "claude-opus-4-7 takes only adaptive thinking" in done.err and srv.requests == []
