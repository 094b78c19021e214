"""What a tool call comes to: its result, and what the person must approve before it runs.

Plain values, imported by the tools' protocol (base.py) and by the services a session offers
them (services.py) alike, so that neither needs the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# "always": what the call's own spec allows (its exact command when it has one: ApprovalNeed.exact);
# "always_rule": the broader rule (`shell:rm`), a choice of its own.
Decision = Literal["yes", "no", "always", "always_rule"]

# Which trust rule made a call ask (DESIGN.md, "Trust boundaries"); the approval modal and the
# headless refusal name it in words (RULE_TEXT), next to the detail in ApprovalNeed.reason.
Rule = Literal["writes", "runs", "secret", "outside", "network", "other"]
# web_fetch's spec for a host whose address is loopback/private/link-local: `web_fetch:<host>@private`.
PRIVATE_SUFFIX = "@private"
RULE_TEXT: dict[str, str] = {
    "writes": "writes a file",
    "runs": "runs a program that is not read-only",
    "secret": "reads a secret",
    "outside": "reaches outside the working directory",
    "network": "talks to a new host",
    "other": "needs your approval",
}


@dataclass(frozen=True)
class ToolResult:
    content: str  # what goes back to the model
    ok: bool = True
    exit_code: int | None = None
    diff: str | None = None  # unified diff of a file change, for the frontend

    @staticmethod
    def error(text: str) -> ToolResult:
        return ToolResult(content=f"Error: {text}", ok=False)


@dataclass(frozen=True)
class ApprovalNeed:
    """Why a call needs the person, and what an "always" answer would allow from then on."""

    reason: str  # the detail, one line: "write_file creates notes.txt", "rm is not read-only"
    spec: str  # "write_file", "edit", "shell:git commit", "web_fetch:127.0.0.1"
    diff: str | None = None
    rule: Rule = "other"
    exact: str = ""  # a shell call's exact command (`shell=rm -rf build`): what "always" allows; spec is the rule


@dataclass(frozen=True)
class ApprovalQuery:
    tool: str
    arguments: str
    reason: str
    spec: str
    diff: str | None = None
    agent_id: str | None = None
    rule: Rule = "other"
    exact: str = ""  # ApprovalNeed.exact
