"""The system prompt and the tool-argument check."""

from __future__ import annotations

import datetime as dt

from mrsmith_tui.config.schema import AgentConfig
from mrsmith_tui.core.argcheck import check_arguments, parse_arguments
from mrsmith_tui.core.system_prompt import build_system_prompt

AGENT = AgentConfig(name="a", provider="p", model="m", system_prompt="Be brief.")


def test_system_prompt_has_cwd_date_agents_md_and_sections(tmp_path):
    (tmp_path / "AGENTS.md").write_text("Run make test before committing.\n")
    text = build_system_prompt(AGENT, tmp_path, ["# Skills\n- review"], today=dt.date(2025, 3, 4))
    assert text.startswith("Be brief.")
    assert f"Working directory: {tmp_path}" in text and "2025-03-04" in text
    assert "Run make test before committing." in text
    assert text.index("AGENTS.md") < text.index("# Skills")


def test_system_prompt_without_agents_md(tmp_path):
    text = build_system_prompt(AGENT, tmp_path)
    assert "AGENTS.md" not in text and "Working directory" in text


SCHEMA = {
    "type": "object",
    "properties": {
        "path": {"type": "string"},
        "limit": {"type": "integer"},
        "ratio": {"type": "number"},
        "mode": {"type": "string", "enum": ["a", "b"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "opt": {"type": ["string", "null"]},
    },
    "required": ["path"],
    "additionalProperties": False,
}


def test_check_arguments_names_the_first_problem():
    assert check_arguments({"path": "x", "limit": 3, "ratio": 0.5, "tags": ["a"], "opt": None}, SCHEMA) is None
    assert check_arguments({}, SCHEMA) == "'path' is required"
    assert check_arguments({"path": 1}, SCHEMA) == "'path' must be a string, got 1"
    assert check_arguments({"path": "x", "limit": True}, SCHEMA) == "'limit' must be an integer, got true"
    assert check_arguments({"path": "x", "limit": 2.0}, SCHEMA) is None
    assert check_arguments({"path": "x", "mode": "c"}, SCHEMA) == '\'mode\' must be one of "a", "b", got "c"'
    assert check_arguments({"path": "x", "tags": ["a", 2]}, SCHEMA) == "'tags[1]' must be a string, got 2"
    assert check_arguments({"path": "x", "bogus": 1}, SCHEMA).startswith("unknown argument 'bogus'")


def test_parse_arguments():
    assert parse_arguments("") == ({}, None)
    assert parse_arguments('{"a": 1}') == ({"a": 1}, None)
    assert parse_arguments("nope")[1].startswith("the arguments are not valid JSON")
    assert parse_arguments('"s"')[1] == "the arguments must be a JSON object, got a string"


def test_a_number_too_long_to_convert_is_a_json_problem_not_a_crash():
    args, problem = parse_arguments('{"n": ' + "9" * 5000 + "}")
    assert args is None and problem is not None and problem.startswith("the arguments are not valid JSON")


def test_arguments_nested_past_the_recursion_limit_are_a_json_problem():
    args, problem = parse_arguments("[" * 200_000 + "]" * 200_000)
    assert args is None
    assert problem == "the arguments are not valid JSON (nested too deeply)"
