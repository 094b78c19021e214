"""The context size from the server, and what a small context gets sent."""

from __future__ import annotations

import json

from loopback import text_turn
from mrsmith_tui import msgs
from mrsmith_tui.agents.compose import compose_session
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.config.schema import AgentConfig, Config, ProviderConfig
from mrsmith_tui.core.system_prompt import agents_md_files, build_system_prompt
from mrsmith_tui.core.usage_report import usage_report

LLAMA_PROPS = {"/props": {"default_generation_settings": {"n_ctx": 4096}}}


def session_on(srv, tmp_path, **agent_kw):
    config = Config(providers=[ProviderConfig(name="local", base_url=srv.base_url)],
                    agents=[AgentConfig(name="a", provider="local", model="m", **agent_kw)])
    sink = msgs.ListSink()
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    session = compose_session(config=config, cwd=work, sink=sink, approver=None, persist=False)
    return session, sink


def test_the_servers_context_size_wins_and_a_small_one_sends_little(loopback, tmp_path):
    srv = loopback([text_turn("ok")], get_routes=LLAMA_PROPS)
    session, sink = session_on(srv, tmp_path, max_context_tokens=128_000)
    session.wait_for_context_size()  # the run waits at most a few seconds; a loaded machine may need more
    session.run("hi", CancelToken())
    assert session.ledger.max_context_tokens == 4096
    assert session.conversation.context_builder == "sliding"  # a small context keeps the newest turns
    assert any(isinstance(m, msgs.UsageReported) and m.context_limit == 4096 and m.usage.prompt_tokens == 0
               for m in sink.msgs)  # the gauge learns the size before any usage
    sent = srv.requests[0]
    names = [t["function"]["name"] for t in sent["tools"]]
    assert names == ["shell", "read_file", "write_file", "list_dir", "glob", "edit"]
    assert all("description" not in json.dumps(t["function"]["parameters"]) for t in sent["tools"])
    assert "# Skills" not in sent["messages"][0]["content"]
    cost = (len(sent["messages"][0]["content"]) + len(json.dumps(sent["tools"]))) / 4
    assert cost < 0.3 * 4096
    report = usage_report(session.ledger)
    assert "of 4,096 tokens" in report and "size from the server (llama.cpp /props n_ctx)" in report
    prompt_line = next(line for line in report.splitlines() if line.startswith("Prompt"))
    assert "6 tool schemas" in prompt_line and "% of the context" in prompt_line
    session.close()


def test_without_a_word_from_the_server_the_config_or_the_default_stands(loopback, tmp_path):
    srv = loopback([text_turn("ok")])
    session, _ = session_on(srv, tmp_path, max_context_tokens=32_000)
    session.wait_for_context_size()
    session.run("hi", CancelToken())
    assert session.ledger.max_context_tokens == 32_000
    assert "size from config (maxContextTokens)" in usage_report(session.ledger)
    assert len(srv.requests[0]["tools"]) > 6 and "# Skills" in srv.requests[0]["messages"][0]["content"]
    session.close()
    default, _ = session_on(srv, tmp_path)
    default.wait_for_context_size()
    assert "of 128,000 tokens" in usage_report(default.ledger) and "size from default" in usage_report(default.ledger)
    default.close()


def test_agents_md_from_the_repository_root_down_to_the_folder_nearest_last(tmp_path):
    repo = tmp_path / "repo"
    deep = repo / "pkg" / "sub"
    deep.mkdir(parents=True)
    (repo / ".git").mkdir()
    (tmp_path / "AGENTS.md").write_text("outside the repo: never read")
    (repo / "AGENTS.md").write_text("root rules")
    (repo / "pkg" / "AGENTS.md").write_text("package rules")
    (deep / "AGENTS.md").write_text("nearest rules")
    assert agents_md_files(deep) == [repo / "AGENTS.md", repo / "pkg" / "AGENTS.md", deep / "AGENTS.md"]
    agent = AgentConfig(name="a", provider="p", model="m")
    text = build_system_prompt(agent, deep)
    assert text.index("root rules") < text.index("package rules") < text.index("nearest rules")
    assert "never read" not in text and "## pkg/sub/AGENTS.md" in text
    alone = tmp_path / "no-repo"
    alone.mkdir()
    (alone / "AGENTS.md").write_text("just here")
    assert agents_md_files(alone) == [alone / "AGENTS.md"]
