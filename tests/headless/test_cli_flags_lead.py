"""Flag parsing edge cases the fleet relies on."""
from __future__ import annotations

from mrsmith_tui.cli import build_parser


def test_max_agents_zero_turns_spawning_off_and_negative_is_refused(capsys):
    assert build_parser().parse_args(["--max-agents", "0"]).max_agents == 0
    try:
        build_parser().parse_args(["--max-agents", "-1"])
    except SystemExit as e:
        assert e.code == 2
    assert "must be at least 0" in capsys.readouterr().err
