"""The recorded sessions at the command line, with no endpoint needed: `mrsmith --list [--all]`,
`mrsmith view ID` (the read-only UI on a terminal, the session as Markdown into a pipe or a file)
and `mrsmith export ID [PATH]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mrsmith_tui.cli import startup_gc
from mrsmith_tui.cli.args import session_parser
from mrsmith_tui.cli.keys import know_keys, shown
from mrsmith_tui.config.load import apply_cli, load_config, sessions_dir
from mrsmith_tui.config.schema import Config

__all__ = ["list_sessions", "main"]


def list_sessions(args: argparse.Namespace, config: Config) -> int:
    """`mrsmith --list`: this folder's sessions (`--all`: every folder's), last used first."""
    from mrsmith_tui.session.store import format_sessions
    from mrsmith_tui.session.store import list_sessions as recorded

    sessions = recorded(sessions_dir(config), cwd=None if args.all else Path.cwd())
    if not sessions:
        where = "" if args.all else " started in this folder (mrsmith --list --all shows every folder's)"
        print(f"no sessions{where}")
        return 0
    print(shown(format_sessions(sessions, show_dir=args.all)))
    return 0


def main(argv: list[str]) -> int:
    """`mrsmith view ID` and `mrsmith export ID [PATH]`: no endpoint needed."""
    args = session_parser(argv[0]).parse_args(argv[1:])
    config = apply_cli(load_config(args.config), sessions_dir=args.sessions_dir)
    know_keys(config)  # no endpoint needed, but an export still redacts them
    if argv[0] == "export" and args.path == "-":  # `-` is stdout, as for most tools (`./-` names a file)
        return _view(args, config, screen=False)  # what `view` writes into a pipe
    if argv[0] == "export":
        from mrsmith_tui.session.export import export_session

        print(shown(str(export_session(args.id, args.path, root=sessions_dir(config), force=args.force,
                                       when_exists="give another name, or --force to replace it"))))
        return 0
    return _view(args, config)


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _view(args: argparse.Namespace, config: Config, *, screen: bool = True) -> int:
    """The session on screen, read-only; as Markdown on stdout when that is not a terminal (or not `screen`)."""
    from mrsmith_tui.core.resume import load_records, locate_transcript
    from mrsmith_tui.session.export import export_markdown

    path = locate_transcript(config, args.id, Path.cwd())
    records, warnings = load_records(path)
    for text in warnings:
        print(f"mrsmith: warning: {shown(text)}", file=sys.stderr)
    if not (screen and _stdout_is_terminal()):  # a pipe or a file: the session as text, not a UI nobody sees
        sys.stdout.write(shown(export_markdown(records)))
        return 0
    startup_gc.ready()
    try:
        from mrsmith_tui.tui.app import run_view
    except ImportError as e:  # the UI (or its read-only view) is not built: only that falls back
        if not (e.name or "").startswith("mrsmith_tui.tui"):
            raise
        sys.stdout.write(shown(export_markdown(records)))  # no UI yet: the session as Markdown
        return 0
    return run_view(records, config=config, theme=args.theme or config.theme)
