"""A wide table of config values, good and bad, each with the one line the loader gives (or the value it
keeps). The expected column was written by the pydantic schema the config used before it became plain
records (config.fields, start-up time #26): the wording and the lax reading of values did not change.

Regenerate (only on a deliberate change): `python tests/config/test_error_table.py > tests/config/error_table.txt`.
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

TABLE = Path(__file__).with_name("error_table.txt")

VALUES: list[Any] = [0, 1, -1, 2.5, 1.0, "3", "x", "", " ", True, False, None, [], ["a"], ["a", 3], {}, {"a": 1}, "0.5",
                     "nan", math.inf, "true", "yes", "full", "sliding", "strip", "preserve", "auto", "ask", "plan",
                     "anthropic", "openai", "zai", "http://x/", "ftp://x", "shell", "shell:", "*", 10**12]
PROVIDER = ["name", "apiKey", "api_key_command", "baseUrl", "protocol", "connectTimeout", "read_timeout", "bogus"]
AGENT = ["name", "provider", "model", "systemPrompt", "maxContextTokens", "max_tool_rounds", "maxToolCallsPerTurn",
         "maxToolCallsPerSession", "reasoningEffort", "thinking", "maxTokens", "cache", "thinkingStyle", "contextBuilder",
         "tools", "shellHarmlessCommands", "shell_dangerous_commands", "autoCompact", "shellEnvPassthrough", "bogus"]
TOP = ["defaultAgent", "includeUsage", "contextBuilder", "contextWindowRatio", "sessionsDir", "projectSkillsDir",
       "globalSkillsDir", "theme", "allow", "sensitivePaths", "webFetchAllowedHosts", "defaultMode", "notify",
       "notifyAfterSeconds", "dropInToolTimeout", "bogus", "providers", "agents"]
P = {"name": "p", "baseUrl": "http://h/v1"}
A = {"name": "a", "provider": "p", "model": "m"}
# what a record holds when nothing is given but its required fields (dropped from the ok column)
P_DEFAULT = {"api_key": None, "api_key_command": None, "base_url": "https://api.openai.com/v1", "protocol": "openai",
             "connect_timeout": 15.0, "read_timeout": 600.0}
A_DEFAULT = {"system_prompt": "You are mrsmith, a careful, capable coding agent working in the person's repository.",
             "max_context_tokens": 128_000, "max_tool_rounds": 32, "max_tool_calls_per_turn": 32,
             "max_tool_calls_per_session": None, "reasoning_effort": None, "thinking": None, "max_tokens": None,
             "cache": "auto", "thinking_style": None, "context_builder": None, "tools": None,
             "shell_harmless_commands": [], "shell_dangerous_commands": [], "auto_compact": False,
             "shell_env_passthrough": []}


def rows() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for f, v in itertools.product(PROVIDER, VALUES):
        out.append((f"providers[0].{f}={v!r}", {"providers": [{**P, f: v}], "agents": [A]}))
    for f, v in itertools.product(AGENT, VALUES):
        out.append((f"agents[0].{f}={v!r}", {"providers": [P], "agents": [{**A, f: v}]}))
    for f, v in itertools.product(TOP, VALUES):
        out.append((f"{f}={v!r}", {"providers": [P], "agents": [A], f: v}))
    for f in ("name", "provider", "model"):
        out.append((f"agents[0] without {f}", {"providers": [P], "agents": [{k: v for k, v in A.items() if k != f}]}))
    out += [
        ("a provider twice", {"providers": [P, P]}),
        ("an agent twice", {"providers": [P], "agents": [A, A]}),
        ("an agent without its provider", {"agents": [A]}),
        ("a vendor protocol without a URL", {"providers": [{"protocol": "zai", "name": "z"}]}),
        ("a vendor protocol with an empty URL", {"providers": [{"protocol": "zai", "name": "z", "base_url": ""}]}),
        ("providers not a list", {"providers": "x"}),
        ("a provider not a table", {"providers": ["x"]}),
        ("a key both ways", {"providers": [{"name": "p", "base_url": "http://a", "baseUrl": "http://b"}]}),
    ]
    return out


def outcome(doc: dict[str, Any]) -> str:
    """`error <with path>` (and `| <as for a flag>` where that is not the same without the path), or `ok <what was read, as data>` (the records a row varies)."""
    from mrsmith_tui.config.load import describe_validation_error
    from mrsmith_tui.config.schema import Config, Invalid

    try:
        config = Config.model_validate(doc)
    except Invalid as e:
        line, flag = describe_validation_error(e), describe_validation_error(e, with_path=False)
        return f"error {line}" if line.endswith(": " + flag) else f"error {line} | {flag}"
    def lean(record: dict[str, Any], default: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in record.items() if k not in default or v != default[k]}

    data = config.model_dump()
    top = lean(data, Config().model_dump())
    top["providers"] = [lean(p, P_DEFAULT) for p in data["providers"]]
    top["agents"] = [lean(a, A_DEFAULT) for a in data["agents"]]
    return "ok " + json.dumps(top, sort_keys=True)


def test_every_row_reads_as_before():
    expected = dict(line.split("\t", 1) for line in TABLE.read_text(encoding="utf-8").splitlines())
    got = {name: outcome(doc) for name, doc in rows()}
    assert len(got) == len(expected) > 1500
    wrong = [(name, expected[name], got[name]) for name in got if got[name] != expected[name]]
    assert wrong == []
    errors = [v for v in got.values() if v.startswith("error ")]
    assert len(errors) > 700 and all("\n" not in v for v in errors)


if __name__ == "__main__":
    for name, doc in rows():
        print(f"{name}\t{outcome(doc)}")
