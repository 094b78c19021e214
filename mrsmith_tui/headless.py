"""The headless frontend: the same Msgs the TUI shows, folded into a plain log or JSON lines.

`fold(state, msg, color=...)` is pure: it returns the new state and the text for stdout
and stderr. The answer goes to stdout; reasoning, tool activity, warnings and agent
events go to stderr, so `mrsmith -p ... > answer.md` keeps only the answer. `HeadlessPrinter`
is the thread-safe Sink that writes what `fold` returns; `run_headless` runs one prompt in
a worker thread while the main thread waits, so Ctrl-C can cancel it.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TextIO

from mrsmith_tui import msgs
from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.coalesce import FRAME_SECONDS, CoalescingSink
from mrsmith_tui.core.outbound import OutboundFilter
from mrsmith_tui.core.prompt_run import CommandResult, command_exit_code, run_prompt
from mrsmith_tui.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_MAX_ROUNDS, EXIT_OK, EXIT_USAGE
from mrsmith_tui.headless_lines import DIM, RED, YELLOW, agent_lines, lines_for, paint
from mrsmith_tui.security.redact import PROCESS, Redactor, map_strings
from mrsmith_tui.security.terminal_text import clean, json_safe
from mrsmith_tui.silence import QUIET_AFTER, SilenceWatch

if TYPE_CHECKING:
    from mrsmith_tui.core.conversation import RunResult
    from mrsmith_tui.core.session_api import Session
    from mrsmith_tui.tools.approval import ApprovalGate

__all__ = ["CONTINUE_HINT", "EXIT_FAILED", "EXIT_INTERRUPTED", "EXIT_MAX_ROUNDS", "EXIT_OK", "EXIT_USAGE", "FoldState",
           "HeadlessPrinter", "fold", "json_line", "permissions_in_force", "run_headless",
           "wants_color"]

# After a run stopped by the tool-round cap (exit 3): how to go on from where it stopped.
CONTINUE_HINT = "stopped at maxToolRounds; continue where it stopped with: mrsmith -c -p continue"


@dataclass(frozen=True)
class FoldState:
    out_at_line_start: bool = True
    err_at_line_start: bool = True
    errors_shown: tuple[str, ...] = ()  # error lines already printed (never print one twice)


def permissions_in_force(gate: ApprovalGate, *, approve_all: bool = False) -> msgs.PermissionsInForce:
    """The gate's permissions as the Msg a headless run reports before it starts."""
    specs = tuple(msgs.Allowed(spec=p.spec, origin=p.origin) for p in gate.permissions())
    return msgs.PermissionsInForce(specs=specs, approve_all=approve_all)


def fold(state: FoldState, m: msgs.Msg, *, color: bool = False) -> tuple[FoldState, str, str]:
    """One Msg into (new state, text for stdout, text for stderr)."""
    out, err = "", ""

    def lines(items: list[tuple[str, str | None]]) -> None:
        nonlocal err, state
        if not items:
            return
        if not state.err_at_line_start:
            err += "\n"
        err += "".join(paint(text, code, color) + "\n" if code else text + "\n" for text, code in items)
        state = replace(state, err_at_line_start=True)

    def error(text: str) -> None:
        nonlocal state
        if text in state.errors_shown:
            return
        lines([(f"error: {text}", RED)])
        state = replace(state, errors_shown=state.errors_shown + (text,))

    if isinstance(m, msgs.TextDelta):
        if m.text:
            out = m.text
            state = replace(state, out_at_line_start=m.text.endswith("\n"))
    elif isinstance(m, msgs.ReasoningDelta):
        if m.text:
            err = paint(m.text, DIM, color)
            state = replace(state, err_at_line_start=m.text.endswith("\n"))
    elif isinstance(m, msgs.BlockEnded):
        # Close the block's line so tool lines and the next block start on their own.
        if m.kind == "text" and not state.out_at_line_start:
            out, state = "\n", replace(state, out_at_line_start=True)
        elif m.kind == "reasoning" and not state.err_at_line_start:
            err, state = "\n", replace(state, err_at_line_start=True)
    elif isinstance(m, msgs.ToolOutput):
        if m.text:
            err = paint(m.text, DIM, color)
            state = replace(state, err_at_line_start=m.text.endswith("\n"))
    elif isinstance(m, msgs.Error):
        error(m.text)
    elif isinstance(m, msgs.RunEnded):
        if not state.out_at_line_start:
            out, state = "\n", replace(state, out_at_line_start=True)
        if m.error:
            error(m.error)
        elif m.cancelled:
            lines([("interrupted", YELLOW)])
        elif m.reason == "max_rounds":
            lines([(CONTINUE_HINT, YELLOW)])
    elif isinstance(m, msgs.FromAgent):
        lines(agent_lines(m.agent_id, m.msg))
    elif isinstance(m, msgs.CommandRan):  # `-p '!cmd'`: what it printed is the answer
        out = m.output.removesuffix(f"[exit code {m.exit_code}]").rstrip("\n")
        out, state = (out + "\n" if out else ""), replace(state, out_at_line_start=True)
    else:
        lines(lines_for(m))
    return state, out, err


