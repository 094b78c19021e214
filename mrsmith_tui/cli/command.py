"""`mrsmith`'s main: the composition root (its command line: cli.args).

Loads the config (file < environment < flags), builds the approver and the session, and
hands them to the headless frontend (`-p`, or a prompt piped on stdin) or the full-screen
UI. Every failure the person can fix is one line on stderr and exit 2; a failed run is
exit 1; a run stopped by the tool-round cap is exit 3; Ctrl-C is exit 130 (the codes and the
line an error prints: mrsmith_tui.errors, applied in `main` only). A reader of stdout that
goes away (`mrsmith --list | head -1`) ends the program quietly. MRSMITH_DEBUG=1 shows
tracebacks of unexpected errors.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mrsmith_tui.cli import first_child, process_exit, startup_gc, workdir
from mrsmith_tui.cli.args import SESSION_COMMANDS, UsageError, build_parser, check_session_flags
from mrsmith_tui.cli.keys import shown, take_keys
from mrsmith_tui.cli.mode_flags import apply_mode_flags
from mrsmith_tui.cli.session_notes import continue_line, nothing_to_continue
from mrsmith_tui.cli.wire_flags import apply_wire_flags
from mrsmith_tui.config.load import apply_cli, default_config_paths, load_config, resolve_agent, sessions_dir
from mrsmith_tui.config.schema import Config
from mrsmith_tui.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, error_line, exit_code_for

if TYPE_CHECKING:  # the session's modules load only when a session is built (start-up time)
    from mrsmith_tui.core.session_api import Session, Sink
    from mrsmith_tui.tools.base import Approver

# Start-up time to the first frame counts every import made before the UI starts: what only
# the headless run, the session commands or the session itself need is imported where used.

__all__ = ["EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_USAGE", "UsageError", "build_parser", "main"]

# A -f file larger than this is refused rather than sent to the model whole.
MAX_ATTACHMENT_BYTES = 1024 * 1024


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:  # the program's own run: no garbage collection while it starts (cli.startup_gc)
        startup_gc.pause()
    try:
        code = _command(argv)
    finally:
        startup_gc.ready()
    if argv is None:  # a finished headless run ends here, without the interpreter's teardown
        process_exit.flush_stdout()
        process_exit.end(code)
    return code


def _command(argv: Sequence[str] | None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        workdir.check()
        if argv and argv[0] == "mcp":  # `mrsmith mcp list`: its own module
            from mrsmith_tui.cli.mcp_list import main as mcp_main
            return mcp_main(argv[1:])
        if argv and argv[0] == "tools":  # `mrsmith tools list | run`: cli.tools_cmd
            from mrsmith_tui.cli.tools_cmd import main as tools_main
            return tools_main(argv[1:])
        if argv and argv[0] in SESSION_COMMANDS:  # `mrsmith view | export ID`: cli.sessions_cmd
            from mrsmith_tui.cli.sessions_cmd import main as sessions_main
            return sessions_main(argv)
        return _main(build_parser().parse_args(argv))
    except BrokenPipeError:  # `mrsmith --list | head -1`: the reader has what it wanted
        _quiet_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        print("mrsmith: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as e:  # every error ends here: one line, its exit code, never a traceback by default
        code = exit_code_for(e)
        if code != EXIT_USAGE and os.environ.get("MRSMITH_DEBUG"):
            traceback.print_exc()
        print(f"mrsmith: error: {shown(error_line(e))}", file=sys.stderr)
        return code


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's flush at exit does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _main(args: argparse.Namespace) -> int:
    check_session_flags(args)
    if args.list:
        from mrsmith_tui.cli.sessions_cmd import list_sessions
        return list_sessions(args, _load(args))
    headless = args.prompt is not None or not _stdin_is_terminal()
    if headless and args.resume == "":
        raise UsageError("--resume without an ID picks a session on screen; a headless run needs the ID (mrsmith --list)")
    if not headless and (args.json or args.files):
        raise UsageError(f"{'--json' if args.json else '-f'} needs a headless run: give -p PROMPT or pipe a prompt on stdin")
    config = _load(args)
    fresh = nothing_to_continue(config, Path.cwd()) if args.continue_ else None
    if fresh is not None:  # as Claude Code: -c with nothing to continue starts a new session, and says so
        args.continue_, args.fresh_note = False, fresh
    if headless:
        first_child.guard()
        return _run_headless(args, config)
    return _run_tui(args, config)


def _load(args: argparse.Namespace) -> Config:
    config = load_config(args.config)
    config = apply_cli(
        config,
        agent=args.agent,
        sessions_dir=args.sessions_dir,
        context_builder=args.context_builder,
        context_window_ratio=args.context_window_ratio,
        base_url=args.base_url,
        model=args.model,
        api_key=args.api_key,
    )
    return apply_mode_flags(apply_wire_flags(config, args), args)  # --protocol and its knobs (cli.wire_flags), the mode


# --------------------------------------------------------------------------- input


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin is not None and os.isatty(sys.stdin.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout is not None and os.isatty(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def _stdin_is_piped() -> bool:
    """stdin is a pipe or a file (not a terminal, not an inherited socket that never closes)."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (AttributeError, OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode)


