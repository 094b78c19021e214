"""The JSON of a streamed chunk as Python values that are valid Unicode everywhere.

JSON may escape half of a surrogate pair on its own (`"\\ud800"`), and `json.loads` keeps it as a
lone surrogate, which no UTF-8 encoder takes: one in a model's text or tool arguments would turn
off the transcript and end the run. Every such code point becomes U+FFFD here, where the model's
JSON is decoded (a chunk, and a tool call's arguments, which are JSON text the tool decodes later),
so nothing downstream meets one. Only text holding such an escape is looked at again.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["loads_chunk", "valid_arguments"]

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")  # after decoding, only lone halves are left: a pair is one character


def loads_chunk(data: str) -> Any:
    """`json.loads(data)` with lone surrogates replaced by U+FFFD. Raises ValueError (RecursionError
    for JSON nested past the interpreter's limit is a ValueError here too)."""
    try:
        value = json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deep") from None
    if "\\u" in data and _SURROGATE_ESCAPE.search(data) is not None:  # _may_hold_surrogates, inlined: per chunk
        try:
            return _replaced(value)
        except RecursionError:
            raise ValueError("JSON nested too deep") from None
    return value


def valid_arguments(text: str) -> str:
    """A tool call's arguments (JSON text), written again without lone surrogates when decoding them
    would give one; else as they are."""
    if not _may_hold_surrogates(text):
        return text
    try:
        value = json.loads(text)
        fixed = _replaced(value)
    except (ValueError, RecursionError):
        return text  # not JSON: the tool refuses it as it is
    return text if fixed == value else json.dumps(fixed, ensure_ascii=False)


def _may_hold_surrogates(text: str) -> bool:
    return "\\u" in text and _SURROGATE_ESCAPE.search(text) is not None


def _replaced(value: Any) -> Any:
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_replaced(k): _replaced(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_replaced(v) for v in value]
    return value
