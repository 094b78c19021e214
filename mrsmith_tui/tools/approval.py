"""The approval gate in front of every tool call, and the policy approver for headless runs.

The gate asks a tool whether a call needs the person (`tool.approval`), lets it run when a
permission in force covers its spec, and otherwise asks the Approver. Permissions come from
an "always" answer, from `--allow SPEC` or from the config's `allow` list; each keeps its
origin, so `/permissions` can list and revoke them. A refusal is returned as text the model
can read; the run goes on.
"""

from __future__ import annotations

import shlex
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from mrsmith_tui.msgs import Question
from mrsmith_tui.tools.base import (
    PRIVATE_SUFFIX,
    RULE_TEXT,
    ApprovalNeed,
    ApprovalQuery,
    Approver,
    Decision,
    Tool,
    ToolContext,
)
from mrsmith_tui.tools.exact_command import is_exact
from mrsmith_tui.tools.permission_mode import Ask, PermissionMode

Origin = Literal["answer", "--allow", "config"]
MCP_PREFIX = "mcp__"  # an MCP tool's name and spec: mcp__<server>__<tool> (mcp.names)
ORIGIN_TEXT: dict[str, str] = {
    "answer": 'an "always" answer',
    "--allow": "--allow on the command line",
    "config": "the config's allow list",
}


@dataclass(frozen=True)
class Permission:
    spec: str
    origin: Origin

    def covers(self, spec: str, rule: str | None = None) -> bool:
        # What the person answered "always" to is that exact spec; a flag or config entry naming a
        # bare tool (`--allow shell`) covers every spec of that tool, as --allow always did, except a
        # secret's or a private address's spec, which only that exact spec covers.
        return self.spec == spec if self.origin == "answer" else spec_matches(self.spec, spec, rule)


class ApprovalGate:
    """One per session: its permissions hold for every agent of the session. Thread-safe."""

    def __init__(self, approver: Approver, permissions: Iterable[Permission] = (), mode: PermissionMode | None = None) -> None:
        self.approver = approver
        self.mode = mode if mode is not None else PermissionMode()  # asked before any permission (permission_mode)
        self._permissions: list[Permission] = []
        self._lock = threading.Lock()
        for p in permissions:
            self.grant(p.spec, p.origin)

    def grant(self, spec: str, origin: Origin) -> None:
        """Remember `spec` (once; a spec already in force keeps its first origin)."""
        with self._lock:
            if not any(p.spec == spec for p in self._permissions):
                self._permissions.append(Permission(spec, origin))

    def permissions(self) -> list[Permission]:
        """The permissions in force, oldest first."""
        with self._lock:
            return list(self._permissions)

    def revoke(self, spec: str) -> Permission | None:
        """Forget `spec`; the next call it covered asks again. None when no such spec is in force."""
        with self._lock:
            for i, p in enumerate(self._permissions):
                if p.spec == spec:
                    return self._permissions.pop(i)
        return None

    def revoke_all(self, origin: Origin | None = None) -> list[Permission]:
        """Forget every permission (of `origin` only, if given); returns what was forgotten."""
        with self._lock:
            gone = [p for p in self._permissions if origin is None or p.origin == origin]
            self._permissions = [p for p in self._permissions if p not in gone]
            return gone

    def allowed_by(self, spec: str, rule: str | None = None) -> Permission | None:
        with self._lock:
            return next((p for p in self._permissions if p.covers(spec, rule)), None)

    def always_allowed(self, spec: str, rule: str | None = None) -> bool:
        return self.allowed_by(spec, rule) is not None

    def authorize(self, tool: Tool, args: dict[str, Any], raw_args: str, ctx: ToolContext) -> str | None:
        """None when the call may run; otherwise the refusal for the model."""
        need = tool.approval(args, ctx)
        ruling = self.mode.judge(tool, args, need, ctx)
        if not isinstance(ruling, Ask):
            return ruling  # None (runs) or the mode's refusal
        if need is None:
            return None
        return self.confirm(tool.name, need, raw_args, ctx)

    def confirm(self, tool_name: str, need: ApprovalNeed, raw_args: str, ctx: ToolContext) -> str | None:
        """Ask about `need` (unless an "always" covers it): None when allowed, else the refusal.
        Also for a tool that finds mid-run that it must ask (web_fetch redirected to a new host)."""
        ruling = self.mode.judge_need(tool_name, need)
        if not isinstance(ruling, Ask):
            return ruling  # None (approved) or the mode's refusal
        if self.always_allowed(need.spec, need.rule) or (need.exact and self.always_allowed(need.exact, need.rule)):
            return None
        query = ApprovalQuery(
            tool=tool_name, arguments=raw_args, reason=need.reason, spec=need.spec, diff=need.diff, agent_id=ctx.agent_id,
            rule=need.rule, exact=need.exact,
        )
        decision = self.approver.approve(query)
        if decision in ("always", "always_rule"):  # "always": the exact command when there is one (#23)
            self.grant(need.exact if decision == "always" and need.exact else need.spec, "answer")
            return None
        if decision == "yes":
            return None
        explain = getattr(self.approver, "refusal", None)
        first = explain(query) if callable(explain) else f"The person did not approve this {tool_name} call ({need.reason})."
        return f"{first}\nDo not retry it as is; ask or choose another way."


