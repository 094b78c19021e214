"""Project tools load only once trusted: the per-user trust store, keyed by the file's digest; the prompt
shows the whole file or is not shown (F2)."""

from __future__ import annotations

import threading
import time

import pytest

from mrsmith_tui.tools.dropin.trust import LINE_CAP, SHOWN_LINES, unshowable
from tests.tools.dropin.helpers import GOOD, Approver


def in_worker(fn):
    """The service asks in the thread that needs the tools (a run's worker), never on the main thread."""
    box: list = []
    t = threading.Thread(target=lambda: box.append(fn()))
    t.start()
    t.join(90)
    return box[0]


def test_stored_mode_leaves_an_untrusted_project_tool_off_with_one_line(env):
    env.project_tool("shout.py", GOOD)
    assert env.service(mode="stored").current_tools() == []
    assert env.warnings() == ['project tool .mrsmith/tools/shout.py not loaded: not trusted in this folder; rerun with '
                              '--trust-project-tools, or start mrsmith here and answer "always"']


def test_yes_mode_loads_it_for_the_run_only(env):
    env.project_tool("shout.py", GOOD)
    assert [t.name for t in env.service(mode="yes").current_tools()] == ["shout"]
    assert env.service(mode="stored").current_tools() == []  # nothing was remembered


def test_always_is_remembered_and_an_edit_asks_again(env):
    path = env.project_tool("shout.py", GOOD)
    asker = Approver("always")
    tools = in_worker(env.service(mode="ask", approver=asker).current_tools)
    assert [t.name for t in tools] == ["shout"] and [t.origin for t in tools] == ["project"]
    query = asker.queries[0]
    assert query.tool == "project tool .mrsmith/tools/shout.py" and query.rule == "runs"
    assert query.diff == "\n".join("+" + line for line in GOOD.rstrip("\n").split("\n"))  # every line of the code
    again = Approver()
    assert [t.name for t in in_worker(env.service(mode="ask", approver=again).current_tools)] == ["shout"]
    assert again.queries == []  # trusted in this folder: not asked again
    path.write_text(GOOD + "# edited\n")
    edited = Approver("no")
    assert in_worker(env.service(mode="ask", approver=edited).current_tools) == []
    assert len(edited.queries) == 1 and edited.queries[0].diff.endswith("+# edited")


def test_yes_holds_for_the_session_and_no_until_reload(env):
    env.project_tool("shout.py", GOOD)
    asker = Approver("no", "yes")
    svc = env.service(mode="ask", approver=asker)
    assert in_worker(svc.current_tools) == []
    assert in_worker(svc.current_tools) == [] and len(asker.queries) == 1  # a "no" is not asked again
    assert "shout (project)" in in_worker(svc.reload)
    assert len(asker.queries) == 2
    assert env.service(mode="stored").current_tools() == []  # "yes" was not remembered


def test_the_ui_thread_never_waits_for_the_answer(env):
    env.project_tool("shout.py", GOOD)
    gate = threading.Event()

    class Slow(Approver):
        def approve(self, query):
            gate.wait(90)
            return super().approve(query)

    svc = env.service(mode="ask", approver=Slow("yes"))
    assert svc.current_tools() == []  # the main thread: asked in a thread of its own
    gate.set()
    deadline = time.monotonic() + 90
    while not svc.current_tools() and time.monotonic() < deadline:
        gate.wait(0.01)
    assert [t.name for t in svc.current_tools()] == ["shout"]


@pytest.mark.parametrize(("text", "why"), [
    ("\n".join(f"x{i} = {i}" for i in range(SHOWN_LINES + 1)), f"lines; the trust prompt shows {SHOWN_LINES} at most"),
    ("x = '" + "a" * LINE_CAP + "'", "line 6 has"),
    ("x = 1\ny = 'a\u202eb'", "line 7 holds U+202E"),
    ("x = 1\ry = 2", "line 6 holds U+000D"),
    ("x = '\u200b'", "U+200B"),
    ("x = '\x1b[8m'", "U+001B"),
    ("x = 1\u2028y = 2", "U+2028"),
    ("if 1:\n\tx = '" + "a" * (LINE_CAP - 8) + "'", "line 7 has 1000 characters"),  # fits but for its tab
], ids=["lines", "long-line", "bidi", "carriage-return", "zero-width", "escape", "line-separator", "tab-widened"])
def test_a_file_that_cannot_be_shown_whole_is_not_asked_about(env, text, why):
    env.project_tool("hidden.py", GOOD.replace("def run", text + "\n\n\ndef run"))
    asker = Approver("always")
    assert in_worker(env.service(mode="ask", approver=asker).current_tools) == []
    assert asker.queries == []
    [warning] = env.warnings()
    assert warning.startswith("project tool .mrsmith/tools/hidden.py not loaded: it cannot be shown whole in the trust prompt (")
    assert why in warning and "--trust-project-tools" in warning


def test_what_fits_is_shown_whole():
    assert unshowable("\n".join("x = 1" for _ in range(SHOWN_LINES))) is None
    assert unshowable("x = '" + "a" * (LINE_CAP - 6) + "'\r\n") is None


def test_a_broken_project_file_is_a_warning_not_a_question(env):
    env.project_tool("broken.py", "NAME = 1\nDESCRIPTION = 'x'\nPARAMETERS = {}\ndef run(a): pass\n")
    asker = Approver("always")
    assert in_worker(env.service(mode="ask", approver=asker).current_tools) == []
    assert asker.queries == [] and len(env.warnings()) == 1 and "broken.py" in env.warnings()[0]


def test_the_prompt_cap_matches_the_dialog():
    from mrsmith_tui.tui.view import blocks

    assert SHOWN_LINES == blocks.SHOWN_LINES and LINE_CAP < blocks.LINE_CAP
