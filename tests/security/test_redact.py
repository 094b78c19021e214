"""Redactor and StreamRedactor: keys out of text, also when a stream cuts one in pieces."""
from __future__ import annotations

from mrsmith_tui.security.redact import REDACTED, Redactor, StreamRedactor, map_strings


def test_every_secret_and_only_real_ones():
    r = Redactor(["sk-UNIQUE-123456", "x", "none", "", None])
    assert r.redact("key sk-UNIQUE-123456 and x none") == f"key {REDACTED} and x none"
    assert r.secrets == {"sk-UNIQUE-123456"}


def test_longest_secret_wins():
    r = Redactor(["abcdefgh", "abcdefgh-ijklmnop"])
    assert r.redact("abcdefgh-ijklmnop") == REDACTED


def test_split_across_pieces():
    r = Redactor(["sk-UNIQUE-123456"])
    s = StreamRedactor(r)
    pieces = ["the key is s", "k-UNI", "QUE-12", "3456", " ok s"]
    out = "".join(s.feed("t", p) for p in pieces) + s.flush("t")
    assert out == f"the key is {REDACTED} ok s"
    # one character at a time
    s = StreamRedactor(r)
    out = "".join(s.feed("t", c) for c in "xx sk-UNIQUE-123456 yy") + s.flush("t")
    assert out == f"xx {REDACTED} yy"


def test_streams_are_kept_apart():
    r = Redactor(["sk-UNIQUE-123456"])
    s = StreamRedactor(r)
    assert s.feed("a", "sk-UNI") == "" and s.feed("b", "QUE-123456") == "QUE-123456"
    assert s.flush("a") == "sk-UNI"


def test_map_strings_over_dataclasses_and_containers():
    from mrsmith_tui import msgs

    r = Redactor(["sk-UNIQUE-123456"])
    m = msgs.ToolCallFinished(call_id="c", name="shell", ok=True, result="got sk-UNIQUE-123456")
    out = r.redact_value(m)
    assert out.result == f"got {REDACTED}" and out.call_id == "c"
    q = msgs.QuestionRequested(request_id="r", questions=(msgs.Question(question="sk-UNIQUE-123456?"),))
    assert r.redact_value(q).questions[0].question == f"{REDACTED}?"
    assert map_strings({"a": ["x", ("y",)]}, str.upper) == {"a": ["X", ("Y",)]}


def test_a_key_in_another_case_or_percent_encoded_is_redacted():
    r = Redactor(["sk-UNIQUE-4b3c2d1e0f"])
    assert r.redact("SK-UNIQUE-4B3C2D1E0F and sk%2DUNIQUE%2D4b3c2d1e0f") == "[redacted] and [redacted]"


def test_json_nested_past_the_recursion_limit_is_redacted_whole_not_a_crash():
    r = Redactor(["sk-UNIQUE-123456"])
    escaped_key = "\\u0073k-UNIQUE-123456"  # the key spelled with a JSON escape: only decoding finds it
    deep = '{"a":' * 20_000 + f'"{escaped_key}"' + "}" * 20_000
    assert r.redact(deep) == REDACTED


def test_what_a_held_tail_lets_out_is_redacted_again_as_a_whole():
    # The trailing "s" could begin the key, so it is held; what goes out is JSON that decodes to the key.
    s = StreamRedactor(Redactor(["sk-UNIQUE-4b3c2d1e0f"]))
    out = s.feed("c1", '{"a": "\\u0073k-UNIQUE-4b3c2d1e0f"}s')
    assert "UNIQUE" not in out and REDACTED in out
    assert s.flush("c1") == "s"
