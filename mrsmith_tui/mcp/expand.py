"""`${VAR}` and `${VAR:-default}` in an MCP server's config, from the values mrsmith holds.

The scrubbed environment keeps the secrets it took out of `os.environ` privately
(security.environment); a server's config may name them, and gets them expanded here, into
that server's own environment or headers only: they are never put back into `os.environ`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from mrsmith_tui.errors import MrSmithError
from mrsmith_tui.security.environment import child_environment, looks_secret, secret_value

__all__ = ["ExpandError", "Expander"]

_REFERENCE = re.compile(r"\$\{([^}]*)\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ExpandError(MrSmithError):
    pass


def held_or_set(name: str) -> tuple[str | None, bool]:
    """(the variable's value, whether it is one the scrubbed environment holds privately)."""
    value = os.environ.get(name)
    if value is not None:
        return value, False
    held = child_environment((name,)).get(name)
    return held, held is not None


@dataclass
class Expander:
    """Expands every string of one server's config; remembers the names it read and the secret values."""

    names: list[str] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)

    def __call__(self, text: str) -> str:
        def one(match: re.Match[str]) -> str:
            body = match.group(1)
            name, sep, default = body.partition(":-")
            if not _NAME.fullmatch(name):
                raise ExpandError(f"${{{body}}} is not a variable reference (write ${{NAME}} or ${{NAME:-default}})")
            value, held = held_or_set(name)
            if name not in self.names:
                self.names.append(name)
            if value is None or (sep and value == ""):
                if not sep:
                    raise ExpandError(f"${{{name}}} is not set (set it, or write ${{{name}:-default}})")
                return default
            if held or looks_secret(name) or secret_value(value):
                self.secrets.append(value)
            return value

        return _REFERENCE.sub(one, text)
