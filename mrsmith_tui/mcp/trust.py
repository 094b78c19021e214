"""Which project servers may start: a `.mcp.json` that came with a cloned repository runs programs
and can name your tokens, so none of its servers starts before the person trusts it.

    ask     (the TUI) the first time a project server would start, the person is asked once,
            through the session's Approver (so the prompt never steals keys): "always" is
            remembered in the per-user trust store (security.trust_store), "yes" holds for
            this session, "no" leaves it off (/mcp enable asks again)
    yes     (--mcp-trust) every project server starts, for this run
    stored  (headless) only the servers already trusted start; one stderr line names the others

The user's own file (~/.config/mrsmith/mcp.json) is the person's: its servers start at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Literal

from mrsmith_tui import msgs
from mrsmith_tui.mcp.config import PROJECT_FILE, ServerSpec
from mrsmith_tui.mcp.hub import WAITING_FOR_TRUST, McpHub
from mrsmith_tui.security.trust_store import TrustStore
from mrsmith_tui.tools.base import ApprovalQuery, Approver

__all__ = ["KIND", "TrustMode", "TrustPolicy", "trust_query"]

TrustMode = Literal["ask", "yes", "stored"]
KIND = "mcp"


def trust_query(spec: ServerSpec) -> ApprovalQuery:
    """The prompt: what would run (command or URL) and every variable it expands (names, never values)."""
    what = "connect to" if spec.transport == "http" else "run"
    lines = [f"{spec.origin} asks to {what}:", f"  {spec.shown()}"]
    if spec.cwd:
        lines.append(f"  in {spec.cwd}")
    if spec.env:
        lines.append("  with its variables " + ", ".join(k for k, _ in spec.env))
    if spec.headers:
        lines.append("  with the headers " + ", ".join(k for k, _ in spec.headers))
    if spec.variables:
        lines.append("  expanding " + ", ".join(f"${{{v}}}" for v in spec.variables) + " from your environment")
    lines.append('"always" trusts it in this folder until its entry changes; "yes" for this session only.')
    return ApprovalQuery(
        tool=f"project MCP server {spec.name}", arguments="\n".join(lines), rule="network" if spec.transport == "http" else "runs",
        spec=f"MCP server {spec.name} trusted in this folder (until its entry changes)",
        reason=f"{'connect to' if spec.transport == 'http' else 'start'} the MCP server {spec.name} of {PROJECT_FILE}",
    )


class TrustPolicy:
    """Decides, for a hub, which servers start; asks in a thread of its own (never the UI's)."""

    def __init__(self, hub: McpHub, *, mode: TrustMode, approver: Approver | None, store: TrustStore,
                 emit: Callable[[msgs.Msg], None]) -> None:
        self.hub = hub
        self.mode = mode
        self.approver = approver
        self.store = store
        self.emit = emit
        self._session_yes: set[tuple[str, str]] = set()  # (name, digest) trusted for this session
        self._asking = threading.Lock()

    def trusted(self, spec: ServerSpec) -> bool:
        return (spec.source == "user" or self.mode == "yes" or (spec.name, spec.digest) in self._session_yes
                or self.store.is_trusted(self.hub.root, KIND, spec.digest))

    def start_all(self) -> None:
        """Start what may start; ask about the rest (mode ask) or say which stay off (mode stored)."""
        hub = self.hub
        ready: list[str] = []
        unsure: list[str] = []
        for name in hub.names():
            spec = hub.spec(name)
            if spec is None or spec.disabled:
                continue
            if spec.error and self.trusted(spec):
                continue  # failed, with its config error (the hub said so)
            (ready if self.trusted(spec) else unsure).append(name)  # an untrusted one is left off, broken or not
        hub.start(ready)
        if self.store.problem:
            self.emit(msgs.Warning(text=self.store.problem, code="mcp"))
        if not unsure:
            return
        if self.mode != "ask" or self.approver is None:
            for name in unsure:
                hub.mark_untrusted(name, "not trusted: run with --mcp-trust, or trust it once in the TUI")
            self.emit(msgs.Warning(
                text=f"project MCP server{'s' if len(unsure) > 1 else ''} {', '.join(unsure)} ({PROJECT_FILE}) left off: "
                     "not trusted in this folder; rerun with --mcp-trust, or start mrsmith here and answer \"always\"",
                code="mcp-untrusted"))
            return
        for name in unsure:
            hub.mark_untrusted(name, WAITING_FOR_TRUST)
        threading.Thread(target=self._ask_each, args=(unsure,), name="mrsmith-mcp-trust", daemon=True).start()

    def enable(self, name: str) -> None:
        """/mcp enable or reconnect: a project server nobody trusted asks first (in a thread)."""
        spec = self.hub.spec(name)
        if spec is None:
            return
        if self.trusted(spec):
            self.hub.enable(name)
            return
        if self.mode != "ask" or self.approver is None:
            self.hub.mark_untrusted(name, "not trusted: run with --mcp-trust")
            return
        self.hub.mark_untrusted(name, WAITING_FOR_TRUST)
        threading.Thread(target=self._ask_each, args=([name],), name="mrsmith-mcp-trust", daemon=True).start()

    def _ask_each(self, names: list[str]) -> None:
        assert self.approver is not None
        with self._asking:  # one prompt at a time
            for name in names:
                spec = self.hub.spec(name)
                if spec is None:
                    continue
                status = self.hub.status(name)
                if status is not None and status.state != "untrusted":
                    continue  # the person did something else with it meanwhile
                answer = self.approver.approve(trust_query(spec))
                if answer == "always":
                    try:
                        self.store.trust(self.hub.root, KIND, spec.digest, name=name)
                    except OSError as e:
                        self.emit(msgs.Warning(text=f"could not remember the trust in {self.store.path}: {e.strerror or e}",
                                               code="mcp"))
                if answer in ("yes", "always"):
                    self._session_yes.add((name, spec.digest))
                    self.hub.enable(name)
                else:
                    self.hub.mark_untrusted(name, f"not trusted: /mcp enable {name} asks again")
