"""An MCP tool result as the text the model reads: text joined, the rest summarised, bounded."""

from __future__ import annotations

import base64
import json
from typing import Any

from mrsmith_tui.tools.output_limit import HeadTail
from mrsmith_tui.words import counted

__all__ = ["MAX_RESULT_CHARS", "result_text"]

MAX_RESULT_CHARS = 32_000  # what the model gets of one result (head and tail)


def _size(data: Any) -> str:
    if not isinstance(data, str):
        return "?"
    try:
        n = len(base64.b64decode(data, validate=False))
    except (ValueError, TypeError):
        n = len(data)
    return counted(n, 'byte')


def _block(block: Any) -> str:
    kind = getattr(block, "type", "")
    if kind == "text":
        return str(getattr(block, "text", ""))
    if kind in ("image", "audio"):
        return f"[{kind}: {getattr(block, 'mime_type', '') or 'unknown type'}, {_size(getattr(block, 'data', ''))}]"
    if kind == "resource":
        res = getattr(block, "resource", None)
        uri = getattr(res, "uri", "")
        text = getattr(res, "text", None)
        if isinstance(text, str):
            return f"[resource {uri}]\n{text}"
        return f"[resource {uri}: {getattr(res, 'mime_type', '') or 'binary'}, {_size(getattr(res, 'blob', ''))}]"
    if kind == "resource_link":
        return f"[resource link: {getattr(block, 'uri', '')} {getattr(block, 'name', '')}]".rstrip()
    return f"[{kind or 'unknown'} content]"


def result_text(result: Any, limit: int = MAX_RESULT_CHARS) -> tuple[str, bool]:
    """(text, is_error) of a CallToolResult: text content joined; images, audio and resources as one
    line each; structured content when there is nothing else. At most `limit` characters."""
    out = HeadTail(limit)
    parts = [_block(b) for b in getattr(result, "content", None) or []]
    if not parts and getattr(result, "structured_content", None) is not None:
        try:
            parts = [json.dumps(result.structured_content, ensure_ascii=False)]
        except (TypeError, ValueError):
            parts = ["[structured content that is not JSON]"]
    for i, part in enumerate(parts):
        out.add(("\n" if i else "") + part)
    text = out.text() if parts else "(no content)"
    return text, bool(getattr(result, "is_error", False))
