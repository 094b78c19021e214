"""Secrets out of every output: configured API keys and the values scrubbed from the environment.

A `Redactor` holds the secret strings and replaces each with `[redacted]`. `PROCESS` is the
one the program fills at start (its keys, the environment values it took out); the
transcript writer, the exporter and the frontends' sinks all use it. Streamed text can cut a
key in two, so `StreamRedactor` holds back the end of a piece that could be the start of a
secret until the next piece (or the end of the stream) shows what it is.

Left alone, on purpose: a key the model re-encodes (base64, reversed, spaced out) is not
recognised; the defence there is that the key never reaches the model in the first place.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import sys
import threading
import typing
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal, cast
from urllib.parse import quote

from mrsmith_tui.records import Record, replace, text_fields

if TYPE_CHECKING:
    from pydantic import BaseModel

REDACTED = "[redacted]"
MIN_SECRET = 6  # a shorter "key" ("x", "none", "ollama") is a placeholder, not a secret


def _percent_all(secret: str) -> str:
    """`secret` with every character that is not a letter or digit %-escaped (sk-1 -> sk%2D1)."""
    return "".join(ch if ch.isascii() and ch.isalnum() else quote(ch, safe="") if ord(ch) > 127 else f"%{ord(ch):02X}"
                   for ch in secret)


class Redactor:
    """Thread-safe set of secrets; `redact(text)` replaces every one of them."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._lock = threading.Lock()
        self._secrets: frozenset[str] = frozenset()
        self._forms: frozenset[str] = frozenset()  # the secrets and their %-escaped forms
        self._pattern: re.Pattern[str] | None = None
        self.add(*secrets)

    def add(self, *secrets: str | None, min_length: int = MIN_SECRET) -> None:
        new = {s.strip() for s in secrets if s and len(s.strip()) >= min_length}
        with self._lock:
            if new <= self._secrets:
                return
            self._secrets = self._secrets | new
            self._forms = self._forms | new | {v for s in new for v in (quote(s, safe=""), _percent_all(s))}  # sk%2D…
            ordered = sorted(self._forms, key=len, reverse=True)  # the longest first: no half-replaced key
            # Case folded too (SK-UNIQUE-…): a random key has no meaningful case-only twin.
            self._pattern = re.compile("|".join(map(re.escape, ordered)), re.IGNORECASE)

    def __bool__(self) -> bool:
        return bool(self._secrets)

    def __contains__(self, text: str) -> bool:
        return text in self._secrets

    @property
    def secrets(self) -> frozenset[str]:
        return self._secrets

    def redact(self, text: str) -> str:
        pattern = self._pattern
        if pattern is None or not text:
            return text
        out = pattern.sub(REDACTED, text)
        if "\\" in out and out.lstrip()[:1] in ("{", "[") and len(out) <= _MAX_JSON_CHECK:
            return _redact_json(out, pattern)  # tool arguments: "\u0073k-…" is the key too
        return out

    def partial_tail(self, text: str) -> int:
        """Length of the longest end of `text` that is the beginning of a secret (0: none)."""
        best = 0
        size = len(text)
        text = text.lower()
        for secret in self._forms:
            secret = secret.lower()
            first = secret[0]
            i = text.find(first, max(0, size - len(secret) + 1))
            while i != -1 and size - i > best:
                if secret.startswith(text[i:]):
                    best = size - i
                    break
                i = text.find(first, i + 1)
        return best

    def redact_value(self, value: Any) -> Any:
        """Strings inside `value` redacted: str, list, tuple, dict values and dataclass fields."""
        if not self._secrets:
            return value
        return map_strings(value, self.redact)


_MAX_JSON_CHECK = 1 << 20


def _redact_json(text: str, pattern: re.Pattern[str]) -> str:
    """`text` as is, unless it is JSON whose decoded strings hold a secret: then re-encoded, redacted."""
    try:
        data = json.loads(text)
        redacted = map_strings(data, lambda s: pattern.sub(REDACTED, s))
    except ValueError:
        return text
    except RecursionError:  # nested too deeply to look inside: it cannot be shown to hold no key
        return REDACTED
    return text if redacted == data else json.dumps(redacted, ensure_ascii=False)


