"""The frontmatter read without PyYAML answers exactly what yaml.safe_load does, or hands over (#26)."""

from __future__ import annotations

import random

import pytest
import yaml

from mrsmith_tui.skills.frontmatter import plain_fields
from mrsmith_tui.skills.skill import split_frontmatter

# Pieces a value or a key is made of: the plain words most skills use, and every YAML trap we know.
PLAIN = ["debug", "Find", "the", "root", "cause", "of", "a", "bug,", "test-first", "-", "C#", "it's", "café",
         "naïve", "ß", "…", "日本", "emoji😀", "a\\b", "x-y", "(see", "docs)", "done.", "Use", "when", "v2"]
TRAPS = ["x:y", '"quoted"', "[list]", "{map}", "a,b", "&anchor", "*alias", "!tag", "|", ">", "%", "@", "`", "?",
         "#", "yes", "No", "TRUE", "off", "On", "null", "Null", "~", "y", "n", "nan", ".inf", "0x1F", "1e3", "12",
         "3.5", "2024-01-01", "1:20", "=", "<<", ":", "::", "\u00a0", "\u2028", "\x85", "\x1c", "\t", "\r", "\ufeff",
         "'", '"', "---", "...", "+", "-1", ".5"]
KEYS = ["name", "description", "license", "x", "_k", "a-b"]
ODD_KEYS = ["yes", "No", "on", "null", "y", "1", "-k", "k.k", "true", "key with space", "Name"]


def _pick(rng: random.Random, usual: list[str], odd: list[str], odds: float = 0.08) -> str:
    return rng.choice(odd if rng.random() < odds else usual)


def _value(rng: random.Random) -> str:
    return " ".join(_pick(rng, PLAIN, TRAPS) for _ in range(rng.randint(1, 6)))


def _line(rng: random.Random) -> str:
    key = _pick(rng, KEYS, ODD_KEYS)
    sep = _pick(rng, [": "], [":  ", ":", " : ", ":\t"])
    tail = _pick(rng, [""], [" ", " # note", ":", "  "])
    lead = _pick(rng, [""], [" ", "  ", "- ", "? "])
    return f"{lead}{key}{sep}{_value(rng)}{tail}"


def _source(rng: random.Random) -> str:
    lines = [_line(rng) for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.1:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(["", "# comment", "  continued", "---"]))
    return "\n".join(lines) + rng.choice(["\n", "", "\r\n"])


def _yaml_or_error(source: str) -> object:
    try:
        return yaml.safe_load(source)
    except yaml.YAMLError:
        return "YAML ERROR"


TABLE = [_source(random.Random(seed)) for seed in range(600)]


@pytest.mark.parametrize("source", TABLE)
def test_where_it_answers_it_answers_what_yaml_does(source):
    fields = plain_fields(source)
    if fields is not None:
        assert fields == _yaml_or_error(source)


def test_the_table_has_both_kinds_of_rows():
    answered = sum(plain_fields(s) is not None for s in TABLE)
    assert 60 < answered < len(TABLE) - 60  # the table tests both paths, not one


@pytest.mark.parametrize("source, expected", [
    ("name: debug\ndescription: Find the root cause, then fix it.\n",
     {"name": "debug", "description": "Find the root cause, then fix it."}),
    ("name: x\r\ndescription: it's a test - really  \r\n", {"name": "x", "description": "it's a test - really"}),
    ("name: x\n\ndescription: C# and [brackets] {too}\n", {"name": "x", "description": "C# and [brackets] {too}"}),
    ("name: x\ndescription: yes\n", None),  # a boolean to YAML
    ("name: x\ndescription: a # comment\n", None),
    ("name: x\ndescription: a: b\n", None),
    ("name: x\ndescription: >\n  folded\n", None),
    ("name: x\nname: y\n", None),  # YAML keeps the last; the parser says so, not us
    ("name: x\n  continued\n", None),
    ("name: 'x'\n", None),
    ("name: x\x1cdescription: y\n", None),  # a character YAML refuses
])
def test_examples(source, expected):
    assert plain_fields(source) == expected


def test_a_skill_with_yaml_only_frontmatter_still_reads(tmp_path):
    path = tmp_path / "demo" / "SKILL.md"
    text = "---\nname: demo\ndescription: >\n  Folded\n  text.\ntags: [a, b]\n---\nBody\n"
    front, body = split_frontmatter(text, path)
    assert front == {"name": "demo", "description": "Folded text.\n", "tags": ["a", "b"]} and body == "Body\n"
