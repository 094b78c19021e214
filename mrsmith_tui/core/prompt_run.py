"""One prompt from a frontend, the TUI's worker and headless alike: `run_prompt`.

Only what the person typed has a syntax (`typed=True`: the TUI's prompt, `-p PROMPT`):
- `!command` (the very first character is `!`) runs the command in the root with the shell tool's
  runner. The person typed it, so nothing asks; its output (bounded, redacted) is shown as a shell
  block and goes into the context before the next prompt, so the model can read what happened.
- `@path` mentions are read (core.mentions) and attached to the prompt, which is sent as typed.

Everything else is literal (`typed=False`): piped stdin, a file's text, a custom command expanded
from a Markdown file. Such text is sent to the model as it is: nothing in it runs and nothing it
names is read, whatever it starts with or holds (a cloned repository's command file cannot run
`!rm -rf ~` or attach `@.env` by being invoked).
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mrsmith_tui import msgs
from mrsmith_tui.cancel import Cancelled, CancelToken
from mrsmith_tui.core.prompt_syntax import parse_prompt
from mrsmith_tui.security.redact import PROCESS
from mrsmith_tui.security.sensitive import SensitivePaths
from mrsmith_tui.security.tree_secrets import learn_tree_secrets
from mrsmith_tui.tools.base import ToolContext

if TYPE_CHECKING:
    from mrsmith_tui.core.conversation import RunResult
    from mrsmith_tui.core.session_api import Session

__all__ = ["CONTEXT_CHARS", "TYPED_TIMEOUT_MS", "CommandResult", "run_prompt"]

TYPED_TIMEOUT_MS = 600_000  # a command the person typed gets the shell tool's longest timeout
# The shell tool keeps the start and end of stdout and of stderr (MAX_OUTPUT each, a note saying what was
# cut between them); this guard is larger, so it never cuts that note away.
CONTEXT_CHARS = 100_000 + 2_000
_ids = itertools.count(1)

Sink = Callable[[msgs.Msg], None]


@dataclass(frozen=True)
class CommandResult:
    """A `!command` that ran (or was cancelled): what it printed, as the context holds it."""

    command: str
    output: str  # stdout, then `[stderr]` and stderr, then `[exit code N]`; bounded and redacted
    exit_code: int | None
    cancelled: bool = False
    timed_out: bool = False


def _drop(_: msgs.Msg) -> None:
    pass


def run_prompt(session: Session, text: str, cancel: CancelToken, *, typed: bool, sink: Sink | None = None,
               attachments: Sequence[tuple[str, str]] = (), live: bool = True) -> RunResult | CommandResult:
    """Run one prompt: a turn of the session, or (typed `!command`) the command.

    `typed`: True only for text the person typed (the TUI's prompt, `-p`); then a leading `!` runs a
    command and `@path` mentions are attached. False for text from anywhere else (piped stdin, a
    file, an expanded custom command): it goes to the model exactly as given, never parsed.
    `sink` shows what the syntax did (MentionsRead, the command's block and CommandRan);
    `live=False` leaves out the command's live output (headless prints it whole at the end).
    Blocks: call it from a worker thread. A secret mention asks through the session's gate.
    """
    show = sink or _drop
    if not typed:
        return session.run(text, cancel, attachments=attachments)
    parsed = parse_prompt(text)
    if parsed.command is not None:
        if attachments:  # -f FILE, piped stdin: a command has no prompt for them to go with
            labels = ", ".join(label for label, _ in attachments)
            show(msgs.Warning(text=f"not used by a !command (it sends nothing to the model): {labels}", code="unused"))
        return run_command(session, parsed.command, cancel, show, live=live)
    if not parsed.mentions:
        return session.run(text, cancel, attachments=attachments)
    from mrsmith_tui.core.mentions import read_mentions  # only a prompt with mentions needs it

    ctx = ToolContext(root=session.cwd, cancel=cancel, approver=session.gate.approver, emit=show)
    try:
        read = read_mentions(parsed.mentions, gate=session.gate, ctx=ctx,
                             sensitive=SensitivePaths(session.config.sensitive_paths))
        show(msgs.MentionsRead(attached=read.attached, refused=read.refused))
        cancel.check()
    except Cancelled:  # Esc while a mention waited for its approval: nothing is sent
        from mrsmith_tui.core.conversation import RunResult

        show(msgs.Notice(text="cancelled: the prompt was not sent (Up recalls it)"))
        return RunResult(final_text="", cancelled=True)
    return session.run(text, cancel, attachments=tuple(attachments) + read.attachments)


def run_command(session: Session, command: str, cancel: CancelToken, sink: Sink, *, live: bool = True) -> CommandResult:
    """`command` in the root through the shell tool's runner (scrubbed environment, process group
    killed on cancel or timeout, bounded output); shown as a shell block, its redacted output put in
    the context for the next prompt."""
    from mrsmith_tui.tools.builtin import builtin_tools
    from mrsmith_tui.tools.shell.tool import ShellTool, cap_output

    shell = next(t for t in builtin_tools(session.agent, session.config) if isinstance(t, ShellTool))
    call_id = f"cmd-{next(_ids)}"
    args = {"command": command, "timeout_ms": TYPED_TIMEOUT_MS}
    first = command.strip().splitlines()[0][:200] if command.strip() else ""

    def output(chunk: str) -> None:
        if live:
            sink(msgs.ToolOutput(call_id=call_id, text=chunk))

    ctx = ToolContext(root=session.cwd, cancel=cancel, approver=session.gate.approver, emit=sink, output=output)
    sink(msgs.UserPrompt(run_id=call_id, text="!" + command))
    sink(msgs.ToolCallStarted(call_id=call_id, name="shell", arguments=json.dumps({"command": command}), summary="!" + first))
    learn_tree_secrets(session.cwd, SensitivePaths(session.config.sensitive_paths))
    began = time.monotonic()
    result = PROCESS.redact_value(shell.run(args, ctx))
    elapsed = time.monotonic() - began
    content = cap_output(result.content, CONTEXT_CHARS)
    cancelled = cancel.cancelled
    timed_out = "[timed out after" in content and not result.ok
    sink(msgs.ToolCallFinished(call_id=call_id, name="shell", ok=result.ok, result=content, exit_code=result.exit_code,
                               elapsed=elapsed))
    done = CommandResult(command=command, output=content, exit_code=result.exit_code, cancelled=cancelled,
                         timed_out=timed_out)
    session.add_context(context_text(done))
    sink(msgs.CommandRan(command=command, output=content, exit_code=result.exit_code, cancelled=cancelled))
    return done


def context_text(done: CommandResult) -> str:
    """What the model reads before the next prompt: who ran what, and what it printed."""
    how = " (cancelled by the person)" if done.cancelled else ""
    return (f"The person ran a command themselves in the working directory (not a tool call of yours){how}:\n"
            f"$ {done.command}\n{done.output}")


def command_exit_code(done: CommandResult) -> int:
    """Headless `-p '!cmd'` exits with the command's own code; 130 when cancelled, 1 when it was
    killed (timeout) or never started."""
    if done.cancelled:
        return 130
    if done.exit_code is None or done.exit_code < 0 or done.timed_out:
        return 1
    return done.exit_code
