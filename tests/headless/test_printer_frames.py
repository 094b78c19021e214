"""The headless printer throttles the deltas it writes (the core emits every one): one write per frame."""

from __future__ import annotations

import io
import json

from mrsmith_tui import msgs
from mrsmith_tui.headless import HeadlessPrinter
from mrsmith_tui.security.redact import Redactor

KEY = "sk-UNIQUE-4b3c2d1e0f"
FOREVER = 3600.0  # one frame lasts the whole test: what it holds goes out with the next other Msg


def _deltas(n: int) -> list[msgs.Msg]:
    return [msgs.TextDelta(block_id="t1", text=str(i % 10)) for i in range(n)]


def test_json_lines_carry_a_fire_hose_in_a_few_lines_with_all_the_text():
    out = io.StringIO()
    printer = HeadlessPrinter(out, io.StringIO(), json_lines=True, interval=FOREVER)
    for m in [msgs.RunStarted(run_id="1"), *_deltas(1000), msgs.BlockEnded(block_id="t1", kind="text", text="…"), msgs.RunEnded(run_id="1")]:
        printer(m)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [x["type"] for x in lines] == ["RunStarted", "TextDelta", "TextDelta", "BlockEnded", "RunEnded"]
    assert "".join(x["text"] for x in lines if x["type"] == "TextDelta") == "".join(str(i % 10) for i in range(1000))


def test_interval_zero_writes_every_delta():
    out = io.StringIO()
    printer = HeadlessPrinter(out, io.StringIO(), json_lines=True, interval=0)
    for m in _deltas(5):
        printer(m)
    assert [json.loads(line)["text"] for line in out.getvalue().splitlines()] == list("01234")


def test_a_key_cut_across_held_deltas_is_still_redacted():
    out = io.StringIO()
    printer = HeadlessPrinter(out, io.StringIO(), redactor=Redactor([KEY]), interval=FOREVER)
    for text in ["a sk-", "UNI", "QUE-4b3c", "2d1e0f b"]:
        printer(msgs.TextDelta(block_id="t1", text=text))
    printer(msgs.BlockEnded(block_id="t1", kind="text", text=""))
    assert out.getvalue() == "a [redacted] b\n"


def test_held_text_is_written_before_an_error_line_and_on_flush():
    out, err = io.StringIO(), io.StringIO()
    printer = HeadlessPrinter(out, err, interval=FOREVER)
    printer(msgs.TextDelta(block_id="t1", text="Hel"))  # the first goes at once
    printer(msgs.TextDelta(block_id="t1", text="lo"))
    assert out.getvalue() == "Hel"
    printer.error_line("cut")
    assert out.getvalue() == "Hello" and err.getvalue() == "error: cut\n"
    printer(msgs.TextDelta(block_id="t1", text="!"))
    printer.flush()
    assert out.getvalue() == "Hello!"
