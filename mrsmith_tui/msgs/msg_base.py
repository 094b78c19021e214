"""The Msg base, the Sink port and the small records Msgs carry (msgs re-exports them all)."""

from __future__ import annotations

import time
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from mrsmith_tui.records import Frozen, field

# --------------------------------------------------------------------------- records
# Frozen records (mrsmith_tui.records), not pydantic models: making one checks nothing and costs a
# microsecond; what comes from outside (a transcript) is checked with pydantic, loaded then.


def build_models(*bases: type[Frozen]) -> None:
    """Nothing to build any more (records need no validator before their first use); kept for callers."""


class _Record(Frozen):
    extra_keys: ClassVar[str] = "forbid"


class UsageInfo(_Record):
    """Token usage of one model call (or a sum of several)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    estimated: bool = False
    # Whether the server said how much of the prompt was cached (0 then means none was); "not
    # reported" shows as `cache —`, never as `cache 0%`.
    cache_reported: bool = False

    def __init__(self, **values: Any) -> None:
        super().__init__(**self.before(values))  # made or read back alike

    @classmethod
    def before(cls, data: Any) -> Any:
        """A record without the flag (written before it existed) that counts cached tokens had them reported."""
        if isinstance(data, dict) and "cache_reported" not in data:
            cached = data.get("cached_tokens")
            if isinstance(cached, int) and cached > 0:
                return {**data, "cache_reported": True}
        return data

    @property
    def cache_pct(self) -> float | None:
        """The cached share of the prompt, 0-100; None when the server did not say."""
        if not self.cache_reported or not self.prompt_tokens:
            return None
        return min(100.0, 100.0 * self.cached_tokens / self.prompt_tokens)

    def __add__(self, other: UsageInfo) -> UsageInfo:
        return UsageInfo(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
            estimated=self.estimated or other.estimated,
            cache_reported=self.cache_reported or other.cache_reported,
        )


TodoStatus = Literal["pending", "in_progress", "completed", "cancelled"]
TodoPriority = Literal["high", "medium", "low"]


class Todo(_Record):
    content: str
    status: TodoStatus = "pending"
    priority: TodoPriority = "medium"


class QuestionOption(_Record):
    label: str
    description: str = ""


class Question(_Record):
    question: str
    options: tuple[QuestionOption, ...] = ()
    multiple: bool = False


class Allowed(_Record):
    spec: str  # "write_file", "shell:git commit", "shell" (every shell command)
    origin: str  # "answer" (an "always" answer), "--allow", "config" (the config's allow list)


AgentState = Literal["running", "waiting", "stopping", "stopped", "done", "failed"]

# --------------------------------------------------------------------------- base


class Msg(Frozen):
    """Base of every Msg. `type` is the class name (each class pins it with a Literal);
    `at` is wall-clock time (seconds since the epoch)."""

    extra_keys: ClassVar[str] = "forbid"

    type: str = ""
    at: float = field(default_factory=time.time)


_M = TypeVar("_M", bound=Msg)


class Sink(Protocol):
    """Where the core posts Msgs. Must be safe to call from any thread."""

    def __call__(self, msg: Msg) -> None: ...


class ListSink:
    """A Sink that keeps every Msg in a list (tests, headless folding)."""

    def __init__(self) -> None:
        self.msgs: list[Msg] = []

    def __call__(self, msg: Msg) -> None:
        self.msgs.append(msg)

    def of(self, kind: type[_M]) -> list[_M]:
        return [m for m in self.msgs if isinstance(m, kind)]