def _read_stdin() -> str:  # bounded as -f is: `< /dev/zero`, `yes |` and a 2 GB log are one line
    data = sys.stdin.buffer.read(MAX_ATTACHMENT_BYTES + 1)
    if len(data) > MAX_ATTACHMENT_BYTES:
        raise UsageError(f"stdin: more than the {MAX_ATTACHMENT_BYTES} byte limit (as for -f FILE); pipe a part of it (tail -c 1M)")
    return data.decode("utf-8", errors="replace")


def _prompt_and_attachments(args: argparse.Namespace) -> tuple[str, list[tuple[str, str]]]:
    """The prompt and its attachments. Only `-p PROMPT` is typed (its `!` and `@` mean something,
    core.prompt_run); a prompt piped on stdin is text to send as it is."""
    attachments: list[tuple[str, str]] = []
    if args.prompt is None:  # no terminal on stdin: stdin is the prompt, whatever it is (/dev/null too)
        prompt = _read_stdin().strip() if not _stdin_is_terminal() else ""
        if not prompt:
            raise UsageError("no prompt (stdin was empty; give -p PROMPT or pipe a prompt in)")
    else:
        piped = _read_stdin() if _stdin_is_piped() else ""
        prompt = args.prompt.rstrip() if args.prompt.lstrip().startswith("!") else args.prompt.strip()
        if piped.strip():
            attachments.append(("stdin", piped))
    for name in args.files:
        attachments.append((name, _read_attachment(name)))
    if not prompt:
        raise UsageError("no prompt: give -p PROMPT or pipe one on stdin")
    return prompt, attachments


def _read_attachment(name: str) -> str:
    path = Path(name).expanduser()
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise UsageError(f"-f {name}: not a file")
        if size > MAX_ATTACHMENT_BYTES:
            raise UsageError(f"-f {name}: {size} bytes is more than the {MAX_ATTACHMENT_BYTES} byte limit")
        with path.open("rb") as f:  # read bounded too: the file may grow after its size was read
            data = f.read(MAX_ATTACHMENT_BYTES + 1)
        if len(data) > MAX_ATTACHMENT_BYTES:
            raise UsageError(f"-f {name}: more than the {MAX_ATTACHMENT_BYTES} byte limit")
    except FileNotFoundError:
        raise UsageError(f"-f {name}: no such file") from None
    except OSError as e:
        raise UsageError(f"-f {name}: {e.strerror or e}") from None
    if b"\0" in data:
        raise UsageError(f"-f {name}: looks like a binary file")
    return data.decode("utf-8", errors="replace")


# --------------------------------------------------------------------------- composition


def _build_session(args: argparse.Namespace, config: Config, *, sink: Sink, approver: Approver, replay: bool = False,
                   session_id: str | None = None) -> Session:
    """The session a run needs: a new one, or (-c, --resume, or `session_id` from /sessions) a recorded one,
    with skills, sub-agents and the fleet."""
    from mrsmith_tui.agents.compose import compose_session

    resume = session_id is not None or args.continue_ or bool(args.resume)
    session = compose_session(
        config=config, cwd=Path.cwd(), sink=sink, approver=approver,
        agent_name=None if session_id else args.agent, resume=resume, target=session_id or args.resume,
        replay=replay, other_folder=args.other_folder and session_id is None, persist=not args.no_session,
        allow=args.allow, max_agents=args.max_agents, agent_wait_ms=args.agent_wait_ms,
        mcp_trust="yes" if args.mcp_trust else "ask" if replay else "stored",  # replay: the TUI's session
        tool_trust="yes" if args.trust_project_tools else "ask" if replay else "stored",
        frontend="tui" if replay else "headless",
    )
    if session_id is None and getattr(args, "fresh_note", None):
        from mrsmith_tui import msgs

        sink(msgs.Warning(text=args.fresh_note, code="continue"))
    return session


