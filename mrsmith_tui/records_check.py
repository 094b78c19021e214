"""Checking what comes from outside against a record class, with pydantic (records.Frozen.model_validate).

Each record class gets a pydantic twin, built on its first use (under a lock: safe from any thread),
with the same fields, defaults, unknown-key policy and `before` hook; the twin checks the data
(pydantic's lax rules and its errors: `pydantic.ValidationError`) and the result is turned back into
the records. A union that names a class still being built (FromAgent holds any Msg, itself included)
is checked when a value reaches it, by the union's own checker.
"""

from __future__ import annotations

import functools
import threading
import typing
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, create_model, model_validator

from mrsmith_tui.records import REQUIRED, Frozen, Tag, hints, spec

_R = TypeVar("_R", bound=Frozen)
_LOCK = threading.RLock()
_TWINS: dict[type[Frozen], type[BaseModel]] = {}
_BUILDING: set[type[Frozen]] = set()
_UnionType = type(int | None)


def validate(cls: type[_R], data: Any) -> _R:
    if isinstance(data, cls):
        return data
    made: _R = to_records(twin(cls).model_validate(data))
    return made


def validator(hint: Any) -> tuple[TypeAdapter[Any], Any]:
    """(the pydantic checker of an annotation, e.g. msgs.AnyMsg, the function that makes records of its result)."""
    return _adapter(hint), to_records


@functools.cache
def _adapter(hint: Any) -> TypeAdapter[Any]:
    with _LOCK:
        return TypeAdapter(_translate(hint))


def twin(cls: type[Frozen]) -> type[BaseModel]:
    found = _TWINS.get(cls)
    if found is not None:
        return found
    with _LOCK:
        found = _TWINS.get(cls)
        if found is None:
            _BUILDING.add(cls)
            try:
                found = _build(cls)
            finally:
                _BUILDING.discard(cls)
            _TWINS[cls] = found
    return found


def _build(cls: type[Frozen]) -> type[BaseModel]:
    s = spec(cls)
    resolved = hints(cls)
    fields: dict[str, Any] = {}
    for name in s.names:
        hint = _translate(resolved[name])
        default = s.template[name]
        made = dict(s.factories).get(name)
        if made is not None:
            fields[name] = (hint, Field(default_factory=made))
        elif default is REQUIRED:
            fields[name] = (hint, ...)
        else:
            fields[name] = (hint, default)
    before = cls.before

    class Base(BaseModel):
        model_config = ConfigDict(frozen=True, extra=cls.extra_keys)  # type: ignore[typeddict-item]

        @model_validator(mode="before")
        @classmethod
        def _before(cls_: type[BaseModel], data: Any) -> Any:
            return before(data)

    model: type[BaseModel] = create_model(cls.__name__, __base__=Base, **fields)
    model.__record__ = cls  # type: ignore[attr-defined]
    return model


def _translate(hint: Any) -> Any:
    """`hint` with each record class as its twin (and Tag as pydantic's discriminator)."""
    if isinstance(hint, type) and issubclass(hint, Frozen):
        if hint in _BUILDING:
            return Annotated[Any, AfterValidator(functools.partial(_late, hint))]
        return twin(hint)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Annotated:
        inner, *extras = args
        if any(isinstance(a, type) and a in _BUILDING for a in typing.get_args(inner)):
            return Annotated[Any, AfterValidator(functools.partial(_late_hint, hint))]
        tags = [e for e in extras if isinstance(e, Tag)]
        rest = [e for e in extras if not isinstance(e, Tag)]
        out = _translate(inner)
        metadata = [Field(discriminator=tags[0].name)] if tags else []
        return Annotated[(out, *metadata, *rest)] if metadata or rest else out
    if origin in (typing.Union, _UnionType):
        return typing.Union[tuple(_translate(a) for a in args)]  # noqa: UP007  (built from a tuple)
    if origin is tuple:
        return tuple[tuple(_translate(a) if a is not Ellipsis else a for a in args)]  # type: ignore[misc]
    if origin in (list, dict) and args:
        return origin[tuple(_translate(a) for a in args)]
    if origin is Literal:
        return hint
    return hint


def _late(cls: type[Frozen], value: Any) -> Any:
    return validate(cls, value)


def _late_hint(hint: Any, value: Any) -> Any:
    adapter, make = validator(hint)
    return make(adapter.validate_python(value))


def to_records(value: Any) -> Any:
    """A twin's result as records (tuples, lists and dicts gone through)."""
    if isinstance(value, BaseModel):
        cls: type[Frozen] = type(value).__record__  # type: ignore[attr-defined]
        made = cls.__new__(cls)
        made.__dict__.update({name: to_records(getattr(value, name)) for name in spec(cls).names})
        return made
    if isinstance(value, tuple):
        return tuple(to_records(v) for v in value)
    if isinstance(value, list):
        return [to_records(v) for v in value]
    if isinstance(value, dict):
        return {k: to_records(v) for k, v in value.items()}
    return value
