"""A server's tools as the model and the screen may see them: cleaned and bounded.

A server is untrusted input even when it is trusted to run: a description can carry control
sequences, a schema can be a bomb, a listing can hold thousands of tools. Each is cut to a bound
here and whatever was left out is said in one line (the server's `note` in /mcp list).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from mrsmith_tui.security.redact import PROCESS

__all__ = ["MAX_DESCRIPTION", "MAX_SCHEMA_BYTES", "MAX_TOOLS", "Listing", "ToolInfo", "clean_text", "read_listing"]

MAX_TOOLS = 128  # per server
MAX_DESCRIPTION = 2000  # characters
MAX_SCHEMA_BYTES = 16 * 1024  # one tool's input schema, as JSON
MAX_SCHEMA_DEPTH = 12
MAX_LISTING_BYTES = 256 * 1024  # every schema and description of one server together
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")
_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")


def clean_text(text: Any, limit: int) -> str:
    """Printable text of at most `limit` characters: escape sequences and control characters out."""
    if not isinstance(text, str):
        return ""
    clean: str = _CONTROL.sub("", _ESCAPE.sub("", text)).strip()
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


@dataclass(frozen=True)
class ToolInfo:
    name: str  # as the server calls it (cleaned of control characters; the call uses the original)
    original: str
    description: str
    schema: dict[str, Any]
    read_only: bool


@dataclass(frozen=True)
class Listing:
    tools: tuple[ToolInfo, ...]
    note: str = ""  # what was left out, and why


def _depth(value: Any, limit: int) -> int:
    """How deep `value` nests, counting no deeper than `limit + 1`."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    deepest = 0
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if level > limit:
            return level
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


def _redacted(value: Any) -> Any:
    """The schema with every secret the redactor knows taken out of its keys and strings (a server can
    write its expanded token anywhere; the model's request, the screen and mcp list see this copy)."""
    if isinstance(value, str):
        return PROCESS.redact(value)
    if isinstance(value, dict):
        return {PROCESS.redact(k) if isinstance(k, str) else k: _redacted(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_redacted(v) for v in value]
    return value


def _schema(raw: Any) -> tuple[dict[str, Any] | None, str]:
    if not isinstance(raw, dict):
        return {"type": "object", "properties": {}}, ""
    if _depth(raw, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH:
        return None, f"schema nested deeper than {MAX_SCHEMA_DEPTH}"
    try:
        size = len(json.dumps(raw))
    except (TypeError, ValueError):
        return None, "schema is not JSON"
    if size > MAX_SCHEMA_BYTES:
        return None, f"schema of {size // 1024} KiB (at most {MAX_SCHEMA_BYTES // 1024} KiB)"
    schema = _redacted(raw)
    if schema.get("type") != "object":
        schema = {"type": "object", "properties": schema.get("properties") if isinstance(schema.get("properties"), dict) else {}}
    return schema, ""


def read_listing(tools: list[Any]) -> Listing:
    """The SDK's `Tool`s (name, description, input_schema, annotations) as ToolInfos, within bounds."""
    kept: list[ToolInfo] = []
    left: list[str] = []
    total = 0
    seen: set[str] = set()
    for tool in tools[: MAX_TOOLS * 4]:
        original = getattr(tool, "name", None)
        if not isinstance(original, str) or not original or len(original) > 256 or original in seen:
            left.append("a tool without a usable name")
            continue
        seen.add(original)
        name = clean_text(PROCESS.redact(original), 128) or "tool"
        schema, problem = _schema(getattr(tool, "input_schema", None))
        if schema is None:
            left.append(f"{name}: {problem}")
            continue
        description = clean_text(PROCESS.redact(str(getattr(tool, "description", None) or getattr(tool, "title", None) or "")),
                                  MAX_DESCRIPTION)
        size = len(json.dumps(schema)) + len(description)
        if len(kept) >= MAX_TOOLS or total + size > MAX_LISTING_BYTES:
            left.append(f"{name}: over the limit of {MAX_TOOLS} tools or {MAX_LISTING_BYTES // 1024} KiB per server")
            continue
        total += size
        annotations = getattr(tool, "annotations", None)
        read_only = getattr(annotations, "read_only_hint", None) is True
        kept.append(ToolInfo(name=name, original=original, description=description, schema=schema, read_only=read_only))
    dropped = len(tools) - len(kept)
    note = ""
    if dropped:
        note = f"{dropped} tool{'s' if dropped != 1 else ''} left out: " + "; ".join(left[:3])
        if len(left) > 3:
            note += f"; and {len(left) - 3} more"
    return Listing(tools=tuple(kept), note=note)
