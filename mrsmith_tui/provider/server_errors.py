"""What a server's error body says: its human message, and whether the request did not fit the context.

OpenAI-compatible servers word their errors differently; these read the known shapes (an
`error` object or string, llama.cpp's `n_ctx`, vLLM's sentence) without trusting any of them.
"""

from __future__ import annotations

import json
import re
from typing import Any


def whole_number(value: Any) -> int:
    """`value` when it is an int (a bool is not), else 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def error_text(error: Any) -> str:
    """The human part of an error object, on one line."""
    if isinstance(error, dict):
        for key in ("message", "error", "detail", "msg"):
            if error.get(key):
                return error_text(error[key])
        return one_line(json.dumps(error))
    if isinstance(error, list) and error:
        return error_text(error[0])
    return one_line(str(error))


_CONTEXT_PHRASES = ("context_length_exceeded", "exceed_context_size", "maximum context length",
                    "exceeds the available context", "context length exceeded", "context window",
                    "too many tokens", "prompt is too long", "reduce the length")
_LIMIT_PATTERNS = (r"maximum context length is (\d+)", r"n_ctx[\"'=: ]+(\d+)", r"context (?:size|length|window) (?:of |is )?(\d+)",
                  r"tokens > (\d+) maximum")  # Anthropic: "prompt is too long: 250000 tokens > 200000 maximum"


def context_exceeded(error: Any) -> tuple[bool, int]:
    """(True, the context size when the server named it) for the known "does not fit" errors:
    OpenAI `code: context_length_exceeded`, llama.cpp `type: exceed_context_size_error` (with
    `n_ctx`), vLLM's `This model's maximum context length is N tokens` (as `object: error`)."""
    if isinstance(error, dict) and isinstance(error.get("error"), dict):
        inner = error["error"]
        found, limit = context_exceeded(inner)
        return (found, limit or whole_number(error.get("n_ctx")))
    text = json.dumps(error) if not isinstance(error, str) else error
    lowered = text.lower()
    if not any(p in lowered for p in _CONTEXT_PHRASES):
        return False, 0
    limit = whole_number(error.get("n_ctx")) if isinstance(error, dict) else 0
    for pattern in _LIMIT_PATTERNS:
        m = re.search(pattern, lowered)
        if m and not limit:
            limit = int(m.group(1))
    return True, limit


def one_line(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
