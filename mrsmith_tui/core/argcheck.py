"""A small JSON-schema check for tool arguments: required keys, basic types, enums.

Enough to tell a model precisely what it got wrong (`'path' is required`, `'limit' must be
an integer, got "ten"`); not a full JSON-schema implementation.
"""

from __future__ import annotations

import json
from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def parse_arguments(raw: str) -> tuple[dict[str, Any] | None, str | None]:
    """(arguments, None) or (None, the problem)."""
    if raw is None or not raw.strip():
        return {}, None
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as e:
        return None, f"the arguments are not valid JSON ({e.msg} at position {e.pos})"
    except ValueError as e:  # not a JSON error: a number too long to convert
        return None, f"the arguments are not valid JSON ({e})"
    except RecursionError:
        return None, "the arguments are not valid JSON (nested too deeply)"
    if not isinstance(value, dict):
        return None, f"the arguments must be a JSON object, got {_kind(value)}"
    return value, None


def check_arguments(args: dict[str, Any], schema: dict[str, Any]) -> str | None:
    """None when `args` fits `schema`; otherwise one line naming the first problem."""
    return _check(args, schema or {}, "")


def _check(value: Any, schema: dict[str, Any], where: str) -> str | None:
    label = f"'{where}'" if where else "the arguments"
    wanted = schema.get("type")
    if wanted is not None:
        names = wanted if isinstance(wanted, list) else [wanted]
        if not any(_is(value, n) for n in names):
            return f"{label} must be {' or '.join(_article(n) for n in names)}, got {_show(value)}"
    if "enum" in schema and value not in schema["enum"]:
        options = ", ".join(json.dumps(v) for v in schema["enum"])
        return f"{label} must be one of {options}, got {_show(value)}"
    if isinstance(value, dict):
        props = schema.get("properties") or {}
        for key in schema.get("required") or []:
            if key not in value:
                return f"'{_join(where, key)}' is required"
        if schema.get("additionalProperties") is False:
            extra = sorted(k for k in value if k not in props)
            if extra:
                return f"unknown argument '{_join(where, extra[0])}' (expected: {', '.join(props) or 'none'})"
        for key, sub in props.items():
            if key in value and isinstance(sub, dict):
                problem = _check(value[key], sub, _join(where, key))
                if problem:
                    return problem
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            problem = _check(item, schema["items"], f"{where}[{i}]")
            if problem:
                return problem
    return None


def _is(value: Any, type_name: str) -> bool:
    kinds = _TYPES.get(type_name)
    if kinds is None:
        return True  # an unknown type word: do not second-guess the tool
    if isinstance(value, bool) and type_name in ("integer", "number"):
        return False
    if type_name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, kinds)


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _article(type_name: str) -> str:
    return f"an {type_name}" if type_name[0] in "aeiou" else f"a {type_name}"


def _kind(value: Any) -> str:
    for name, kinds in _TYPES.items():
        if isinstance(value, kinds) and not (isinstance(value, bool) and name != "boolean"):
            return _article(name)
    return type(value).__name__


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."
