"""The Messages assembler against what a hostile or broken server may send: hundreds of generated events.

Whatever arrives, it either assembles or raises a ProviderError (one line for the person): never
another exception, never text it was not sent, and the same stream cut at any byte gives the same answer."""

from __future__ import annotations

import json
import random

import pytest

from messages_loopback import MessagesServer, text_answer, tool_answer
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.history import UserEntry
from mrsmith_tui.provider.messages import MessagesProvider
from mrsmith_tui.provider.messages_assemble import MessagesAssembler
from mrsmith_tui.provider.types import ChatRequest, ProviderError, StreamDone

VALUES = [None, True, 0, -1, 2**70, 1.5, "", "x", "\ud800", [], [1, "a"], {}, {"type": "text"}, {"a": {"b": []}}]
TYPES = ["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta",
         "message_stop", "ping", "error", "unknown_event", "message"]
DELTAS = ["text_delta", "thinking_delta", "signature_delta", "input_json_delta", "citations_delta", "nonsense"]
BLOCKS = ["text", "thinking", "redacted_thinking", "tool_use", "server_tool_use", "image"]


def hostile_event(rng: random.Random) -> dict:
    kind = rng.choice(TYPES)
    event: dict = {"type": kind}
    for key in ("index", "message", "content_block", "delta", "usage", "error", "content", "stop_reason"):
        if rng.random() < 0.4:
            event[key] = rng.choice(VALUES)
    if kind == "content_block_start" and rng.random() < 0.7:
        event["index"] = rng.randrange(3)
        event["content_block"] = {"type": rng.choice(BLOCKS), "id": rng.choice(VALUES), "name": rng.choice(VALUES),
                                  "input": rng.choice(VALUES), "text": rng.choice(VALUES), "data": rng.choice(VALUES)}
    if kind == "content_block_delta" and rng.random() < 0.7:
        event["index"] = rng.randrange(3)
        event["delta"] = {"type": rng.choice(DELTAS), "text": rng.choice(VALUES), "thinking": rng.choice(VALUES),
                          "signature": rng.choice(VALUES), "partial_json": rng.choice(VALUES)}
    return event


@pytest.mark.parametrize("seed", range(300))
def test_generated_streams_assemble_or_fail_with_one_line(seed):
    rng = random.Random(seed)
    asm = MessagesAssembler("fuzz", ChatRequest(model="m", system_prompt="", entries=(UserEntry(text="q"),)))
    sent_text: list[str] = []
    try:
        for _ in range(rng.randrange(1, 30)):
            event = hostile_event(rng)
            if event.get("type") == "error":
                event.pop("error", None)  # an error event ends the stream on purpose; covered elsewhere
                event["type"] = "ping"
            sent_text.append(json.dumps(event, ensure_ascii=False))
            data = json.dumps(event) if rng.random() > 0.05 else "{broken"
            asm.feed_data(data, rng.choice(["message", str(event.get("type"))]))
        done = asm.finish()
    except ProviderError as error:
        assert "\n" not in error.message
        return
    assert isinstance(done, StreamDone)
    sent = "".join(sent_text) + "\ufffd"
    assert all(ch in sent for ch in done.content + done.reasoning)  # nothing it was not sent


@pytest.mark.parametrize("split", [1, 2, 3, 7, 13, 64, 4096])
def test_the_same_stream_cut_at_any_byte_gives_the_same_answer(split):
    turns = [tool_answer("read_file", {"path": "é/ü.py", "n": [1, 2]}, thinking="ünïcode 思考", signature="S1=="),
             text_answer("done ✓ — 完了", thinking="fine", signature="S2==")]
    for turn in turns:
        turn.split = split
    srv = MessagesServer(turns).start()
    try:
        p = MessagesProvider(name="c", base_url=srv.base_url, api_key="k", sleep=lambda s: None)
        request = ChatRequest(model="m", system_prompt="", entries=(UserEntry(text="q"),))
        first = list(p.stream(request, CancelToken()))[-1]
        second = list(p.stream(request, CancelToken()))[-1]
    finally:
        srv.stop()
    assert json.loads(first.tool_calls[0].arguments) == {"path": "é/ü.py", "n": [1, 2]}
    assert first.blocks[0].text == "ünïcode 思考" and first.blocks[0].signature == "S1=="
    assert second.content == "done ✓ — 完了"
