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
