"""The errors mrsmith raises on purpose, and how the program ends when one reaches the top.

Every such error is a `MrSmithError`: it carries the exit code the CLI ends with and a
message that reads as one line. `exit_code_for` and `error_line` are the one mapping from an
exception to what `mrsmith` prints (`mrsmith: error: <line>`) and the code it exits with:

    0    done                                  EXIT_OK
    1    the run failed, or anything unexpected EXIT_FAILED
    2    a mistake the person can fix            EXIT_USAGE (UsageError, ConfigError, SessionNotFound, ExportError)
    3    stopped at maxToolRounds                EXIT_MAX_ROUNDS (a run's outcome, not an error)
    130  interrupted                            EXIT_INTERRUPTED

A mistake the person can fix speaks for itself; any other error is named by its type too
(`ProviderError: …`), as an unexpected one is, so a bug report says where it came from.
This is a base module: it imports nothing of the package.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_MAX_ROUNDS",
    "EXIT_OK",
    "EXIT_USAGE",
    "MrSmithError",
    "error_line",
    "exit_code_for",
    "one_line",
]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_MAX_ROUNDS, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

_LINE_BREAKS = ("\r\n", "\r", "\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def one_line(text: str) -> str:
    """`text` as one line: surrounding blanks dropped, every line break inside shown as ` ␤ `.

    Other control characters are left for the output path (security.terminal_text.clean
    shows them as visible stand-ins); only breaks would split the line.
    """
    text = text.strip()
    for brk in _LINE_BREAKS:
        if brk in text:
            text = " ␤ ".join(part.strip() for part in text.split(brk))
    return text


class MrSmithError(Exception):
    """The base of every error mrsmith raises on purpose.

    `exit_code`: what `mrsmith` exits with when this error ends the program. `one_line()`:
    the message as one line. A subclass may keep another base (ValueError, OSError) where
    callers catch it that way.
    """

    exit_code: ClassVar[int] = EXIT_FAILED

    def one_line(self) -> str:
        return one_line(str(self))


def exit_code_for(error: BaseException) -> int:
    """The exit code of a program ended by `error`."""
    if isinstance(error, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    if isinstance(error, MrSmithError):
        return error.exit_code
    return EXIT_FAILED


def message_of(error: BaseException) -> str:
    """The words an error was raised with, for a note on screen: its `message` (ProviderError,
    FleetError, ConfigError, ... keep one), else `str(error)`, else its type's name."""
    return getattr(error, "message", None) or str(error) or type(error).__name__


def error_line(error: BaseException) -> str:
    """What follows `mrsmith: error: ` for `error` (one line; the caller redacts and cleans it)."""
    if isinstance(error, MrSmithError) and error.exit_code == EXIT_USAGE:
        return error.one_line()
    text = str(error).strip()
    detail = text.splitlines()[0] if text else ""
    return type(error).__name__ + (f": {detail}" if detail else "")
