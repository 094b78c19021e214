"""The update step's `replace` (issue #26: ~7x faster than dataclasses.replace on the Model) gives the
same values as dataclasses.replace for every class of the model, keeps them frozen, and refuses a
name that is not a field."""

from __future__ import annotations

import dataclasses

import pytest

from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.update import initial_model
from mrsmith_tui.tui.update.quick_replace import replace


def _instances():
    model = initial_model()
    block = ui.Block(key="b1", kind="text", started=1.0, text="hi")
    yield model
    yield block
    for field in dataclasses.fields(model):
        value = getattr(model, field.name)
        if dataclasses.is_dataclass(value):
            yield value


@pytest.mark.parametrize("obj", list(_instances()), ids=lambda o: type(o).__name__)
def test_each_field_replaced_gives_what_dataclasses_replace_gives(obj):
    for field in dataclasses.fields(obj):
        value = getattr(obj, field.name)
        other = ("changed",) if isinstance(value, tuple) else value
        mine, theirs = replace(obj, **{field.name: other}), dataclasses.replace(obj, **{field.name: other})
        assert mine == theirs and type(mine) is type(obj)
        assert replace(obj) == obj and replace(obj) is not obj
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(obj).__setattr__(dataclasses.fields(obj)[0].name, None)


def test_a_name_that_is_not_a_field_is_refused():
    with pytest.raises(TypeError, match="no field"):
        replace(initial_model(), no_such_field=1)
