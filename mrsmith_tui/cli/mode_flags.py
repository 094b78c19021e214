"""--permission-mode and --yes put the session's starting mode into the config (`defaultMode`), which
the session's gate starts in (tools.permission_mode). A flag beats the file; `--yes` is `auto`'s
short spelling, headless and in the UI alike. A bad value is one line naming it (exit 2)."""

from __future__ import annotations

import argparse
import typing

from mrsmith_tui.cli.args import UsageError
from mrsmith_tui.config.schema import Config, PermissionModeName

MODES: tuple[str, ...] = typing.get_args(PermissionModeName)  # the same as tools.permission_mode.MODES

__all__ = ["apply_mode_flags"]


def apply_mode_flags(config: Config, args: argparse.Namespace) -> Config:
    mode: str | None = getattr(args, "permission_mode", None)
    if mode is not None:
        mode = mode.strip().lower()
        if mode not in MODES:
            raise UsageError(f"--permission-mode: unknown mode {args.permission_mode!r} (the modes: {', '.join(MODES)})")
    if getattr(args, "yes", False):
        if mode not in (None, "auto"):
            raise UsageError(f"--yes is --permission-mode auto: leave out one of --yes and --permission-mode {mode}")
        mode = "auto"
    if mode is None:
        return config
    # model_copy, not validation: "auto" comes only from here, never from a file (config.schema)
    return config.model_copy(update={"default_mode": mode})
