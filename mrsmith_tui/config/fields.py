"""The config's records and their checking, without pydantic (start-up time, issue #26).

A record is a frozen `Record` subclass whose fields say what they take: the annotation (str, int, float,
bool, a Literal, `X | None`, `list[str]`, `list[Record]`) and limits given by `limits(...)` as its default
(`gt`, `ge`, `le`, `min_length`). Making one, `Record(**data)` or `Record.model_validate(data)`,
checks it the way the config has always been checked: lax like pydantic (a number may come as a
string from the environment or a flag), camelCase or snake_case keys, no unknown key. The first
problem raises `Invalid`, which knows where it is (`agents[1].maxToolRounds`) and what is wrong,
worded as before ("Input should be greater than 0"). `model_copy(update=...)` does not check (the
command line sets what a file may not, such as the `auto` mode). Importing this costs
well under a millisecond; pydantic cost ~50 ms of every start.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, Literal, TypeVar

from mrsmith_tui.errors import MrSmithError

Loc = tuple[str | int, ...]  # where in the config a value is: ("agents", 1, "maxToolRounds")

_R = TypeVar("_R", bound="Record")
# name, camelCase key, annotation, limits, default (or its factory, or MISSING), whether it is a factory
_Spec = tuple[str, str, Any, Mapping[str, Any], Any, bool]


def to_camel(name: str) -> str:
    """`max_tool_rounds` -> `maxToolRounds` (the key style of the reference tool's config)."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


class LocatedError(MrSmithError, ValueError):
    """A problem a record's own check finds, with the field path it is about (relative to the record)."""

    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


class Invalid(MrSmithError, ValueError):
    """The first problem of a record being made: where (`loc`), what kind and the sentence.

    kind: "missing", "extra_forbidden" (an unknown key), "value_error" (a record's own check, whose
    message is the whole story) or the kind of value that was expected ("int", "literal", ...), where
    the value given is worth quoting (`input`)."""

    def __init__(self, loc: Loc, kind: str, message: str, value: Any = None) -> None:
        super().__init__(message)
        self.loc = loc
        self.kind = kind
        self.message = message
        self.input = value

    def under(self, prefix: Loc) -> Invalid:
        return Invalid(prefix + self.loc, self.kind, self.message, self.input)


class _Bad(Exception):
    """A value's problem, before it knows its place."""

    def __init__(self, kind: str, message: str, loc: Loc = ()) -> None:
        super().__init__(message)
        self.kind, self.message, self.loc = kind, message, loc


# --------------------------------------------------------------------------- values

_TRUE = {"1", "on", "t", "true", "y", "yes"}
_FALSE = {"0", "off", "f", "false", "n", "no"}


def _int(v: Any) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise _Bad("finite_number", "Input should be a finite number")
        if v.is_integer():
            return int(v)
        raise _Bad("int", "Input should be a valid integer, got a number with a fractional part")
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            raise _Bad("int", "Input should be a valid integer, unable to parse string as an integer") from None
    raise _Bad("int", "Input should be a valid integer")


def _float(v: Any) -> float:
    if isinstance(v, int | float):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            raise _Bad("float", "Input should be a valid number, unable to parse string as a number") from None
    raise _Bad("float", "Input should be a valid number")


def _bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, int | float) and v in (0, 1):
        return bool(v)
    if isinstance(v, str):
        s = v.strip().lower()
        if s in _TRUE or s in _FALSE:
            return s in _TRUE
    if isinstance(v, str | int):
        raise _Bad("bool", "Input should be a valid boolean, unable to interpret input")
    raise _Bad("bool", "Input should be a valid boolean")


def _str(v: Any) -> str:
    if isinstance(v, str):
        return v
    raise _Bad("str", "Input should be a valid string")


