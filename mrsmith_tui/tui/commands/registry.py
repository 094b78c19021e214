"""The slash commands as objects, and the registry that /help, completion and the palette read.

A command carries its name (and aliases), its help line, how it reads its argument and `run`, which
carries it out through a `CommandContext`: the few things of the shell a command may touch (the
session, notes on screen, a worker thread, a modal). `update` reads the registry too, but only the
data (names, help, flags, completion): it never calls `run`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar

from mrsmith_tui.errors import message_of
from mrsmith_tui.msgs import Msg
from mrsmith_tui.tui.model import Model, WorkerDone

if TYPE_CHECKING:
    from textual.screen import Screen

    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.config.schema import Config
    from mrsmith_tui.core.session_api import Session

NoteKind = Literal["notice", "warning", "error"]
Args = TypeVar("Args")
Answer = TypeVar("Answer")


class CommandContext(Protocol):
    """What a command may use. The shell implements it (shell/command_context.py); tests fake it."""

    @property
    def session(self) -> Session | None: ...  # None before it is built

    @property
    def config(self) -> Config: ...

    @property
    def model(self) -> Model: ...  # the screen's model as it is now (read only)

    @property
    def themes(self) -> frozenset[str]: ...

    @property
    def theme(self) -> str: ...  # the theme on screen now

    @property
    def sessions_root(self) -> Path | None: ...  # None: this screen cannot switch sessions

    def emit(self, msg_type: type[Msg], **fields: Any) -> None:
        """Fold a UI Msg into the model now, stamped with the clock (text is cleaned for the screen)."""

    def emit_later(self, msg_type: type[Msg], **fields: Any) -> None:
        """The same from any thread (a worker): queued behind the Msgs already on their way."""

    def note(self, text: str, kind: NoteKind = "notice") -> None:
        """A line of the command's result in the conversation."""

    def run_in_worker(self, job: Callable[[CancelToken], str | None]) -> None:
        """Run `job` in a worker thread like a turn (Esc cancels its token); its text becomes a note."""

    def cancel_requests(self) -> None:
        """Refuse every request waiting for the person (their modals leave)."""

    def ask(self, screen: Screen[Answer], answered: Callable[[Answer | None], None]) -> None:
        """Push a modal; `answered` gets what it dismissed with."""

    def set_theme(self, name: str) -> None: ...

    def switch_session(self, session_id: str) -> None:
        """Put another recorded session on screen in place of this one."""


class CommandError(Exception):
    """A command's own one-line refusal (a bad argument, a missing service): shown as `/name: message`."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SlashCommand(Generic[Args]):
    """One /command. Subclasses set the class attributes and override `parse` and `run`."""

    name: ClassVar[str]  # "/usage"
    summary: ClassVar[str]  # what /help says it does
    usage: ClassVar[str] = ""  # its argument: "<name>" required, "[path]" optional, "" none
    aliases: ClassVar[tuple[str, ...]] = ()
    rank: ClassVar[int]  # where it stands in /help, completion and the palette (lower first)
    needs_session: ClassVar[bool] = True  # refused with "no session" before the session is built
    waits_for_run: ClassVar[bool] = False  # refused while a run goes
    in_worker: ClassVar[bool] = False  # takes the run's place until its worker is done (Esc cancels)
    answered_on_screen: ClassVar[bool] = False  # update answers it from the model; `run` is never called

    @property
    def needs_argument(self) -> bool:
        return self.usage.startswith("<")

    @property
    def help_line(self) -> str:
        """What /help and the palette show after the name: usage, then summary."""
        return f"{self.usage}  {self.summary}" if self.usage else self.summary

    def parse(self, arg: str) -> Args:
        """The argument as the command reads it (raises CommandError when it cannot). By default the text."""
        return arg.strip()  # type: ignore[return-value]

    def run(self, ctx: CommandContext, args: Args) -> None:
        raise NotImplementedError(f"{self.name} is answered by update, not run")

    def argument_choices(self, model: Model) -> tuple[str, ...]:
        """What Tab offers after the name (agent names, theme names, sub-commands)."""
        return ()

    def complete(self, model: Model, arg: str) -> tuple[str, ...]:
        """The whole drafts Tab offers for `/name arg…`."""
        return tuple(f"{self.name} {c}" for c in self.argument_choices(model) if c.startswith(arg) and c != arg)


class NoArgCommand(SlashCommand[None]):
    """A command that takes no argument (any text after its name is ignored)."""

    def parse(self, arg: str) -> None:
        return None


class CommandRegistry:
    """The commands in rank order, found by name or alias."""

    def __init__(self, commands: Iterable[SlashCommand[Any]]) -> None:
        self._commands = tuple(sorted(commands, key=lambda c: c.rank))
        self._by_name: dict[str, SlashCommand[Any]] = {}
        for command in self._commands:
            for name in (command.name, *command.aliases):
                if name in self._by_name:
                    raise ValueError(f"two commands are called {name}")
                self._by_name[name] = command

    def __iter__(self) -> Iterator[SlashCommand[Any]]:
        return iter(self._commands)

    def find(self, name: str) -> SlashCommand[Any] | None:
        return self._by_name.get(name)

    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self._commands)

    def help_text(self) -> str:
        width = max(len(c.name) for c in self._commands)
        lines = []
        for c in self._commands:
            also = f"  (also {', '.join(c.aliases)})" if c.aliases else ""
            lines.append(f"{c.name.ljust(width)}  {c.help_line}{also}")
        return "Commands\n" + "\n".join(lines)

    def close_to(self, name: str) -> str | None:
        """The command (or alias) a mistyped name most likely meant: one typo away (two for a long
        name), or a name it starts; never a merely similar-looking word (`/init` is not `/exit`)."""
        every = [n for c in self._commands for n in (c.name, *c.aliases)]
        starts = [n for n in every if len(name) >= 3 and n.startswith(name)]
        if len(starts) == 1:
            return starts[0]
        limit = 2 if len(name) >= 8 else 1
        best = min(every, key=lambda n: typo_distance(name, n))
        return best if typo_distance(name, best) <= limit else None


def typo_distance(a: str, b: str) -> int:
    """Edits from `a` to `b`, a swap of two neighbours counting as one (optimal string alignment)."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def session_of(ctx: CommandContext) -> Session:
    """The session of a command that needs one (run_command refuses such a command before it is built)."""
    session = ctx.session
    if session is None:
        raise CommandError("no session")
    return session


def run_command(registry: CommandRegistry, ctx: CommandContext, name: str, arg: str) -> None:
    """Carry out `name arg` (update has checked it): a failure is one line on screen, never a traceback.
    A command that took the run's place gives it back when it fails before its worker starts."""
    command = registry.find(name)
    if command is None:
        ctx.note(f"{name}: unknown command", "error")
        return
    if ctx.session is None and command.needs_session:
        ctx.note(f"{name}: no session", "error")
        if command.in_worker:
            ctx.emit_later(WorkerDone)
        return
    try:
        command.run(ctx, command.parse(arg))
    except Exception as e:
        text = message_of(e)
        ctx.note(f"{name}: {text}", "error")
        if command.in_worker:
            ctx.emit_later(WorkerDone)