def map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    """`value` with `fn` applied to every string in it (dataclasses and pydantic models rebuilt only when changed)."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {k: map_strings(v, fn) for k, v in value.items()}
    if isinstance(value, list):
        return [map_strings(v, fn) for v in value]
    if isinstance(value, tuple):
        return tuple(map_strings(v, fn) for v in value)
    if isinstance(value, Record):  # a Msg, a history entry, a value of the TUI: frozen, so a changed one is a copy
        updates = {}
        for name in text_fields(type(value)):
            old = getattr(value, name)
            if isinstance(old, (str, tuple, list, dict, Record)) or dataclasses.is_dataclass(old):
                new = map_strings(old, fn)
                if new is not old and new != old:
                    updates[name] = new
        return replace(cast(Any, value), **updates) if updates else value  # Record: any of the record kinds
    model = _base_model()
    if model is not None and isinstance(value, model):  # another pydantic model (a Msg was one)
        updates = {}
        for name in _text_fields(type(value)):
            old = getattr(value, name)
            if isinstance(old, (str, tuple, list, dict, model, Record)) or dataclasses.is_dataclass(old):
                new = map_strings(old, fn)
                if new is not old and new != old:
                    updates[name] = new
        return value.model_copy(update=updates) if updates else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            if not f.init:
                continue
            old = getattr(value, f.name)
            if isinstance(old, (str, tuple, list, dict, Record)) or dataclasses.is_dataclass(old):
                new = map_strings(old, fn)
                if new is not old and new != old:
                    changes[f.name] = new
        return dataclasses.replace(value, **changes) if changes else value
    return value


def _base_model() -> type[BaseModel] | None:
    """pydantic's BaseModel where pydantic is loaded; where it is not, no value is a model (and a
    start that needs no pydantic does not import it for this: start-up time, #26)."""
    main = sys.modules.get("pydantic.main")
    return getattr(main, "BaseModel", None)


@functools.cache
def _text_fields(cls: type[BaseModel]) -> tuple[str, ...]:
    """The fields of a model that may hold text: all but its tags (a Literal: `type`, `role`)."""
    return tuple(name for name, f in cls.model_fields.items() if typing.get_origin(f.annotation) is not Literal)


class StreamRedactor:
    """Redacts pieces of several streams (by key), holding back a tail that could begin a secret."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self._held: dict[Any, str] = {}

    def feed(self, key: Any, text: str) -> str:
        text = self._held.pop(key, "") + text
        text = self.redactor.redact(text)
        hold = self.redactor.partial_tail(text)
        if hold:
            self._held[key] = text[-hold:]
            # Once more on what goes out: cut from its tail, it can be JSON that only now decodes,
            # with an escaped key inside (`{"a": "\\u0073k-…"}` followed by an `s`).
            text = self.redactor.redact(text[:-hold])
        return text

    def flush(self, key: Any) -> str:
        """What was held back for `key`: the stream ended, so it was not a secret."""
        return self._held.pop(key, "")

    def held_keys(self) -> list[Any]:
        return list(self._held)


PROCESS = Redactor()


# Query parameters that carry a credential (`?key=…`, `?api_key=…`, `&access_token=…`, `&sig=…`).
_KEYLIKE_PARAM = re.compile(r"(?:^|[_-])(?:key|apikey|token|secret|password|passwd|pwd|sig|signature|auth|code)$|^api[_-]?key$",
                            re.IGNORECASE)


def url_secrets(url: str) -> list[str]:
    """The credentials inside a URL: the password of its userinfo and the values of key-like
    query parameters (`http://user:PW@host/v1?api_key=K` -> [PW, K])."""
    from urllib.parse import parse_qsl, unquote, urlsplit

    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return []
    found = [password, unquote(password)] if password else []
    found += [v for k, v in parse_qsl(parts.query, keep_blank_values=False) if _KEYLIKE_PARAM.search(k)]
    found += [raw.partition("=")[2] for raw in parts.query.split("&")
              if _KEYLIKE_PARAM.search(raw.partition("=")[0]) and raw.partition("=")[2]]  # as written, %-escapes kept
    return [s for s in dict.fromkeys(found) if s]


def shown_url(url: str) -> str:
    """`url` without its userinfo and with key-like query values redacted: how it is printed."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname
        port = parts.port
    except ValueError:
        return Redactor(url_secrets(url)).redact(url)
    if host is None:
        return url
    netloc = (f"[{host}]" if ":" in host else host) + (f":{port}" if port else "")
    return Redactor(url_secrets(url)).redact(parts._replace(netloc=netloc).geturl())
