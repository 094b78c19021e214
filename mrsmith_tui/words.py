"""Counted nouns in what a person reads: `1 line`, `2 lines`, `1 entry`, `3 entries`."""

from __future__ import annotations

__all__ = ["counted"]


def counted(n: int, noun: str, plural: str = "") -> str:
    """`n` and the noun, plural (`noun` + "s" unless `plural` is given) when `n` is not 1."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
