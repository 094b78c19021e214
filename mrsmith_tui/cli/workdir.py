"""The folder mrsmith is started in. Every command works there (sessions, tools, the project's config),
so one deleted or moved away under the shell is said before anything else, in words: otherwise it is the
bare FileNotFoundError of the first os.getcwd()."""

from __future__ import annotations

import os

from mrsmith_tui.cli.args import UsageError

__all__ = ["check"]


def check() -> None:
    try:
        os.getcwd()
    except FileNotFoundError:
        shell = os.environ.get("PWD", "")  # the shell's name for it, shown when that is gone too (else it is stale)
        named = f" {shell}" if os.path.isabs(shell) and not os.path.exists(shell) else ""
        raise UsageError(f"the working directory{named} no longer exists (deleted or moved): cd to one that does") from None