def _choices(options: tuple[Any, ...]) -> str:
    shown = [repr(o) for o in options]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _check(v: Any, hint: Any, limits: Mapping[str, Any]) -> Any:
    """`v` as the annotation `hint` takes it (lax), within `limits`, or _Bad."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, _UnionType):
        if v is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _check(v, inner, limits)
    if origin is Literal:
        if v in args and any(type(v) is type(a) for a in args):
            return v
        raise _Bad("literal", f"Input should be {_choices(args)}")
    if origin is list:
        if not isinstance(v, list | tuple):
            raise _Bad("list", "Input should be a valid list")
        (item,) = args
        out = []
        for i, x in enumerate(v):
            try:
                out.append(_check(x, item, {}))
            except _Bad as e:
                raise _Bad(e.kind, e.message, (i, *e.loc)) from None
            except Invalid as e:
                raise e.under((i,)) from None
        return out
    if isinstance(hint, type) and issubclass(hint, Record):
        if isinstance(v, hint):
            return v
        if not isinstance(v, Mapping):
            raise _Bad("model", f"Input should be a valid dictionary or instance of {hint.__name__}")
        return hint(**v)
    value: Any = {int: _int, float: _float, bool: _bool, str: _str}[hint](v)
    _limit(value, limits)
    return value


def _limit(value: Any, limits: Mapping[str, Any]) -> None:
    if "min_length" in limits and len(value) < limits["min_length"]:
        n = limits["min_length"]
        raise _Bad("too_short", f"String should have at least {n} character{'s' if n != 1 else ''}")
    # in pydantic's order (NaN fails every bound: the first one named is the upper one)
    if "le" in limits and not value <= limits["le"]:
        raise _Bad("less_than_equal", f"Input should be less than or equal to {limits['le']}")
    if "ge" in limits and not value >= limits["ge"]:
        raise _Bad("greater_than_equal", f"Input should be greater than or equal to {limits['ge']}")
    if "gt" in limits and not value > limits["gt"]:
        raise _Bad("greater_than", f"Input should be greater than {limits['gt']}")


_UnionType = type(int | None)


_MISSING: Any = object()  # a field the data must give


class _Field:
    __slots__ = ("bounds", "default", "factory")

    def __init__(self, default: Any, factory: Any, bounds: dict[str, Any]) -> None:
        self.default, self.factory, self.bounds = default, factory, bounds


def limits(default: Any = _MISSING, *, factory: Any = None, **bounds: Any) -> Any:
    """A field with limits (`gt=0`, `le=1`, `min_length=1`), and a default or a default factory."""
    return _Field(default, factory, bounds)


# --------------------------------------------------------------------------- records


class Record:
    """Base of the config's frozen records: made only through
    `__init__`, which checks them; compared, hashed and shown by their fields, in their order.

    Not dataclasses: a dataclass is built at import with generated code (~0.5 ms each), and its
    annotations evaluated again to be checked; a record's annotations are objects (its module has no
    `from __future__ import annotations`) read once, on the first record made."""

    # Hooks a record may define: the data before it is read (defaults that depend on other keys), one
    # field's own check (`check_<field>`, raising ValueError) and the whole record's (LocatedError).
    _spec_cache: ClassVar[tuple[_Spec, ...] | None] = None

    def __init__(self, **data: Any) -> None:
        values, given = _read(type(self), data)
        self.__dict__.update(values)
        self.__dict__["_fields_set"] = given
        try:
            self.check()
        except LocatedError as e:
            raise Invalid(e.loc, "value_error", e.message) from None

    @classmethod
    def before(cls, data: dict[str, Any]) -> dict[str, Any]:
        return data

    def check(self) -> None:
        """The whole record's check, once its fields are read (raise LocatedError)."""

    @classmethod
    def model_validate(cls: type[_R], data: Any) -> _R:
        if isinstance(data, cls):
            return data
        if not isinstance(data, Mapping):
            raise Invalid((), "model", f"Input should be a valid dictionary or instance of {cls.__name__}", data)
        return cls(**data)

    @property
    def model_fields_set(self) -> set[str]:
        """The fields given when it was made or copied with an update, not left to their defaults."""
        return set(getattr(self, "_fields_set", ()))

    def model_copy(self: _R, *, update: Mapping[str, Any] | None = None) -> _R:
        """A copy with `update` applied as it is (no check: the caller's values are trusted)."""
        cls = type(self)
        names = cls.field_names()
        new = cls.__new__(cls)
        new.__dict__.update(self.__dict__)
        for name, value in (update or {}).items():
            if name not in names:
                raise TypeError(f"{cls.__name__} has no field {name!r}")
            new.__dict__[name] = value
        new.__dict__["_fields_set"] = frozenset(self.model_fields_set | set(update or {}))
        return new

    def model_dump(self) -> dict[str, Any]:
        """The fields as plain data (records as dicts, lists copied), by their snake_case names."""
        return {name: _dump(getattr(self, name)) for name in self.field_names()}

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(spec[0] for spec in _specs(cls))

    # ------------------------------------------------------------------ frozen, compared by value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: make a changed copy with model_copy(update=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def _values(self) -> tuple[Any, ...]:
        return tuple(self.__dict__[name] for name in self.field_names())

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)  # the same class
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={self.__dict__[n]!r}' for n in self.field_names())})"


