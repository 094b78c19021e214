"""Tab again cycles through the choices offered for what was typed (a try-out: `/u` offered `/usage  /undo`,
Tab gave `/usage` and Tab again did nothing)."""

from __future__ import annotations

from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.update import initial_model
from tests.tui.fakes import AT, fold

TAB = ui.AcceptCompletion(at=AT)


def typed(text: str, model: ui.Model | None = None) -> ui.Model:
    model, _ = fold(model or initial_model(), ui.DraftChanged(text=text, at=AT))
    return model


def tabs(model: ui.Model, n: int) -> list[str]:
    drafts = []
    for _ in range(n):
        model, _ = fold(model, TAB)
        drafts.append(model.input.draft)
    return drafts


def test_tab_again_takes_the_next_choice_and_comes_round():
    model = typed("/u")
    assert model.input.completions == ("/usage", "/undo")
    assert tabs(model, 3) == ["/usage", "/undo ", "/usage"]  # /undo takes [N]


def test_the_choices_stay_offered_while_cycling_and_the_note_marks_the_current_one():
    model, _ = fold(typed("/u"), TAB, TAB)
    assert model.input.completions == ("/usage", "/undo") and model.input.chosen == 1
    assert ui.completion_note(model.input.completions, model.input.chosen) == "Tab ⇥ /usage  [/undo]"
    assert ui.completion_note(("/usage", "/undo"), None) == "Tab ⇥ /usage  /undo"  # before the first Tab


def test_a_choice_that_takes_an_argument_gets_its_blank_and_the_next_replaces_it():
    model = typed("/re")
    assert model.input.completions == ("/reset", "/reasoning")
    assert tabs(model, 3) == ["/reset", "/reasoning ", "/reset"]


def test_typing_ends_the_cycle_and_completes_what_is_typed_now():
    model, _ = fold(typed("/u"), TAB, TAB)
    model = typed("/undo 2", model)
    assert model.input.chosen is None and model.input.completions == ()
    model, _ = fold(typed("/re", model), TAB)
    assert model.input.draft == "/reset" and model.input.completions == ("/reset", "/reasoning")


def test_the_widget_echoing_the_completed_draft_does_not_end_the_cycle():
    model, _ = fold(typed("/u"), TAB)
    model = typed("/usage", model)  # the prompt widget reports the text update put in it
    model, _ = fold(model, TAB)
    assert model.input.draft == "/undo "


def test_a_single_choice_is_taken_and_what_it_offers_is_next():
    files = ("src/", "src/app.py", "setup.py")
    model, _ = fold(initial_model(), ui.FilesIndexed(paths=files, at=AT))
    model = typed("see @sr", model)
    assert model.input.completions == ("@src/",)
    model, _ = fold(model, TAB)
    assert model.input.draft == "see @src/" and model.input.completions == ("@src/app.py",)


def test_mentions_cycle_too_and_each_choice_replaces_the_last():
    files = ("src/", "setup.py")
    model, _ = fold(initial_model(), ui.FilesIndexed(paths=files, at=AT))
    model = typed("see @s", model)
    assert model.input.completions == ("@src/", "@setup.py")
    assert tabs(model, 3) == ["see @src/", "see @setup.py ", "see @src/"]
    model, _ = fold(model, TAB, TAB, ui.FilesIndexed(paths=files, at=AT))  # a fresh index mid-cycle
    assert model.input.completions == ("@src/", "@setup.py")


def test_the_note_keeps_the_current_choice_in_view():
    many = tuple(f"@f{i}.py" for i in range(12))
    assert ui.completion_note(many, 0).startswith("Tab ⇥ [@f0.py]") and ui.completion_note(many, 0).endswith(" …")
    late = ui.completion_note(many, 10)
    assert late.split()[2:] == ["@f3.py", "@f4.py", "@f5.py", "@f6.py", "@f7.py", "@f8.py", "@f9.py", "[@f10.py]", "…"]


async def test_in_the_app_tab_twice_gives_the_second_choice_in_the_prompt():
    """The widget's echo of the first choice must not end the cycle, nor send the second Tab elsewhere."""
    from mrsmith_tui.tui.app import MrSmithApp
    from tests.tui.fakes import CONFIG, factory
    from tests.tui.pilot import until

    app = MrSmithApp(factory([]), config=CONFIG, history_path=None, welcome=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.focused is not None and app.focused.id == "prompt")
        await pilot.press("slash", "u")
        await until(pilot, lambda: app.model.input.completions == ("/usage", "/undo"))
        await pilot.press("tab")
        await until(pilot, lambda: app.query_one("#prompt").text == "/usage")
        await pilot.press("tab")
        await until(pilot, lambda: app.query_one("#prompt").text == "/undo ")
        await pilot.press("tab")
        await until(pilot, lambda: app.query_one("#prompt").text == "/usage")
