"""The command line of `mrsmith`: its options, the session commands' options, and the checks
of combinations argparse cannot express (each a UsageError: one line, exit 2)."""

from __future__ import annotations

import argparse
from pathlib import Path

from mrsmith_tui import __version__
from mrsmith_tui.config.schema import allow_spec_problem
from mrsmith_tui.errors import EXIT_USAGE, MrSmithError

__all__ = ["SESSION_COMMANDS", "UsageError", "build_parser", "check_session_flags", "session_parser"]

SESSION_COMMANDS = ("view", "export")


class UsageError(MrSmithError):
    """A mistake on the command line: one line, exit 2."""

    exit_code = EXIT_USAGE


def _whole_number(text: str, *, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least {least}")
    return value


def _positive_int(text: str) -> int:
    return _whole_number(text, least=1)


def _non_negative_int(text: str) -> int:
    return _whole_number(text, least=0)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mrsmith",
        usage="mrsmith [options]  |  mrsmith view ID  |  mrsmith export ID [PATH]",
        description="A terminal coding agent for any OpenAI-compatible or Anthropic-compatible (Messages) endpoint. "
        "Without -p and with a terminal on stdin it starts the full-screen UI; without a terminal on stdin "
        "the prompt is read from stdin.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="session commands (no endpoint needed):\n"
        "  mrsmith view ID            show a recorded session read-only\n"
        "                             (ID: a session id or its start or end, as mrsmith --list shows, or a transcript file)\n"
        "  mrsmith export ID [PATH]   write a session as Markdown (default ./mrsmith-<id>.md; PATH - : stdout)\n"
        "  mrsmith tools list         every tool with its origin; mrsmith tools run NAME JSON calls a drop-in tool\n\n"
        "exit codes: 0 done, 1 the run failed, 2 usage or config error, 3 stopped at maxToolRounds "
        "(continue with -c), 130 interrupted\n\n"
        "examples:\n  mrsmith -p 'explain src/'\n  echo 'hi' | mrsmith\n  cat log | mrsmith -p 'why?'\n"
        "  MODEL=qwen3 OPENAI_BASE_URL=http://localhost:11434/v1 mrsmith -p hi",
    )
    p.add_argument("--version", action="version", version=f"mrsmith {__version__}")

    run = p.add_argument_group("headless run")
    run.add_argument("-p", "--prompt", metavar="PROMPT", help="run one prompt without the UI; piped stdin becomes context")
    run.add_argument("-f", "--file", dest="files", metavar="FILE", action="append", default=[], help="attach a file as context (repeatable)")
    run.add_argument("--json", action="store_true", help="print one JSON object per event to stdout")
    run.add_argument("--yes", action="store_true", help="approve every tool call that needs approval (--permission-mode auto)")
    run.add_argument("--permission-mode", metavar="MODE", help="ask (default), accept-edits (file edits in the folder "
                     "run unasked), plan (only read-only tools run), auto (everything runs); also in the UI (Shift-Tab)")
    run.add_argument("--allow", metavar="SPEC", action="append", default=[],
                     help="approve one kind of call without asking: a tool (write_file) or a shell command ('shell:git commit'); "
                     "repeatable; also in the UI (/permissions lists and revokes)")
    run.add_argument("--mcp-trust", action="store_true",
                     help="start this folder's .mcp.json servers for this run without asking (headless starts only trusted ones)")
    run.add_argument("--trust-project-tools", action="store_true",
                     help="load this folder's .mrsmith/tools/ drop-in tools for this run without asking (headless loads only trusted ones)")

    cfg = p.add_argument_group("config (flags beat the environment, which beats the config file)")
    cfg.add_argument("--config", metavar="PATH", type=Path, help="config file (default ~/.config/mrsmith/config.toml or config.json)")
    cfg.add_argument("--agent", metavar="NAME", help="the configured agent to use")
    cfg.add_argument("--base-url", metavar="URL", help="the endpoint, e.g. http://localhost:11434/v1 (a Messages one with "
                     "--protocol anthropic, e.g. https://api.anthropic.com)")
    cfg.add_argument("--model", metavar="MODEL", help="model name (overrides the agent's)")
    cfg.add_argument("--api-key", metavar="KEY", help="API key (prefer the config file or apiKeyCommand: flags show in `ps`)")
    _wire_flags(cfg)
    cfg.add_argument("--sessions-dir", metavar="DIR", help="where transcripts are written")
    cfg.add_argument("--context-builder", choices=["full", "sliding"], help="how the context is built from the history")
    cfg.add_argument("--context-window-ratio", metavar="R", type=float, help="sliding window share of maxContextTokens, in (0, 1]")
    cfg.add_argument("--no-session", action="store_true", help="write no transcript")
    cfg.add_argument("--theme", metavar="NAME", help="UI theme")
    cfg.add_argument("--max-agents", metavar="N", type=_non_negative_int, default=4, help="background agents at once (default 4; 0 turns spawning off)")
    cfg.add_argument("--agent-wait-ms", metavar="N", type=_positive_int, default=120000,
                     help="how long wait_agents may wait, in ms (default 120000)")

    ses = p.add_argument_group("sessions")
    ses.add_argument("-c", "--continue", dest="continue_", action="store_true", help="continue the newest session in this folder")
    ses.add_argument("--resume", metavar="ID", nargs="?", const="",
                     help="resume a session by id (its start, or the tail --list shows); no ID: pick one on screen")
    ses.add_argument("--other-folder", action="store_true",
                     help="with -c/--resume: go on with a session started in another folder (it works in that folder)")
    ses.add_argument("--list", action="store_true", help="list the sessions of this folder")
    ses.add_argument("--all", action="store_true", help="with --list: sessions of every folder")
    return p



