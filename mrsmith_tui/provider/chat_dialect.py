"""The fields a Chat Completions request carries beside its messages, per protocol (its dialect).

- every protocol: `max_tokens` when one is set; `reasoning_effort` when an effort is set
  (Z.ai's ladder is low/high/max: medium is sent as high);
- `deepseek`: `--thinking strip` turns thinking mode off (`thinking: {type: "disabled"}`);
  thinking stays on by default, and its reasoning goes back (chat_wire);
- `zai`: `--thinking preserve` asks for Preserved Thinking (`thinking: {type: "enabled",
  clear_thinking: false}`), the earlier turns' reasoning going back with it.

Unset knobs send nothing, so a server's own defaults stand. Which combinations are refused is
`provider.knobs`' business; this module only writes what was allowed.
"""

from __future__ import annotations

from typing import Any

from mrsmith_tui.provider.types import ChatRequest

__all__ = ["dialect_fields"]


def dialect_fields(protocol: str, request: ChatRequest) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if request.max_tokens:
        out["max_tokens"] = request.max_tokens
    effort = (request.reasoning_effort or "").strip()
    if protocol == "deepseek" and request.thinking == "strip":
        out["thinking"] = {"type": "disabled"}
        return out
    if protocol == "zai":
        if request.thinking == "preserve":
            out["thinking"] = {"type": "enabled", "clear_thinking": False}
        if effort == "medium":
            effort = "high"
    if effort:
        out["reasoning_effort"] = effort
    return out
