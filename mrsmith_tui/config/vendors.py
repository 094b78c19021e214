"""The protocols mrsmith speaks and what each vendor documents about its endpoint: one table.

A protocol picks the wire (Chat Completions or Messages) and the rules its vendor enforces.
`openai` is any OpenAI-compatible server (the generic rules); `anthropic` any Messages server
(Anthropic, gateways); `minimax`, `zai` and `deepseek` are those vendors' own endpoints, with
the endpoint, flagship model and context size they document, so a key alone is a whole config.
The README's table cites the vendor documentation behind every row.
"""

from __future__ import annotations

import functools
import re
from typing import Literal, NamedTuple

__all__ = ["BUDGETS", "PROTOCOLS", "REPLY_FLOOR", "VENDORS", "Vendor", "vendor"]

# Messages: the thinking budget of each effort (max: max_tokens less REPLY_FLOOR, left for the reply).
BUDGETS = {"low": 1024, "medium": 8192, "high": 32768}
REPLY_FLOOR = 4096
# What `reasoning_effort` may say on the generic `openai` protocol (OpenAI's own values and the common ones).
OPENAI_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")

Wire = Literal["chat", "messages"]


class Vendor(NamedTuple):  # not a frozen dataclass: ~1.5 ms of every start to build (#26)
    protocol: str
    wire: Wire
    label: str  # for the setup screen
    base_url: str  # the documented endpoint (Messages: without /v1)
    model: str = ""  # the flagship model ("" : none known; the person names one)
    context_tokens: int = 0  # the documented context size (0: unknown; the probe or the config says)
    probe: bool = False  # the server can say its context size (llama.cpp, vLLM, LM Studio, Ollama: local servers)
    cache_control: bool = False  # takes `cache_control` breakpoints (--cache active)
    efforts: tuple[str, ...] = ("low", "medium", "high", "max")  # what --effort may say
    default_thinking: Literal["strip", "preserve"] = "strip"
    max_tokens: int = 0  # the answer's cap sent when none is configured (Messages requires one)
    chars_per_token: float = 4.0  # the estimator's start before the first real usage calibrates it


VENDORS: dict[str, Vendor] = {
    "openai": Vendor("openai", "chat", "OpenAI-compatible (any /v1 server)", "https://api.openai.com/v1", probe=True),
    "anthropic": Vendor("anthropic", "messages", "Anthropic Messages (Claude, gateways)", "https://api.anthropic.com",
                        model="claude-sonnet-4-6", context_tokens=200_000, cache_control=True, default_thinking="preserve", max_tokens=32_000,
                        chars_per_token=3.5),
    "minimax": Vendor("minimax", "messages", "MiniMax (Anthropic-compatible endpoint)", "https://api.minimax.io/anthropic",
                      model="MiniMax-M2.7", context_tokens=204_800, cache_control=True, default_thinking="preserve",
                      max_tokens=32_000),
    "zai": Vendor("zai", "chat", "Z.ai GLM (Chat Completions)", "https://api.z.ai/api/paas/v4", model="glm-4.7",
                  context_tokens=200_000, efforts=("low", "medium", "high", "max")),
    "deepseek": Vendor("deepseek", "chat", "DeepSeek (Chat Completions)", "https://api.deepseek.com", model="deepseek-v4-pro",
                       context_tokens=1_000_000, default_thinking="preserve"),
}
PROTOCOLS = tuple(VENDORS)


def vendor(protocol: str) -> Vendor:
    return VENDORS.get(protocol, VENDORS["openai"])


def is_vendor_protocol(protocol: str) -> bool:
    """A vendor's own rules apply (every protocol but the generic `openai`)."""
    return protocol != "openai"


# Models that take `thinking: {type: "adaptive"}` with an effort instead of a token budget
# (Anthropic: Claude Opus/Sonnet 4.6 and later; MiniMax-M3).
_ADAPTIVE = r"claude-(?:opus|sonnet)-4[-.][6-9]|claude-[a-z]+-[5-9]|claude-(?:mythos|fable)|minimax-m3"


@functools.cache
def _pattern(source: str) -> re.Pattern[str]:
    """The pattern compiled on its first use, not at every start (start-up time, #26)."""
    return re.compile(source, re.I)


def wants_adaptive(model: str) -> bool:
    return _pattern(_ADAPTIVE).search(model) is not None


# Models that refuse a token budget (`thinking: {type: "enabled"}` is a 400): Claude Opus 4.7 and later, Mythos.
_ADAPTIVE_ONLY = r"claude-opus-4[-.][7-9]|claude-opus-[5-9]|claude-mythos"


def adaptive_only(model: str) -> bool:
    return _pattern(_ADAPTIVE_ONLY).search(model) is not None


# Kimi's Chat endpoint, like DeepSeek's thinking mode, refuses a tool-call turn without its reasoning.
_KIMI = r"kimi|moonshot"


def needs_loop_reasoning(protocol: str, model: str) -> bool:
    """Whether the current tool loop's reasoning must go back even when earlier turns' is stripped."""
    return protocol in ("deepseek", "zai", "minimax", "anthropic") or _pattern(_KIMI).search(model) is not None


def default_thinking(protocol: str, model: str) -> Literal["strip", "preserve"]:
    if protocol == "openai" and _pattern(_KIMI).search(model):
        return "preserve"
    return vendor(protocol).default_thinking


def protocol_of(provider: object) -> str:
    """The protocol a provider speaks (a provider without one, a test's fake, speaks `openai`)."""
    protocol = getattr(provider, "protocol", "openai")
    return protocol if isinstance(protocol, str) and protocol in VENDORS else "openai"


def thinking_for(configured: Literal["strip", "preserve"] | None, protocol: str,
                 model: str) -> Literal["strip", "preserve"]:
    """The agent's `thinking`, or its protocol's default when it set none."""
    return configured or default_thinking(protocol, model)
