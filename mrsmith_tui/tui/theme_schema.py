"""A person's own theme file, checked field by field before it becomes a Textual `Theme` (tui/themes.py),
without pydantic (start-up time, #26; the bundled themes need no check at start). TOML has real types,
so nothing is converted: a string where a boolean goes is wrong. The first problem is `ThemeFileError`,
naming the field as the file does (`variables.Foo`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_VARIABLE = re.compile(r"^[a-z][a-z0-9-]*$")
COLOURS = ("primary", "secondary", "accent", "foreground", "background", "surface", "panel", "boost", "warning",
           "error", "success")


class ThemeFileError(ValueError):
    """kind: "missing", "extra_forbidden" or "value"; field: where, dotted."""

    def __init__(self, field: str, kind: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field, self.kind, self.message = field, kind, message


def _string(v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError("Input should be a valid string")
    return v


def _boolean(v: Any) -> bool:
    if not isinstance(v, bool):
        raise ValueError("Input should be a valid boolean")
    return v


def _fraction(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ValueError("Input should be a valid number")
    if not v <= 1:
        raise ValueError("Input should be less than or equal to 1")
    if not v >= 0:
        raise ValueError("Input should be greater than or equal to 0")
    return float(v)


def _name(v: Any) -> str:
    if not _NAME.match(_string(v)):
        raise ValueError(f"{v!r} is not a theme name (lower-case letters, digits, '-' and '_')")
    return str(v)


def _colour(v: Any) -> str | None:
    if v is None:
        return None
    try:
        Color.parse(_string(v))
    except ColorParseError:
        raise ValueError(f"{v!r} is not a colour") from None
    return str(v)


# field -> (default, or ... when the file must give it; how its value is checked)
FIELDS: dict[str, tuple[Any, Callable[[Any], Any]]] = {
    "name": (..., _name),
    "primary": (..., lambda v: _colour(_string(v))),
    **dict.fromkeys(COLOURS[1:], (None, _colour)),
    "dark": (True, _boolean),
    "luminosity_spread": (0.15, _fraction),
    "text_alpha": (0.95, _fraction),
    "ansi": (False, _boolean),
    "variables": ({}, lambda v: v),  # checked below, key by key
}


def theme_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of Textual's `Theme` from a file's table, or ThemeFileError."""
    out: dict[str, Any] = {}
    for field, (default, check) in FIELDS.items():
        if field not in data:
            if default is ...:
                raise ThemeFileError(field, "missing", "missing")
            out[field] = dict(default) if isinstance(default, dict) else default
            continue
        try:
            out[field] = _variables(data[field]) if field == "variables" else check(data[field])
        except ThemeFileError:
            raise
        except ValueError as e:
            raise ThemeFileError(field, "value", str(e)) from None
    extra = [key for key in data if key not in FIELDS]
    if extra:
        raise ThemeFileError(extra[0], "extra_forbidden", "not a theme field")
    return out


def _variables(v: Any) -> dict[str, str]:
    if not isinstance(v, dict):
        raise ValueError("Input should be a valid dictionary")
    for key, value in v.items():
        if not isinstance(value, str):
            raise ThemeFileError(f"variables.{key}", "value", "Input should be a valid string")
    for key, value in v.items():
        if not _VARIABLE.match(key):
            raise ValueError(f"{key!r} is not a variable name (lower-case, '-' between words)")
        if not value.strip():
            raise ValueError(f"{key!r} is empty")
    return dict(v)


def check(data: dict[str, Any]) -> tuple[Theme | None, str]:
    """(theme, "") or (None, "<field>: <what is wrong>")."""
    try:
        return Theme(**theme_fields(data)), ""
    except ThemeFileError as e:
        return None, str(e)
