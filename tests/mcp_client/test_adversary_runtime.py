"""Regressions from the adversary's report against #24 (runtime): listings redacted, a hung server never
holds a headless run, an unreadable line answers its request at once, a broken untrusted server is left
off."""

from __future__ import annotations

import json
import os
from types import SimpleNamespace

import mcp_types as types

from mrsmith_tui.agents import mcp_parts
from mrsmith_tui.mcp.listing import read_listing
from mrsmith_tui.mcp.names import tool_names
from mrsmith_tui.mcp.stdio_transport import LineReader
from mrsmith_tui.security.redact import PROCESS

from .servers import Recorder, hub_for

SECRET = "adv3-tokval-AAAA1111BBBB2222"


def test_tool_names_descriptions_and_schemas_are_redacted(monkeypatch):  # adv 3
    PROCESS.add(SECRET)
    leaky = SimpleNamespace(name=f"echo_{SECRET}", description=f"uses {SECRET}", annotations=None,
                            input_schema={"type": "object", "properties": {SECRET: {"description": SECRET,
                                                                                    "enum": [SECRET]}}})
    [info] = read_listing([leaky]).tools
    assert SECRET not in info.name + info.description + json.dumps(info.schema)
    assert info.original == f"echo_{SECRET}"  # the call still uses the server's own name
    assert not any("AAAA1111" in n for n in tool_names("h", [info.original]).values())


def test_a_line_the_parser_cannot_read_answers_its_request_at_once():  # adv 10
    deep = "[" * 300 + "]" * 300
    line = f'{{"jsonrpc":"2.0","id":7,"result":{{"content":[],"structuredContent":{{"x":{deep}}}}}}}\n'.encode()
    [message] = LineReader().feed(line)
    assert not isinstance(message, Exception)
    assert isinstance(message.message, types.JSONRPCError) and message.message.id == 7
    assert "could not be read" in message.message.error.message
    [ok] = LineReader().feed(b'{"jsonrpc":"2.0","id":8,"result":{}}\n')
    assert isinstance(ok.message, types.JSONRPCResponse)


def test_headless_never_waits_out_a_server_that_never_answers_initialize(tmp_path, monkeypatch):  # adv 8
    monkeypatch.setattr(mcp_parts, "HEADLESS_START_GRACE", 0.3)
    with hub_for(tmp_path / "p", {"mute": {"command": "sleep", "args": ["60"], "startupTimeoutSec": 600}}, wait=0) as servers:
        sink = Recorder()
        mcp_parts.start_mcp(servers, sink, [], wait=True)  # returns after the grace, not the 600 s
        assert servers.statuses()[0].state == "starting"
        [note] = sink.warnings("mcp")
        assert "mute still starting: left out of this request" in note


def test_an_untrusted_server_with_a_config_error_is_left_off_with_its_transport(tmp_path, monkeypatch):  # adv 16
    monkeypatch.delenv("NOPE_UNSET", raising=False)
    with hub_for(tmp_path / "p", {"bad": {"url": "${NOPE_UNSET}"}, "off": {"command": "/nonexistent"}}, mode="stored") as servers:
        status, off = servers.statuses()
        assert status.state == "untrusted" and status.transport == "http"
        [line] = servers.sink.warnings("mcp-untrusted")
        assert "bad, off (.mcp.json) left off" in line
        assert off.log and not os.path.exists(off.log)  # adv 5: a server never started leaves nothing on disk
