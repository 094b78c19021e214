"""A person's own theme file, checked field by field before it becomes a Textual `Theme` (tui/themes.py).

Loaded only when there is such a file: the bundled themes need no check at start, and pydantic is
not imported for them (start-up time, #26).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from textual.color import Color, ColorParseError
from textual.theme import Theme

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_VARIABLE = re.compile(r"^[a-z][a-z0-9-]*$")


class ThemeFile(BaseModel):
    """One themes/*.toml file, checked field by field before it becomes a `Theme`."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)  # TOML has real types

    name: str
    primary: str
    secondary: str | None = None
    accent: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    boost: str | None = None
    warning: str | None = None
    error: str | None = None
    success: str | None = None
    dark: bool = True
    luminosity_spread: float = Field(default=0.15, ge=0, le=1)
    text_alpha: float = Field(default=0.95, ge=0, le=1)
    ansi: bool = False
    variables: dict[str, str] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _NAME.match(v):
            raise ValueError(f"{v!r} is not a theme name (lower-case letters, digits, '-' and '_')")
        return v

    @field_validator("primary", "secondary", "accent", "foreground", "background", "surface", "panel",
                     "boost", "warning", "error", "success")
    @classmethod
    def _colour(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                Color.parse(v)
            except ColorParseError:
                raise ValueError(f"{v!r} is not a colour") from None
        return v

    @field_validator("variables")
    @classmethod
    def _variables(cls, v: dict[str, str]) -> dict[str, str]:
        for key, value in v.items():
            if not _VARIABLE.match(key):
                raise ValueError(f"{key!r} is not a variable name (lower-case, '-' between words)")
            if not value.strip():
                raise ValueError(f"{key!r} is empty")
        return v

    def to_theme(self) -> Theme:
        return Theme(**self.model_dump())


def check(data: dict[str, Any]) -> tuple[Theme | None, str]:
    """(theme, "") or (None, "<field>: <what is wrong>")."""
    try:
        return ThemeFile.model_validate(data).to_theme(), ""
    except ValidationError as e:
        return None, _describe(e)


def _describe(error: ValidationError) -> str:
    first = error.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "(top level)"
    if first["type"] == "extra_forbidden":
        return f"{field}: not a theme field"
    if first["type"] == "missing":
        return f"{field}: missing"
    return f"{field}: {first['msg'].removeprefix('Value error, ')}"
