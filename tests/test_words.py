"""The one helper for counted nouns (mrsmith_tui.words)."""

from __future__ import annotations

import pytest

from mrsmith_tui.words import counted


@pytest.mark.parametrize(("n", "noun", "plural", "said"), [
    (0, "line", "", "0 lines"), (1, "line", "", "1 line"), (2, "byte", "", "2 bytes"),
    (1, "entry", "entries", "1 entry"), (3, "entry", "entries", "3 entries"),
])
def test_counted(n, noun, plural, said):
    assert counted(n, noun, plural) == said
