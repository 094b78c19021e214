"""Small contexts (a local model with 4k or 8k tokens): what is sent must leave room to work.

With a context of at most SMALL_CONTEXT tokens the run sends a compact system prompt (no
skills list or other composed sections, AGENTS.md capped) and only the tools the agent
needs for code work (its own `tools` allowlist when it has one, else CORE_TOOLS), each with
the first sentence of its description and no parameter descriptions. Measured with the
session's estimator, the default agent's prompt + schemas go from ~3,600 tokens to under a
third of that.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from typing import Any

from mrsmith_tui.tools.base import openai_spec

SMALL_CONTEXT = 8192
CORE_TOOLS = ("read_file", "list_dir", "glob", "edit", "write_file", "shell")
COMPACT_AGENTS_MD_CAP = 2000  # characters


def is_small(context_tokens: int) -> bool:
    return 0 < context_tokens <= SMALL_CONTEXT


def short_description(text: str, limit: int = 120) -> str:
    first = re.split(r"(?<=[.!?])\s|\n", text.strip(), maxsplit=1)[0].strip()
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"


def _without_descriptions(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _without_descriptions(v) for k, v in schema.items()
                if not (k == "description" and isinstance(v, str))}
    if isinstance(schema, list):
        return [_without_descriptions(v) for v in schema]
    return schema


def compact_specs(tools: Iterable[Any], allowlist: Iterable[str] | None) -> list[dict[str, Any]]:
    wanted = set(allowlist) | {"edit"} if allowlist is not None else set(CORE_TOOLS)
    specs = []
    for tool in tools:
        if tool.name not in wanted:
            continue
        spec = copy.deepcopy(openai_spec(tool))
        fn = spec["function"]
        fn["description"] = short_description(fn.get("description") or "")
        fn["parameters"] = _without_descriptions(fn.get("parameters") or {})
        specs.append(spec)
    return specs
