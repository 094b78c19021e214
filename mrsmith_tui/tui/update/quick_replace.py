"""`replace` for the model's frozen dataclasses, on the hot path (issue #26).

`dataclasses.replace` goes through every field and `__init__` again: about 7 calls a streamed
Msg, it was most of the update step's time while 100 agents streamed. The model's classes have no
`__post_init__` and no slots, so a copy of the instance's fields with the changes on top is the
same value; a name that is not a field is still refused, as `dataclasses.replace` refuses it.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


_new = object.__new__
_set = object.__setattr__


def replace(obj: T, /, **changes: Any) -> T:
    cls: Any = type(obj)
    if not changes.keys() <= cls.__dataclass_fields__.keys():
        unknown = sorted(set(changes) - set(cls.__dataclass_fields__))
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")
    new = _new(cls)
    _set(new, "__dict__", {**obj.__dict__, **changes})
    return new