def _wire_flags(cfg: argparse._ArgumentGroup) -> None:
    """The protocol and its knobs (checked against each other in cli.wire_flags)."""
    cfg.add_argument("--protocol", choices=["openai", "anthropic", "minimax", "zai", "deepseek"],
                     help="the wire and vendor rules: openai (Chat Completions, default), anthropic (Messages), "
                     "minimax, zai, deepseek")
    cfg.add_argument("--thinking", choices=["preserve", "strip"], help="send earlier reasoning back (preserve) or only "
                     "the current tool loop's (strip)")
    cfg.add_argument("--effort", metavar="LEVEL",  # which levels the protocol takes: config.knobs, one line naming them
                     help="reasoning effort: low, medium, high, max (openai also none, minimal, xhigh; unset: the model's default)")
    cfg.add_argument("--cache", choices=["auto", "active"], help="active: cache_control breakpoints (anthropic, minimax)")
    cfg.add_argument("--max-tokens", metavar="N", type=_positive_int, help="the answer's token cap")


def check_session_flags(args: argparse.Namespace) -> None:
    if args.all and not args.list:
        raise UsageError("--all goes with --list")
    if args.continue_ and args.resume is not None:
        raise UsageError("give -c/--continue or --resume ID, not both")
    if args.list and (args.continue_ or args.resume is not None or args.prompt is not None):
        raise UsageError("--list only lists: leave out -c, --resume and -p")
    if any(not spec.strip() for spec in args.allow):
        raise UsageError("--allow needs a spec: a tool (write_file) or a shell command ('shell:git commit')")
    for spec in args.allow:
        problem = allow_spec_problem(spec)
        if problem:
            raise UsageError(f"--allow: {problem}")
    args.allow = [spec.strip() for spec in args.allow]
    if args.other_folder and not (args.continue_ or args.resume):
        raise UsageError("--other-folder goes with -c or --resume ID")



def session_parser(command: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=f"mrsmith {command}")
    p.add_argument("id", metavar="ID", help="a session id or its start or end, as mrsmith --list shows it, or a transcript file")
    if command == "export":
        p.add_argument("path", metavar="PATH", nargs="?", help="where to write the Markdown (default ./mrsmith-<id>.md; - for stdout)")
        p.add_argument("--force", action="store_true", help="replace PATH if it exists (else an existing file is kept)")
    p.add_argument("--config", metavar="PATH", type=Path, help="config file")
    p.add_argument("--sessions-dir", metavar="DIR", help="where transcripts are")
    p.add_argument("--theme", metavar="NAME", help="UI theme (view)")
    return p