def _run_headless(args: argparse.Namespace, config: Config) -> int:
    from mrsmith_tui.headless import HeadlessPrinter, permissions_in_force, run_headless, wants_color
    from mrsmith_tui.tools.approval import PolicyApprover

    prompt, attachments = _prompt_and_attachments(args)
    from mrsmith_tui.cli.headless_slash import headless_prompt, slash_outcome  # `-p '/name args'`, `-p /undo`

    slash = headless_prompt(prompt, Path.cwd(), typed=args.prompt is not None)
    prompt = slash.text
    typed = args.prompt is not None and not slash.literal  # an expanded command file is never parsed (core.prompt_run)
    resolve_agent(config, args.agent, config_file=args.config)  # a missing agent: a config error before the run
    config = take_keys(config)
    # -f FILE and piped stdin go to the model as the person gave them, but without mrsmith's own keys and
    # the scrubbed environment values (`-f .env` holding OPENAI_API_KEY): nothing else reaches the model with them.
    from mrsmith_tui.security.redact import PROCESS

    prompt = PROCESS.redact(prompt)
    attachments = [(name, PROCESS.redact(text)) for name, text in attachments]
    printer = HeadlessPrinter(sys.stdout, sys.stderr, json_lines=args.json, color=wants_color(sys.stderr, os.environ))
    session = _build_session(args, config, sink=printer, approver=PolicyApprover(yes=args.yes))
    startup_gc.ready()  # built: what the run allocates is collected as usual
    printer(permissions_in_force(session.gate, approve_all=args.yes))
    printer(session.gate.mode.announce())
    try:
        if (code := slash_outcome(slash, session, yes=args.yes, json_lines=args.json)) is not None:
            return code  # `-c -p /undo [N]` puts back files; `-p /init` without leave to write is one line
        return run_headless(session, prompt, printer=printer, attachments=attachments, typed=typed)
    finally:
        session.close()
        process_exit.allow()  # the transcript is closed: the process may end without its teardown


def _run_tui(args: argparse.Namespace, config: Config) -> int:
    from mrsmith_tui.tui.app import run_tui

    if not config.agents:
        config = _first_run(args, config)
    resolve_agent(config, args.agent)
    config = take_keys(config)
    pick = args.resume == ""  # `--resume` alone: a fresh session, and the picker on screen
    args.resume = args.resume or None
    if (args.continue_ or args.resume) and not args.other_folder:
        args.other_folder = _ask_other_folder(config, args)

    on_screen: list[Session] = []  # the session last built: how to go on with it is said on leaving

    def make_session(sink: Sink, approver: Approver) -> Session:  # built once, after the first frame
        on_screen[:] = [_build_session(args, config, sink=sink, approver=approver, replay=True)]
        return on_screen[0]

    def resume(session_id: str, sink: Sink, approver: Approver) -> Session:  # /sessions
        on_screen[:] = [_build_session(args, config, sink=sink, approver=approver, replay=True, session_id=session_id)]
        return on_screen[0]

    def first_frame() -> None:  # before the session is composed (cli.first_child)
        startup_gc.ready()
        first_child.guard()

    code = run_tui(make_session, config=config, theme=args.theme or config.theme, resume=resume,
                   sessions_root=sessions_dir(config), pick_session=pick, first_frame=first_frame)
    line = continue_line(on_screen[0] if on_screen else None, Path.cwd()) if _stdout_is_terminal() else None
    if line is not None:  # the screen is restored by now: the line stays in the terminal, as Codex's does
        print(shown(line))
    return code


def _ask_other_folder(config: Config, args: argparse.Namespace) -> bool:
    """Before the UI starts: a session of another folder is resumed only when the person says so."""
    from mrsmith_tui.core.resume import OtherFolder, check_folder, load_records, locate_transcript

    path = locate_transcript(config, args.resume, Path.cwd())
    records, _ = load_records(path)
    try:
        check_folder(path, records, Path.cwd(), other_folder=False)
        return False
    except OtherFolder as e:
        answer = input(f"This session belongs to {e.folder}, not this folder ({Path.cwd()}).\n"
                       f"Go on with it, working in {e.folder}? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            raise UsageError("not resumed (the session belongs to another folder)") from None
        return True


def _first_run(args: argparse.Namespace, config: Config) -> Config:
    """No agent configured: the setup screen writes config.toml, then we load it."""
    from mrsmith_tui.tui.screens.setup import run_setup

    path = args.config or default_config_paths()[0]
    if not run_setup(path):  # a person cancelling is not an error (`make run` would say "Error 2")
        print("mrsmith: setup cancelled, nothing written; run mrsmith again to set it up", file=sys.stderr)
        raise SystemExit(EXIT_OK)
    return _load(args)
