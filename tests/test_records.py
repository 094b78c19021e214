"""mrsmith_tui.records: the frozen records Msgs and history entries are made of (no pydantic until one
is read back)."""

from __future__ import annotations

import threading
from typing import Annotated, ClassVar, Literal

import pytest
from pydantic import ValidationError

from mrsmith_tui.records import Frozen, Tag, field, text_fields


class Point(Frozen):
    kind: Literal["point"] = "point"
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()
    made: list[int] = field(default_factory=list)


class Loose(Frozen):
    extra_keys: ClassVar[str] = "ignore"
    kind: Literal["loose"] = "loose"
    name: str


class Line(Frozen):
    start: Point
    end: Point | None = None
    parts: tuple[Annotated[Point | Loose, Tag("kind")], ...] = ()


def test_made_by_keyword_with_defaults_in_field_order():
    p = Point(y=2, x=1)
    assert list(p.model_dump()) == ["kind", "x", "y", "tags", "made"]
    assert repr(p) == "Point(kind='point', x=1, y=2, tags=(), made=[])"
    assert Point(x=1).made is not Point(x=1).made  # a fresh default each time


@pytest.mark.parametrize("kwargs, problem", [({}, "missing field 'x'"), ({"x": 1, "z": 2}, "unknown field 'z'"),
                                             ({"y": 1, "z": 2}, "unknown field 'z', missing field 'x'")])
def test_a_wrong_field_is_a_type_error(kwargs, problem):
    with pytest.raises(TypeError, match=problem):
        Point(**kwargs)


def test_frozen_compared_and_hashed_by_value_and_copied_with_an_update():
    p = Point(x=1, tags=["a", "b"])
    assert p.tags == ("a", "b")  # a list given for a tuple field is made a tuple
    with pytest.raises(AttributeError):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.x
    q = p.model_copy(update={"y": 5})
    assert (q.x, q.y, p.y) == (1, 5, 0) and q != p and q == Point(x=1, y=5, tags=("a", "b"))
    assert Point(x=1) != Loose(name="1") and len({Point(x=1, made=None), Point(x=1, made=None)}) == 1  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="no field 'nope'"):
        p.model_copy(update={"nope": 1})


def test_dump_as_python_or_json_and_read_back_checked():
    line = Line(start=Point(x=1, tags=("t",)), parts=(Point(x=2), Loose(name="n")))
    data = line.model_dump(mode="json")
    assert data["start"]["tags"] == ["t"] and line.model_dump()["start"]["tags"] == ("t",)
    assert line.model_dump(exclude={"parts", "end"}) == {"start": line.model_dump()["start"]}
    assert Line.model_validate(data) == line
    data["parts"][1] = {"name": "n"}  # no tag: the union cannot tell it apart
    with pytest.raises(ValidationError):
        Line.model_validate(data)
    assert Loose.model_validate({"name": "n", "newer": 1}) == Loose(name="n")  # ignored, as it says
    with pytest.raises(ValidationError, match="extra"):
        Point.model_validate({"x": 1, "newer": 1})
    assert Point.model_validate({"x": "3"}) == Point(x=3)  # pydantic's lax reading


def test_read_back_equals_what_was_written():
    line = Line(start=Point(x=1, tags=("t",)), end=Point(x=9), parts=(Point(x=2),))
    assert Line.model_validate(line.model_dump(mode="json")) == line
    assert Line.model_validate(line) is line


def test_text_fields_leave_out_the_tags():
    assert text_fields(Point) == ("x", "y", "tags", "made")


def test_first_checks_from_many_threads_build_each_checker_once():
    class Fresh(Frozen):
        a: int

    start, results, errors = threading.Barrier(8), [], []

    def use() -> None:
        start.wait()
        try:
            results.append(Fresh.model_validate({"a": 1}))
        except Exception as e:  # pragma: no cover - what the test looks for
            errors.append(e)

    threads = [threading.Thread(target=use) for _ in range(8)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert errors == [] and results == [Fresh(a=1)] * 8