def _recorded(m: msgs.Msg) -> bool:
    """A Msg the transcript keeps for the history (msgs.Recorded): not part of the `--json` stream."""
    while isinstance(m, msgs.FromAgent):
        m = m.msg
    return isinstance(m, msgs.Recorded)


def json_line(m: msgs.Msg) -> str:
    """One JSON line; control and bidi characters escaped (\\u001b), so even a terminal shows it as text.
    A usage event carries `cache_pct` beside its token counts (0-100, null when the server did not say)."""
    data = msgs.to_json(m)
    inner, usage_of = data, m
    while isinstance(usage_of, msgs.FromAgent):
        inner, usage_of = inner["msg"], usage_of.msg
    if isinstance(usage_of, msgs.UsageReported):
        pct = usage_of.usage.cache_pct
        inner["usage"]["cache_pct"] = None if pct is None else round(pct, 1)
    return json_safe(json.dumps(data, ensure_ascii=False)) + "\n"


def wants_color(stream: TextIO, env: dict[str, str] | Any) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set to anything non-empty."""
    if env.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class HeadlessPrinter:
    """The Sink of a headless run: folds each Msg and writes it (thread-safe).

    The core emits every streamed delta; the printer merges the deltas of one stream to at most
    one write (one JSON line) per `interval` (0: every delta as it comes), so a fast model costs
    a few writes a frame, not one a token. Every Msg then passes the OutboundFilter: secrets
    redacted (a key cut across deltas too), and terminal controls in the text shown as
    `␛[2J`-style stand-ins (JSON lines escape them instead), so the only escape sequences
    written are the printer's own colours, on a terminal's stderr.
    """

    def __init__(self, out: TextIO, err: TextIO, *, json_lines: bool = False, color: bool = False,
                 redactor: Redactor = PROCESS, interval: float = FRAME_SECONDS, quiet_after: float = QUIET_AFTER) -> None:
        self.out, self.err = out, err
        self.json_lines = json_lines
        self.color = color
        self.redactor = redactor
        self._outbound = OutboundFilter(redactor, clean=None)  # redaction; cleaning below, per output
        self.state = FoldState()
        self._lock = threading.Lock()
        self._broken: set[int] = set()
        self.on_broken_stdout: Callable[[], None] = lambda: None
        self._coalesced = CoalescingSink(self._show, interval=interval) if interval > 0 else None
        self.silence = SilenceWatch(quiet_after)  # how long the model has said nothing (waiting())

    def __call__(self, m: msgs.Msg) -> None:
        self.silence.saw(m)
        if self._coalesced is not None:
            self._coalesced(m)
        else:
            self._show(m)

    def flush(self) -> None:
        """Write the deltas held back for the current frame now."""
        if self._coalesced is not None:
            self._coalesced.flush()

    def _show(self, m: msgs.Msg) -> None:
        with self._lock:
            for shown in self._outbound(m):
                self._print(shown)

    def _print(self, m: msgs.Msg) -> None:
        state, out, err = fold(self.state, map_strings(m, clean), color=self.color)
        self.state = state
        if self.json_lines:
            # stdout is the machine's; the person still gets the one error line on stderr.
            out = "" if _recorded(m) else json_line(m)
            err = err if isinstance(m, (msgs.Error, msgs.RunEnded)) and "error: " in err else ""
        self._write(self.out, out)
        self._write(self.err, err)

    def error_line(self, text: str) -> None:
        """An error the run did not report itself (printed once)."""
        text = clean(self.redactor.redact(text))
        self.flush()  # the text streamed before it comes first
        with self._lock:
            if text in self.state.errors_shown:
                return
            self.state = replace(self.state, errors_shown=self.state.errors_shown + (text,))
            self._own_line(f"error: {text}", RED)

    def waiting(self, session: Session) -> None:
        """Once the model has been silent a while, say so on stderr (never on the `--json` stdout)."""
        if (silent := self.silence.due()) is not None:
            name = session.agent.provider
            # the provider's name comes from a config file: shown as text, like every other line here
            line = clean(self.redactor.redact(self.silence.notice(silent, name, session.config.provider(name).read_timeout)))
            self.flush()
            with self._lock:
                self._own_line(line, DIM)

    def _own_line(self, text: str, code: str) -> None:
        self._write(self.err, ("" if self.state.err_at_line_start else "\n") + paint(text, code, self.color) + "\n")
        self.state = replace(self.state, err_at_line_start=True)

    def _write(self, stream: TextIO, text: str) -> None:
        if not text or id(stream) in self._broken:
            return
        try:
            stream.write(text)
            stream.flush()
        except BrokenPipeError:  # `mrsmith -p ... | head`: the reader is gone
            self._broken.add(id(stream))
            _point_at_devnull(stream)  # so the flush at exit does not complain
            if stream is self.out:
                self.on_broken_stdout()  # nobody reads the answer: stop the run


def _point_at_devnull(stream: TextIO) -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def run_headless(
    session: Session,
    prompt: str,
    *,
    printer: HeadlessPrinter,
    attachments: Sequence[tuple[str, str]] = (),
    grace_seconds: float = 3.0,
    typed: bool = False,
) -> int:
    """Run one prompt to the end and return the exit code (0, 1, 3 or 130; see mrsmith_tui.errors).

    `typed`: the person typed `prompt` (`-p`): a leading `!` runs it as a command (its output on
    stdout, its exit code returned) and `@path` mentions are attached (core.prompt_run). False (the
    default) for text from anywhere else (piped stdin, an expanded custom command): sent as it is.

    The run blocks in a worker thread; the main thread waits in short joins so SIGINT is
    handled at once: the first Ctrl-C cancels the token (the stream closes, a running
    tool's process group is killed), a second one, or a run that does not stop within
    `grace_seconds`, gives up waiting. While it waits, a model silent for a while gets a line on stderr
    naming its provider (HeadlessPrinter.waiting, silence.py).
    """
    cancel = CancelToken()
    printer.on_broken_stdout = cancel.cancel
    results: list[RunResult | CommandResult] = []
    failures: list[BaseException] = []

    def work() -> None:
        try:
            results.append(run_prompt(session, prompt, cancel, typed=typed, sink=printer, attachments=attachments,
                                      live=printer.json_lines))
        except BaseException as e:  # handed to the main thread, which reports it (cli.main: one line)
            failures.append(e)

    worker = threading.Thread(target=work, name="mrsmith-run", daemon=True)
    interrupts: list[float] = []

    def on_sigint(signum: int, frame: Any) -> None:
        interrupts.append(time.monotonic())
        cancel.cancel()

    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_sigint) if in_main else None
    try:
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
            printer.waiting(session)
            if interrupts and (len(interrupts) > 1 or _since(interrupts[0]) > grace_seconds):
                break
    finally:
        if in_main:
            signal.signal(signal.SIGINT, previous)

    printer.flush()  # a run that ended without RunEnded (a bug, an interrupt) may have left deltas held
    if interrupts:
        if worker.is_alive():
            printer.error_line("interrupted (the run did not stop in time)")
        return EXIT_INTERRUPTED
    if failures:
        raise failures[0]
    result = results[0]
    if isinstance(result, CommandResult):
        return command_exit_code(result)
    if result.cancelled:
        return EXIT_INTERRUPTED
    if result.error:
        printer.error_line(result.error)
        return EXIT_FAILED
    if getattr(result, "reason", "") == "max_rounds":
        return EXIT_MAX_ROUNDS
    return EXIT_OK


def _since(t: float) -> float:
    return time.monotonic() - t

