"""What is in place before mrsmith starts its first child process (a tool's command, an MCP server, an
apiKeyCommand, the editor): the process is not dumpable, so a child running as the same user cannot read
the keys out of its memory or its /proc environ (security.environment), and background shell jobs end with
mrsmith while what its children leave behind is reaped (tools.jobs).

Both load ctypes, and the jobs' module comes with them: ~4 ms that the TUI's first frame does not need
(#26). A headless run does it before it builds the session; the TUI once its first frame is on screen,
before it composes the session — or before the first frame when an apiKeyCommand is to run then.
"""

from __future__ import annotations

_done = False


def guard() -> None:
    """Once, on the main thread (signal handlers are set there)."""
    global _done
    if _done:
        return
    _done = True
    from mrsmith_tui.security.environment import keep_process_private
    from mrsmith_tui.tools.jobs import stop_jobs_at_exit

    keep_process_private()
    stop_jobs_at_exit()
