"""`mrsmith`: the command line. Its main and the composition root are in cli.command; the
flags in cli.args. Importing this package stays cheap (start-up time): it loads cli.command,
which imports what a run needs only where that run needs it."""

from __future__ import annotations

from mrsmith_tui.cli.args import UsageError, build_parser
from mrsmith_tui.cli.command import main
from mrsmith_tui.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_USAGE", "UsageError", "build_parser", "main"]
