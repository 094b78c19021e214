"""A wide table of theme-file values, good and bad, each with what `tui.theme_schema` makes of it: the
Theme's fields, or the one line naming the field. The expected column was written by the pydantic model
the themes were checked with before (strict: TOML has real types), so the reading and the wording
stay; the themes load before the first frame, and pydantic no longer does (#26).

Regenerate (only on a deliberate change): `python tests/tui/test_theme_table.py > tests/tui/theme_table.txt`.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from mrsmith_tui.tui.theme_schema import FIELDS, ThemeFileError, theme_fields

TABLE = Path(__file__).with_name("theme_table.txt")
VALUES: list[Any] = [0, 1, -1, 0.5, 1.5, -0.1, True, False, None, "", " ", "x", "#fff", "red", "blurple", "Bad Name",
                     "ok-name", {}, {"a": "red"}, {"Foo Bar": "red"}, {"a": ""}, {"a": 1}, {"a": " "}, [], ["#fff"]]
BASE = {"name": "x", "primary": "#fff"}


def rows() -> list[tuple[str, dict[str, Any]]]:
    out = [(f"{f}={v!r}", {**BASE, f: v}) for f, v in itertools.product([*FIELDS, "bogus"], VALUES)]
    out += [(f"without {f}", {k: v for k, v in BASE.items() if k != f}) for f in BASE]
    out += [("only an unknown key", {"bogus": 1}), ("a bad value and an unknown key", {"primary": 1, "bogus": 2})]
    return out


def outcome(data: dict[str, Any]) -> str:
    try:
        return "ok " + json.dumps(theme_fields(data), sort_keys=True)
    except ThemeFileError as e:
        return f"error {e}"


def test_every_row_reads_as_before():
    expected = dict(line.split("\t", 1) for line in TABLE.read_text(encoding="utf-8").splitlines())
    got = {name: outcome(data) for name, data in rows()}
    assert len(got) == len(expected) > 400
    assert [(n, expected[n], got[n]) for n in got if got[n] != expected[n]] == []
    assert sum(v.startswith("error ") for v in got.values()) > 250


if __name__ == "__main__":
    for name, data in rows():
        print(f"{name}\t{outcome(data)}")
