"""MCP end to end: the real CLI, the scripted loopback model and a real SDK server over stdio. The first
request's tools carry the server's tools with their schemas; the model calls them; the results (or the
refusals naming the spec) are in the next request. An untrusted project server never starts headless."""

from __future__ import annotations

import json
import sys

from loopback import text_turn, tool_calls_turn
from tests.mcp_client.servers import FIXTURE


def _project(cli, mark):
    entry = {"command": sys.executable, "args": [str(FIXTURE), "stdio"], "env": {"FIXTURE_MARK": str(mark)}}
    (cli.cwd / ".mcp.json").write_text(json.dumps({"mcpServers": {"demo": entry}}))


def _turns():
    return [tool_calls_turn([("mcp__demo__echo", {"text": "hi"}), ("mcp__demo__write_note", {"text": "x"})]), text_turn("done")]


# The server must be ready for the first request: headless waits for it as long as it takes (a safety net),
# not the default 5 s, which a loaded machine can spend starting the SDK's server.
READY = {"MRSMITH_MCP_START_GRACE": "90"}


def _results(request) -> dict[str, str]:
    return {m["tool_call_id"]: m["content"] for m in request["messages"] if m["role"] == "tool"}


def test_the_model_sees_and_calls_mcp_tools_and_a_writing_tool_is_refused_with_its_spec(cli, loopback, tmp_path):
    _project(cli, tmp_path / "mark")
    srv = loopback(_turns())
    done = cli.using(srv.base_url).run("-p", "use the tools", "--mcp-trust", "--allow", "mcp__demo__echo", "--json", env=READY)
    assert done.code == 0, done.err
    offered = {t["function"]["name"]: t["function"] for t in srv.requests[0]["tools"]}
    assert offered["mcp__demo__echo"]["parameters"]["required"] == ["text"]
    assert "Echo the text back." in offered["mcp__demo__echo"]["description"]
    results = list(_results(srv.requests[1]).values())
    assert results[0] == "echo: hi"
    assert "rerun with --allow 'mcp__demo__write_note' or --yes" in results[1]
    events = [json.loads(line) for line in done.out.splitlines()]
    changes = [e for e in events if e["type"] == "McpServerChanged"]
    assert [c["state"] for c in changes] == ["starting", "ready"] and changes[-1]["tools"] >= 10
    transcript = [r["type"] for t in done.transcripts() for r in t]
    assert "McpServerChanged" not in transcript  # a state, not a record of the conversation


def test_allow_with_the_server_prefix_runs_every_tool_of_that_server(cli, loopback, tmp_path):
    _project(cli, tmp_path / "mark")
    srv = loopback(_turns())
    done = cli.using(srv.base_url).run("-p", "use the tools", "--mcp-trust", "--allow", "mcp__demo", env=READY)
    assert done.code == 0, done.err
    assert list(_results(srv.requests[1]).values()) == ["echo: hi", "wrote 1 characters"]


def test_an_untrusted_project_server_never_starts_headless_and_one_line_says_so(cli, loopback, tmp_path):
    _project(cli, tmp_path / "mark")
    srv = loopback([text_turn("no tools")])
    done = cli.using(srv.base_url).run("-p", "hello", "--allow", "mcp__demo")
    assert done.code == 0, done.err
    assert not (tmp_path / "mark").exists()
    assert not [t for t in srv.requests[0]["tools"] if t["function"]["name"].startswith("mcp__")]
    [line] = [e for e in done.err_lines if "left off" in e]
    assert "demo (.mcp.json)" in line and "--mcp-trust" in line


def test_mcp_list_prints_states_and_tools_and_fails_when_a_server_failed(cli, tmp_path):
    servers = {"demo": {"command": sys.executable, "args": [str(FIXTURE), "stdio"]},
               "broken": {"command": str(tmp_path / "no-such-server")}}
    (cli.cwd / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    untrusted = cli.run("mcp", "list")
    assert untrusted.code == 0 and "demo  untrusted" in untrusted.out and "left off" in untrusted.err
    done = cli.run("mcp", "list", "--mcp-trust")
    assert done.code == 1, done.err
    assert "demo  ready  project · stdio · 11 tools" in done.out
    assert "  mcp__demo__echo (read-only)  [MCP server demo] Echo the text back." in done.out
    assert "broken  failed" in done.out and f"cannot start: no such program {tmp_path / 'no-such-server'}" in done.out
    bad = cli.run("mcp")
    assert bad.code == 2 and bad.err.strip() == "mrsmith: error: mrsmith mcp: say `mrsmith mcp list`"
