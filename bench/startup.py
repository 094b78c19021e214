"""Time from process start to the first frame, and to the first key shown: the app vs a bare
Textual app with an Input, in child processes.

`python -m bench.startup bare|mrsmith|naive [frame|key]` starts that app headless at 120×40 and
prints `FRAME` the moment the first frame is composed (or, with `key`, presses a key at the first
frame and prints `KEY` when a frame shows it); the parent times spawn -> that line, so
the figure includes the interpreter, the imports, the config load and the first layout.
`mrsmith` is started through `cli.main`, as a person starts it. The children keep .pyc
files (PYTHONDONTWRITEBYTECODE removed) and each kind is started once untimed first.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


KEY = "ζ"  # typed at the first frame; never in either app's own text


def _first_frame_exits(mode: str) -> None:
    """`frame`: exit at the first frame. `key`: at the first frame, press KEY (as a terminal driver
    would post it) and exit at the first frame that shows it in the prompt."""
    from textual import events
    from textual.app import App

    original = App._display
    pressed: list[bool] = []

    def display(self, screen, renderable):
        original(self, screen, renderable)
        if renderable is None:
            return
        text = renderable.render_segments(self.console)  # what a terminal would get
        if mode == "frame" or KEY in text:
            sys.stdout.write(f"{mode.upper()}\n")
            sys.stdout.flush()
            os._exit(0)
        if not pressed:
            pressed.append(True)
            event = events.Key(KEY, KEY)
            event.set_sender(self)
            self._driver.send_message(event)

    App._display = display  # type: ignore[method-assign]  # the child times its first frame (or key)


def _headless_run() -> None:
    import asyncio

    from textual.app import App

    def run(self, *args, **kwargs):
        asyncio.run(self.run_async(headless=True, size=(120, 40)))
        return self.return_value

    App.run = run  # type: ignore[method-assign]  # headless, at a fixed size


def child(kind: str, mode: str = "frame") -> None:
    _first_frame_exits(mode)
    _headless_run()
    if kind == "bare":
        from textual.app import App
        from textual.widgets import Footer, Input, Static

        class Bare(App):
            def compose(self):
                yield Static("hello")
                yield Input()
                yield Footer()

        Bare().run()
        return
    if kind == "naive":
        _naive_child()
        return
    _cli_child()


# A port nothing listens on: the session is never used before the first frame, and a
# request to it would fail at once rather than hang.
DEAD_ENDPOINT = "http://127.0.0.1:9/v1"


def _cli_child() -> None:
    """What a person gets from `mrsmith`: `cli.main()` with a config file in the default place
    (the real config load and validation, the real composition). The process gets its own
    fresh HOME first, so the person's config, history and sessions are never touched."""
    import tempfile

    home = Path(tempfile.mkdtemp(prefix="mrsmith-startup-"))
    os.environ.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"))
    os.environ.update(XDG_STATE_HOME=str(home / ".local/state"), XDG_CACHE_HOME=str(home / ".cache"))  # a person's own would win
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "MODEL", "NO_COLOR"):
        os.environ.pop(var, None)
    config = home / ".config" / "mrsmith" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        "[[providers]]\n"
        f'name = "bench"\nbase_url = "{DEAD_ENDPOINT}"\napi_key = "none"\n\n'
        "[[agents]]\n"
        'name = "bench"\nprovider = "bench"\nmodel = "bench-model"\n',
        encoding="utf-8",
    )
    work = home / "project"
    work.mkdir()
    os.chdir(work)
    from mrsmith_tui.cli import command as cli

    cli._stdin_is_terminal = lambda: True  # headless Textual stands in for the terminal a person has
    sys.argv = ["mrsmith"]
    sys.exit(cli.main())  # as the `mrsmith` script calls it (argv None: the program's own run, cli.startup_gc)


def _naive_child() -> None:
    import tempfile

    from bench.harness import bench_config
    from bench.naive_app import run_tui

    config = bench_config(DEAD_ENDPOINT)
    work = Path(tempfile.mkdtemp())

    def make_session(sink, approver):
        from mrsmith_tui.core.session import build_session

        return build_session(config=config, agent_name="bench", cwd=work, sink=sink, approver=approver, persist=False)

    run_tui(make_session, config=config, theme=None, history_path=work / "history")


CPU: dict[str, list[float]] = {}  # kind -> CPU seconds of each timed start (steadier than wall time on a busy machine)


def time_once(kind: str, env: dict[str, str], mode: str = "frame") -> float | None:
    from bench.oneshot import child_cpu

    cpu0, t0 = child_cpu(), time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "bench.startup", kind, mode], cwd=REPO, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None  # stdout=PIPE
        line = proc.stdout.readline()
        elapsed = time.perf_counter() - t0
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        return None
    if line.strip() != mode.upper():
        return None
    CPU.setdefault(kind, []).append(child_cpu() - cpu0)
    return elapsed


def child_env(env: dict[str, str]) -> dict[str, str]:
    """The children's environment: bytecode caching on, as on a person's machine.

    With PYTHONDONTWRITEBYTECODE set, our modules would be compiled from source on every
    start while Textual's come precompiled from site-packages: that measures the compiler,
    not the app a person starts the second time."""
    env = dict(env)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure(app_kind: str, repeats: int, env: dict[str, str], mode: str = "frame") -> tuple[list[float], list[float], list[float], str]:
    """(bare times, app times, the ratio app / bare of each pair of starts made one after the other,
    first stderr line of a failed app start); interleaved runs, after one untimed warm-up start of each
    (file cache, .pyc files written). A pair's two starts see the same moment's load: the median of
    the pairs' ratios moves less with a busy machine than the ratio of the two medians."""
    env = child_env(env)
    bare, app, ratios = [], [], []
    problem = ""
    time_once("bare", env, mode)
    time_once(app_kind, env, mode)
    CPU.clear()  # the warm-up starts are not counted
    for _ in range(repeats):
        b = time_once("bare", env, mode)
        if b is not None:
            bare.append(b)
        a = time_once(app_kind, env, mode)
        if a is not None:
            app.append(a)
        if a is not None and b is not None:
            ratios.append(a / b)
    if not app:
        proc = subprocess.run([sys.executable, "-m", "bench.startup", app_kind, mode], cwd=REPO, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        lines = [x for x in proc.stderr.strip().splitlines() if x.strip()]
        problem = lines[-1] if lines else f"exit code {proc.returncode}"
    return bare, app, ratios, problem


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


if __name__ == "__main__":
    child(sys.argv[1], *sys.argv[2:3])
