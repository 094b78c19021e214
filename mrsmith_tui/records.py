"""Frozen records: the base of every Msg and history entry, without pydantic (start-up time, #26).

    class TextDelta(Msg):          # Msg is a Frozen
        type: Literal["TextDelta"] = "TextDelta"
        block_id: str
        text: str

A record is made by keyword (`TextDelta(block_id="t1", text="hi")`), is immutable, compares and
hashes by its fields, and has the few methods the program uses of the pydantic models it replaces:
`model_copy(update=...)`, `model_dump(mode=..., exclude=...)` and `model_validate(data)`.

Making a record does not check its values: the program's own code makes them and mypy checks
that code (a list given for a tuple field is made a tuple). What comes from outside (a transcript
line, `msgs.from_json`) goes through `model_validate`, which checks it with pydantic, imported
and built on that first use (records_check): a one-shot and the TUI's first frame never load
pydantic. The class names its policy for unknown keys there (`extra_keys`: "forbid" or "ignore"),
and may tidy the data first (`before`).

In an annotation, `Annotated[A | B, Tag("type")]` is a union told apart by the field `type`.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, dataclass_transform

_R = TypeVar("_R", bound="Frozen")


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A field whose default is made for each record (`at: float = field(default_factory=time.time)`)."""
    return _Factory(default_factory)


