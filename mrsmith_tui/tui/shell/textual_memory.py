"""Textual keeps removed widgets' rendered lines alive: this module stops it (issue #26, memory).

`StylesCache.get_inner_outer` (textual/_styles_cache.py, 8.x) is an instance method under
`functools.lru_cache(1024)`: its key holds the StylesCache, so the last 1,024 StylesCaches ever used
stay alive after their widgets are gone, each with the Strips of every line its widget drew (and the
crops, divisions and styles cached in each Strip). A conversation mounts and removes block widgets
all the time (the window of live blocks moves on): after 5,000 blocks some 5,000 dead Strips (40 %
of all) were held that way, tens of MB. The two colours it computes do not depend on the instance,
so the cache is keyed on the colours only. Applied once, before the first widget renders; a Textual
whose method is no longer such a cache, or whose body has come to read `self`, is left as it is.
"""

from __future__ import annotations

import dis
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from textual._styles_cache import StylesCache


def keep_no_dead_widgets(cls: type = StylesCache) -> None:
    """Key Textual's colour cache on the colours, not on the StylesCache (idempotent)."""
    current: Any = cls.__dict__.get("get_inner_outer")
    compute: Callable[..., Any] | None = getattr(current, "__wrapped__", None)
    if compute is None or not hasattr(current, "cache_clear") or _reads_self(compute):
        return  # already done, a Textual without the cache, or one whose colours depend on the instance
    current.cache_clear()  # what it holds already goes too

    @lru_cache(1024)
    def inner_outer(base_background: Any, background: Any) -> Any:
        return compute(None, base_background, background)  # the method's own body, which never reads self

    def get_inner_outer(self: StylesCache, base_background: Any, background: Any) -> Any:
        return inner_outer(base_background, background)

    cls.get_inner_outer = get_inner_outer  # type: ignore[attr-defined]


def _reads_self(function: Callable[..., Any]) -> bool:
    """Whether the function's body reads its first argument (`self`), or passes it on to a closure."""
    code = function.__code__
    if code.co_argcount == 0:
        return True
    first = code.co_varnames[0]
    return first in code.co_cellvars or any(
        i.opname.startswith("LOAD_FAST") and i.argval == first for i in dis.get_instructions(code))
