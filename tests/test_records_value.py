"""records.Value, the TUI's model and effects: it behaves as the frozen dataclass it replaced (issue #26:
no code generated per class at start-up). Each class of the model and the effects is checked against
a frozen dataclass twin built from the same annotations and defaults: construction by position and by
keyword, defaults, equality, hashing, repr, frozenness and `replace`."""

from __future__ import annotations

import dataclasses
import inspect
import itertools
from typing import Any

import pytest

from mrsmith_tui.core.custom_commands import CommandSet, CustomCommand
from mrsmith_tui.core.prompt_syntax import Mention, ParsedPrompt
from mrsmith_tui.records import Frozen, Value, field, replace, spec
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.model.prompt_state import HistorySearch
from mrsmith_tui.tui.update import effects, initial_model
from mrsmith_tui.tui.update.attention import Call


class Pair(Value):
    left: int
    right: str = ""
    many: tuple[int, ...] = ()
    made: list[int] = field(default_factory=list)


class Triple(Pair):
    third: float = 0.0


def _value_classes() -> list[type[Value]]:
    found = [c for _, c in inspect.getmembers(ui, inspect.isclass) if issubclass(c, Value)]
    found += [c for _, c in inspect.getmembers(effects, inspect.isclass) if issubclass(c, Value)]
    found += [CommandSet, CustomCommand, Mention, ParsedPrompt, HistorySearch, Call]
    return sorted(set(found), key=lambda c: c.__qualname__)


def _twin(cls: type[Value]) -> type:
    """A frozen dataclass with `cls`'s fields, defaults and factories, in the same order."""
    s = spec(cls)
    namespace: dict[str, Any] = {"__annotations__": dict(s.annotations)}
    makers = dict(s.factories)
    for name in s.names:
        default = s.template[name]
        if name in makers:
            namespace[name] = dataclasses.field(default_factory=makers[name])
        elif name not in s.required:
            namespace[name] = default
    return dataclasses.dataclass(frozen=True)(type(cls.__name__, (), namespace))


def _sample(hint: str, n: int) -> Any:
    """A value of the field's kind, different for different n (the model's fields are plain data)."""
    if hint.startswith("tuple["):
        return (f"v{n}",)
    if hint.startswith("dict["):
        return {f"k{n}": n}
    if hint.startswith("bool"):
        return bool(n % 2)
    if hint.startswith(("int", "float")):
        return n
    return f"v{n}"


def _hash(obj: object) -> int | None:
    """Its hash, or None where a field holds a dict (as a frozen dataclass's, it cannot be hashed)."""
    try:
        return hash(obj)
    except TypeError:
        return None


CLASSES = _value_classes()


def test_the_model_and_effects_are_all_values_now():
    assert len(CLASSES) >= 35
    assert not any(dataclasses.is_dataclass(c) for c in CLASSES)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__qualname__)
def test_each_class_behaves_as_its_frozen_dataclass_twin(cls):
    twin = _twin(cls)
    s = spec(cls)
    required = {n: _sample(s.annotations[n], i) for i, n in enumerate(s.required)}
    mine, theirs = cls(**required), twin(**required)
    assert [getattr(mine, n) for n in s.names] == [getattr(theirs, f.name) for f in dataclasses.fields(twin)]
    assert repr(mine) == repr(theirs)
    positional = [getattr(mine, n) for n in s.names]
    assert cls(*positional) == mine
    assert _hash(cls(*positional)) == _hash(mine) and (_hash(mine) is None) == (_hash(theirs) is None)
    for i, name in enumerate(s.names):
        other = _sample(s.annotations[name], 100 + i)
        changed, twin_changed = replace(mine, **{name: other}), dataclasses.replace(theirs, **{name: other})
        assert type(changed) is cls and getattr(changed, name) == getattr(twin_changed, name)
        assert (changed == mine) == (twin_changed == theirs)
        assert replace(mine) == mine and replace(mine) is not mine
        with pytest.raises(AttributeError, match="frozen"):
            setattr(mine, name, other)
        with pytest.raises(AttributeError, match="frozen"):
            delattr(mine, name)


def test_made_by_position_or_keyword_with_defaults_in_field_order():
    assert Pair(1) == Pair(left=1) == Pair(1, "") and Pair(1) != Pair(2)
    assert repr(Triple(1, "a", (2,), [3], 4.0)) == "Triple(left=1, right='a', many=(2,), made=[3], third=4.0)"
    assert Pair(1).made is not Pair(1).made  # a fresh default each time
    assert Triple(1, third=2.0).third == 2.0 and Triple(1).right == ""
    assert Pair(1) != Triple(1) and Pair(1).__eq__(Triple(1)) is NotImplemented  # another class is never equal
    assert len({Pair(1, "a", made=None), Pair(1, "a", made=None), Pair(1, "b", made=None)}) == 2  # type: ignore[arg-type]


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((), {}, "missing field 'left'"),
    ((1,), {"nope": 2}, "unknown field 'nope'"),
    ((1,), {"left": 2}, "field 'left' given twice"),
    ((1, "a", (), [], 5), {}, "takes 4 fields, 5 given"),
    ((), {"right": "x"}, "missing field 'left'"),
])
def test_wrong_construction_names_what_is_wrong(args, kwargs, message):
    with pytest.raises(TypeError, match=message):
        Pair(*args, **kwargs)


def test_replace_refuses_a_name_that_is_not_a_field_and_keeps_the_original():
    model = initial_model()
    with pytest.raises(TypeError, match="no field"):
        replace(model, no_such_field=1)
    assert replace(model, now=5.0).now == 5.0 and model.now == 0.0


def test_replace_gives_what_a_new_instance_gives_for_every_combination_of_fields():
    base = Triple(1, "a", (2,), [3], 4.0)
    values = {"left": 9, "right": "z", "many": (), "made": [], "third": 1.5}
    for r in range(len(values) + 1):
        for names in itertools.combinations(values, r):
            changes = {n: values[n] for n in names}
            expected = Triple(**{**{n: getattr(base, n) for n in spec(Triple).names}, **changes})
            assert replace(base, **changes) == expected


def test_records_of_both_kinds_copy_and_compare_the_same_way():
    class Point(Frozen):
        x: int
        y: int = 0

    p = Point(x=1)
    assert replace(p, y=2) == p.model_copy(update={"y": 2}) == Point(x=1, y=2)
