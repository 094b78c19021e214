"""terminal_text.clean: every control shown, nothing obeyed; \n and \t kept."""
from __future__ import annotations

import json

import pytest

from mrsmith_tui.security.terminal_text import clean, json_safe
from tests.security.corpus import ALL, ESCAPES, controls_in


@pytest.mark.parametrize("name", list(ESCAPES))
def test_each_escape_is_shown_not_obeyed(name):
    shown = clean(ESCAPES[name])
    assert controls_in(shown) == set(), repr(shown)
    assert shown  # something visible stands in for it


def test_visible_forms():
    assert clean("\x1b[2J") == "␛[2J"
    assert clean("\x1b]0;t\x07") == "␛]0;t␇"
    assert clean("\x9b2J") == "\\x9b2J"
    assert clean("a\u202eb") == "a\\u202eb"
    assert clean("line\r\nnext\tcol\n") == "line\nnext\tcol\n"
    assert clean("a\rb") == "a␍b"


def test_ordinary_text_is_returned_as_is():
    text = "héllo wörld — ✓ ✗ 👨‍👩‍👧 日本語 ﷺ\n\tindented"
    assert clean(text) is text


def test_json_safe_keeps_the_data_and_writes_no_control():
    line = json_safe(json.dumps({"t": ALL}, ensure_ascii=False))
    assert controls_in(line) == set()
    assert json.loads(line)["t"] == ALL


@pytest.mark.parametrize("ch", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"])
def test_zero_width_characters_are_shown(ch):
    shown = clean(f"pay{ch}pal")
    assert ch not in shown and shown == f"pay\\u{ord(ch):04x}pal"
    assert ch not in json_safe(f'"pay{ch}pal"')


def _every_match_by_the_full_pattern(text: str) -> str:
    """The reference: the full pattern alone, with no quick pre-check in front of it."""
    from mrsmith_tui.security.terminal_text import _find, _replace

    return _find().sub(_replace, text)


def test_the_quick_check_never_lets_through_what_the_full_pattern_replaces():
    """`clean` first scans for one character class (issue #26: 40 -> 400+ MB/s on plain text): over
    600 generated texts mixing every unsafe character, CR/LF pairs and joiners with pictographs and
    ordinary text, it gives exactly what the full pattern gives, and an untouched text is the same object."""
    import random

    from mrsmith_tui.security.terminal_text import is_clean

    rng = random.Random(26)
    pool = ["a", "é", " ", "\n", "\t", "\r", "\r\n", "\x1b", "\x00", "\x7f", "\x9b", "\u202e", "\u2066", "\u061c",
            "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "👨", "✓", "日本", "\ufe0f", "[2J", "—"]
    for _ in range(600):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 12)))
        expected = _every_match_by_the_full_pattern(text)
        assert clean(text) == expected, repr(text)
        assert is_clean(text) == (expected == text and "\r\n" not in text), repr(text)
    family = "👨\u200d👩\u200d👧"
    assert clean(family) is family