def _dump(v: Any) -> Any:
    if isinstance(v, Record):
        return v.model_dump()
    if isinstance(v, list):
        return [_dump(x) for x in v]
    return v


def _specs(cls: type[Record]) -> tuple[_Spec, ...]:
    """(name, camelCase key, annotation, limits, default or MISSING) of each field, worked out once."""
    specs = cls.__dict__.get("_spec_cache")
    if specs is None:
        annotations = inspect.get_annotations(cls)
        if any(isinstance(a, str) for a in annotations.values()):  # a module with postponed annotations
            annotations = typing.get_type_hints(cls)
        out = []
        for name, hint in annotations.items():
            if typing.get_origin(hint) is ClassVar or hint is typing.ClassVar:  # type: ignore[comparison-overlap]
                continue
            value = cls.__dict__.get(name, _MISSING)
            f = value if isinstance(value, _Field) else _Field(value, None, {})
            made = f.factory is not None  # a fresh list for each record
            out.append((name, to_camel(name), hint, f.bounds, f.factory if made else f.default, made))
        specs = tuple(out)
        cls._spec_cache = specs
    return specs


def _read(cls: type[Record], data: Mapping[str, Any]) -> tuple[dict[str, Any], frozenset[str]]:
    data = cls.before(dict(data))
    values: dict[str, Any] = {}
    given: set[str] = set()
    used: set[str] = set()
    for name, key, hint, bounds, default, made in _specs(cls):
        where = key if key in data else name if name in data else None
        if where is None:
            if default is _MISSING:
                raise Invalid((key,), "missing", "Field required")
            values[name] = default() if made else default
            continue
        used.add(where)  # given both ways, the other one is an unknown key
        given.add(name)
        raw = data[where]
        try:
            value = _check(raw, hint, bounds)
            own = getattr(cls, f"check_{name}", None)
            if own is not None:
                try:
                    value = own(value)
                except ValueError as e:
                    raise _Bad("value_error", str(e)) from None
        except _Bad as e:
            shown = raw if not e.loc else _at(raw, e.loc)
            raise Invalid((key, *e.loc), e.kind, e.message, shown) from None
        except Invalid as e:
            raise e.under((key,)) from None
        values[name] = value
    extra = [k for k in data if k not in used]
    if extra:
        raise Invalid((extra[0],), "extra_forbidden", "Extra inputs are not permitted", data[extra[0]])
    return values, frozenset(given)


def _at(raw: Any, loc: Loc) -> Any:
    for part in loc:
        try:
            raw = raw[part]
        except (LookupError, TypeError):
            return raw
    return raw

