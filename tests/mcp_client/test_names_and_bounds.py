"""What a server says is untrusted: names made valid and unique, descriptions and schemas cleaned and
bounded, a huge message line dropped as it streams, and the approval specs' server prefix."""

from __future__ import annotations

import json
import random
import re
from types import SimpleNamespace

import mcp_types as types

from mrsmith_tui.mcp.listing import MAX_TOOLS, read_listing
from mrsmith_tui.mcp.names import server_key, server_keys, tool_names
from mrsmith_tui.mcp.stdio_transport import LineReader
from mrsmith_tui.tools.approval import PolicyApprover, spec_matches
from mrsmith_tui.tools.base import ApprovalQuery

VALID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
ALPHABET = "abcXYZ019_-.:/ é\x1b\x00🙂__"


def _random_name(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 90)))


def test_generated_tool_names_are_valid_unique_and_stable():
    rng = random.Random(24)
    for _ in range(300):
        servers = [_random_name(rng) for _ in range(rng.randint(1, 4))]
        keys = server_keys(servers)
        assert len(set(keys.values())) == len(set(servers))
        for key in keys.values():
            assert "__" not in key and ":" not in key and key and len(key) <= 24
            tools = [_random_name(rng) for _ in range(rng.randint(0, 12))]
            names = tool_names(key, tools)
            assert len(set(names.values())) == len(set(tools))
            for name in names.values():
                assert VALID.match(name) and name.startswith(f"mcp__{key}__"), name
                assert spec_matches(f"mcp__{key}", name)
            assert tool_names(key, list(reversed(tools))) == names  # the same names whatever the order


def test_collisions_get_a_digest_suffix_and_plain_names_stay():
    names = tool_names("demo", ["get.item", "get_item", "echo"])
    assert names["echo"] == "mcp__demo__echo"
    assert names["get.item"] == "mcp__demo__get_item"  # sorted first, so it keeps the plain name
    assert re.fullmatch(r"mcp__demo__get_item_[0-9a-f]{6}", names["get_item"])
    assert server_key("my server: prod") == "my_server_prod"


def test_the_server_prefix_spec_covers_exactly_that_servers_tools():
    assert spec_matches("mcp__demo", "mcp__demo__echo")
    assert spec_matches("mcp__demo__echo", "mcp__demo__echo")
    assert not spec_matches("mcp__demo__echo", "mcp__demo__echo_2")
    assert not spec_matches("mcp__demo", "mcp__demo2__echo")  # another server whose name starts alike
    assert not spec_matches("mcp__de", "mcp__demo__echo")
    assert not spec_matches("mcp__demo__get", "mcp__demo__get__all")  # a tool is not a prefix of another
    assert not spec_matches("mcp__demo", "mcp__demo__")
    assert not spec_matches("mcp", "mcp__demo__echo") and not spec_matches("shell", "mcp__demo__echo")


def test_the_headless_refusal_names_the_spec():
    query = ApprovalQuery(tool="mcp__demo__write_note", arguments="{}", spec="mcp__demo__write_note", rule="other",
                          reason="MCP tool write_note of server demo is not marked read-only (mcp__demo allows every tool of that server)")
    line = PolicyApprover().refusal(query)
    assert "rerun with --allow 'mcp__demo__write_note' or --yes" in line and "mcp__demo allows" in line
    assert PolicyApprover(allow=["mcp__demo"]).approve(query) == "yes"
    assert PolicyApprover(allow=["mcp__demo__echo"]).approve(query) == "no"


def _tool(name: str, schema: object = None, description: str = "d", read_only: bool | None = None):
    return SimpleNamespace(name=name, description=description, title=None,
                           input_schema=schema if schema is not None else {"type": "object", "properties": {}},
                           annotations=SimpleNamespace(read_only_hint=read_only))


def test_thousands_of_tools_cost_a_bounded_listing_and_say_so():
    listing = read_listing([_tool(f"t{i}") for i in range(5000)])
    assert len(listing.tools) == MAX_TOOLS and listing.note.startswith(f"{5000 - MAX_TOOLS} tools left out")


def test_a_schema_bomb_is_left_out_and_said():
    deep: dict = {"type": "object"}
    node = deep
    for _ in range(50):
        node["properties"] = {"x": {"type": "object"}}
        node = node["properties"]["x"]
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "x" * 100} for i in range(400)}}
    listing = read_listing([_tool("deep", deep), _tool("wide", wide), _tool("fine")])
    assert [t.name for t in listing.tools] == ["fine"]
    assert "deep: schema nested deeper than 12" in listing.note and "wide: schema of" in listing.note


def test_descriptions_lose_control_sequences_and_are_bounded():
    listing = read_listing([_tool("a", description="\x1b]0;title\x07ok \x1b[31mred\x1b[0m\u202e" + "y" * 5000, read_only=True)])
    [t] = listing.tools
    assert t.description.startswith("ok red") and "\x1b" not in t.description and len(t.description) <= 2000
    assert t.read_only


def _response(request_id: int, text: str) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": text}]}}).encode()


def test_a_line_over_the_limit_is_dropped_as_it_streams_and_answers_its_request_with_an_error():
    reader = LineReader(limit=1024 * 1024)
    big = _response(7, "x" * (5 * 1024 * 1024)) + b"\n" + _response(8, "after") + b"\n"
    out = []
    for i in range(0, len(big), 65536):
        out += reader.feed(big[i : i + 65536])
        assert len(reader._buf) <= 1024 * 1024 + 65536  # never the whole line
    first, second = out
    assert isinstance(first.message, types.JSONRPCError) and first.message.id == 7
    assert "over the limit of 1 MiB" in first.message.error.message
    assert isinstance(second.message, types.JSONRPCResponse) and second.message.id == 8


def test_an_oversized_line_whose_id_comes_last_still_finds_its_request():
    reader = LineReader(limit=1024)
    line = b'{"result": {"content": [{"type": "text", "text": "' + b"y" * 10_000 + b'"}]}, "jsonrpc": "2.0", "id": "abc"}\n'
    [item] = reader.feed(line)
    assert item.message.id == "abc"


def test_an_oversized_line_without_an_id_is_an_exception_value():
    reader = LineReader(limit=1024)
    [item] = reader.feed(b"z" * 5000 + b"\n")
    assert isinstance(item, ValueError)


def test_split_messages_and_blank_lines():
    reader = LineReader()
    data = _response(1, "a") + b"\n\n" + _response(2, "b") + b"\n"
    out = [m for i in range(len(data)) for m in reader.feed(data[i : i + 1])]
    assert [m.message.id for m in out] == [1, 2]