class Tag:
    """`Annotated[A | B, Tag("type")]`: the union's members are told apart by this field's value."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Tag({self.name!r})"


class _Required:
    def __repr__(self) -> str:
        return "<required>"


REQUIRED: Any = _Required()


class _Spec:
    """What a record class holds, worked out on its first use (a class costs nothing more at import)."""

    __slots__ = ("annotations", "count", "factories", "names", "required", "template", "text", "tuples")

    def __init__(self, cls: type[Record]) -> None:
        annotations: dict[str, str] = {}
        defaults: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            if not (isinstance(klass, type) and issubclass(klass, Record)) or klass in _BASES:
                continue
            for name, hint in inspect.get_annotations(klass).items():
                text = hint if isinstance(hint, str) else repr(hint)
                if text.startswith(("ClassVar", "typing.ClassVar")):
                    continue
                annotations[name] = text
                defaults[name] = klass.__dict__.get(name, REQUIRED)
        self.annotations = annotations
        self.names = tuple(annotations)
        self.count = len(self.names)
        self.template = {n: (REQUIRED if isinstance(d, _Factory) else d) for n, d in defaults.items()}
        self.factories = tuple((n, d.make) for n, d in defaults.items() if isinstance(d, _Factory))
        self.required = tuple(n for n, d in defaults.items() if d is REQUIRED)
        self.tuples = tuple(n for n, a in annotations.items() if a.startswith("tuple["))
        # the fields that may hold text: all but the tags (a Literal: `type`, `role`)
        self.text = tuple(n for n, a in annotations.items() if not a.startswith("Literal["))


def spec(cls: type[Record]) -> _Spec:
    found: _Spec | None = cls.__dict__.get("_spec_")
    if found is None:
        found = _Spec(cls)
        cls._spec_ = found
    return found


class Record:
    """What every record is: immutable, compared and hashed by its fields, shown by them."""

    _spec_: ClassVar[_Spec | None] = None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: make a changed copy with records.replace")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self), *self.__dict__.values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({inner})"


_new = object.__new__
_set = object.__setattr__


def _copy(obj: Any, /, **changes: Any) -> Any:
    """A copy of the record with `changes` on top, as they are (like `dataclasses.replace`, without
    its second pass through `__init__`: this is on the update step's hot path)."""
    if not changes.keys() <= obj.__dict__.keys():
        unknown = [k for k in changes if k not in obj.__dict__]
        raise TypeError(f"{type(obj).__name__} has no field {unknown[0]!r}")
    new = _new(type(obj))
    _set(new, "__dict__", {**obj.__dict__, **changes})
    return new


if TYPE_CHECKING:  # mypy checks each call's field names and types against the record's class
    from dataclasses import replace as replace
else:
    replace = _copy


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Value(Record):
    """A frozen value made by position or by keyword, like a frozen dataclass (`Block("b1", "text")`):
    the TUI's model and effects. A dataclass generates and compiles its methods when its class is
    made, 0.5-1 ms a class: the three dozen of them on the way to the first frame cost 25-30 ms of
    start-up (#26). These methods are written once, here, and read the class's fields on first use."""

    def __init__(self, *args: Any, **values: Any) -> None:
        cls = type(self)
        s = cls.__dict__.get("_spec_") or spec(cls)
        if args:
            if len(args) > s.count:
                raise TypeError(f"{cls.__name__} takes {s.count} fields, {len(args)} given")
            for name, value in zip(s.names, args, strict=False):
                if name in values:
                    raise TypeError(f"{cls.__name__}: field {name!r} given twice")
                values[name] = value
        d = self.__dict__
        d.update(s.template)  # every field, in order: the order of repr
        for name, make in s.factories:
            if name not in values:
                d[name] = make()
        d.update(values)
        if len(d) != s.count or any(d[n] is REQUIRED for n in s.required):
            _wrong_fields(cls, s, values)


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
class Frozen(Record):
    """Base of the frozen records made by keyword and checked when read from outside (see the module's text)."""

    extra_keys: ClassVar[str] = "forbid"  # what model_validate does with a key it does not know: "forbid" | "ignore"

    def __init__(self, **values: Any) -> None:
        cls = type(self)
        s = cls.__dict__.get("_spec_") or spec(cls)
        d = self.__dict__
        d.update(s.template)  # every field, in order: the order of model_dump and repr
        for name, make in s.factories:
            if name not in values:
                d[name] = make()
        for name in s.tuples:
            if type(values.get(name)) is list:
                values[name] = tuple(values[name])
        d.update(values)
        if len(d) != s.count or any(d[n] is REQUIRED for n in s.required):
            _wrong_fields(cls, s, values)

    # ------------------------------------------------------------------ what the pydantic models had

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return spec(cls).names

    def model_copy(self: _R, *, update: Mapping[str, Any] | None = None) -> _R:
        """A copy with `update` applied as it is (like pydantic's: the values are not checked)."""
        copy: _R = _copy(self, **(update or {}))
        return copy

    def model_dump(self, *, mode: str = "python", exclude: set[str] | None = None) -> dict[str, Any]:
        """The fields as plain data: records as dicts; tuples stay tuples, or become lists with mode="json"."""
        as_json = mode == "json"
        return {k: _dump(v, as_json) for k, v in self.__dict__.items() if not exclude or k not in exclude}

    def model_dump_json(self) -> str:
        import json

        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def before(cls, data: Any) -> Any:
        """The data `model_validate` reads, tidied first (an older writer's form); as it is by default."""
        return data

    @classmethod
    def model_validate(cls: type[_R], data: Any) -> _R:
        """The record `data` (a dict, as `model_dump(mode="json")` gives) stands for, checked: raises
        pydantic.ValidationError (a ValueError) naming what is wrong."""
        from mrsmith_tui.records_check import validate

        made: _R = validate(cls, data)
        return made


def _dump(v: Any, as_json: bool) -> Any:
    if isinstance(v, Frozen):
        return {k: _dump(x, as_json) for k, x in v.__dict__.items()}
    if isinstance(v, tuple):
        items = [_dump(x, as_json) for x in v]
        return items if as_json else tuple(items)
    if isinstance(v, list):
        return [_dump(x, as_json) for x in v]
    if isinstance(v, dict):
        return {k: _dump(x, as_json) for k, x in v.items()}
    return v


def _wrong_fields(cls: type[Record], s: _Spec, values: Mapping[str, Any]) -> None:
    unknown = [k for k in values if k not in s.template]
    missing = [n for n in s.required if n not in values]
    problems = ([f"unknown field {unknown[0]!r}"] if unknown else []) + ([f"missing field {missing[0]!r}"] if missing else [])
    raise TypeError(f"{cls.__name__}: {', '.join(problems)}")


def text_fields(cls: type[Record]) -> tuple[str, ...]:
    """The fields of a record that may hold text: all but its tags (security.redact)."""
    return spec(cls).text


def hints(cls: type[Record]) -> dict[str, Any]:
    """The record's annotations, resolved (records_check builds its checker from them)."""
    return typing.get_type_hints(cls, include_extras=True)


_BASES = (Record, Value, Frozen)
