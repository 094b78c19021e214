"""Figures with their targets, printed as one aligned line each with PASS / MISS (or INFO)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    name: str
    value: float | None  # None: could not be measured (see note)
    unit: str
    target: str = ""  # e.g. ">= 5000"; "" for a figure reported for information
    note: str = ""

    @property
    def verdict(self) -> str:
        if not self.target:
            return "INFO"
        if self.value is None:
            return "MISS"
        op, limit = self.target.split()
        ok = self.value >= float(limit) if op == ">=" else self.value < float(limit) if op == "<" else self.value <= float(limit)
        return "PASS" if ok else "MISS"

    def line(self) -> str:
        value = "n/a" if self.value is None else f"{self.value:,.3f}" if abs(self.value) < 10 else f"{self.value:,.0f}"
        target = f"target {self.target} {self.unit}".rstrip() if self.target else ""
        note = f"  ({self.note})" if self.note else ""
        return f"{self.verdict:<5} {self.name:<46} {value:>10} {self.unit:<9} {target}{note}"


def print_section(title: str, figures: list[Figure]) -> None:
    print(f"\n== {title}")
    for f in figures:
        print(f.line(), flush=True)
