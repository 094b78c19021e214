"""Containment under races: a swapping process never lets a tool read or write outside the root."""

from __future__ import annotations

from pathlib import Path

from .race import run_race


def test_no_access_outside_while_a_directory_and_a_symlink_swap(tmp_path: Path) -> None:
    result = run_race(tmp_path, ops=1500)
    assert result.escapes == 0, result.details[:5]
    assert result.ops == 1500 and result.swaps > 100 and result.refused > 0  # the swaps did land under the tools