def exact_only(spec: str, rule: str | None) -> bool:
    """A secret (`read_file:.env`) or a host at a private address (`web_fetch:intranet@private`)
    is allowed by its own spec only, never by a bare tool name (`--allow write_file`)."""
    return rule == "secret" or spec.endswith(PRIVATE_SUFFIX)


def spec_matches(allowed: str, spec: str, rule: str | None = None) -> bool:
    """`--allow shell` covers every shell spec; `--allow 'shell:git commit'` that command only. An MCP
    server's prefix `mcp__demo` covers each of its tools' specs (`mcp__demo__echo`); a server's
    part never holds `__` (mcp.names), so the prefix names one server exactly."""
    if allowed == spec:
        return True
    if is_exact(allowed):  # one exact command (`shell=make`): never `make:; touch x`, read as a tool and a rule
        return False
    if allowed.startswith(MCP_PREFIX) and spec.startswith(allowed + "__") and "__" not in allowed[len(MCP_PREFIX):]:
        return len(spec) > len(allowed) + 2
    tool, _, rest = spec.partition(":")
    return bool(rest) and allowed == tool and not exact_only(spec, rule)


class PolicyApprover:
    """Headless: no person is there. `--yes` approves everything, `--allow SPEC` that spec.

    The CLI puts `--allow` into the session's gate (so the run reports it and the call never gets
    here); `allow` here serves callers that build a session without the CLI."""

    def __init__(self, *, yes: bool = False, allow: Iterable[str] = ()) -> None:
        self.yes = yes
        self.allow = tuple(allow)

    def approve(self, query: ApprovalQuery) -> Decision:
        if self.yes or any(spec_matches(a, query.spec, query.rule) or (query.exact and a == query.exact) for a in self.allow):
            return "yes"
        return "no"

    def refusal(self, query: ApprovalQuery) -> str:
        """The line the person reads on stderr: why, and the flag that would have allowed it."""
        _, _, target = query.spec.partition(":")
        what = RULE_TEXT.get(query.rule, RULE_TEXT["other"])
        detail = target if target and query.rule in ("secret", "network", "outside") else query.reason
        if query.rule == "network" and target.endswith(PRIVATE_SUFFIX):
            detail = query.reason.partition(": ")[2] or detail  # "10.0.0.7 is a private network address (10.0.0.7)"
        quoted = shlex.quote(query.spec)
        if not quoted.startswith("'"):
            quoted = f"'{query.spec}'"
        return f"not approved ({what}: {detail}); rerun with --allow {quoted} or --yes"

    def confirm_continue(self, rounds: int, agent_id: str | None = None) -> bool:
        return False  # headless: the round cap stops the run with a note

    def ask(self, questions: tuple[Question, ...], agent_id: str | None = None) -> str | None:
        return None


def unknown_allowed(specs: Iterable[str], names: Iterable[str], *, settled: bool) -> tuple[list[str], list[str]]:
    """(errors, warnings) for --allow specs that name no tool of the session: `names` is every tool it knows
    (built-in, the agents', drop-in, MCP so far), whatever each agent selects. A name outside the MCP family
    that is not there is a typo (or an untrusted project tool): an error. An MCP spec can only be checked once
    the servers have `settled` (headless waits for them): then its server is there or not, and has that tool or
    not; before, nothing can be said of it."""
    import difflib
    import re

    known = set(names)
    errors: list[str] = []
    warnings: list[str] = []
    for spec in specs:
        found = re.match(r"[A-Za-z_][A-Za-z0-9_.-]*", spec)
        name = found.group() if found else spec
        if name in known:
            continue
        if not name.startswith(MCP_PREFIX):
            close = difflib.get_close_matches(name, [k for k in known if not k.startswith(MCP_PREFIX)], n=1)
            errors.append(f"--allow {spec}: no tool is called {name}" + (f" (did you mean {close[0]}?)" if close else ""))
            continue
        server = MCP_PREFIX + name[len(MCP_PREFIX):].split("__")[0]
        if not settled or any(k.startswith(name + "__") for k in known):  # `mcp__demo`: every tool of that server
            continue
        tools = sorted(k[len(server) + 2:] for k in known if k.startswith(server + "__"))
        if tools:
            errors.append(f"--allow {spec}: MCP server {server[len(MCP_PREFIX):]} has no tool "
                          f"{name[len(server) + 2:]} (its tools: {', '.join(tools[:10])})")
        else:
            warnings.append(f"--allow {spec}: no MCP server {server[len(MCP_PREFIX):]} is connected, "
                            "so it allows nothing in this run")
    return errors, warnings
