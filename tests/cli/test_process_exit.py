"""A headless run from the command line ends without the interpreter's teardown, after doing what
that exit must (cli.process_exit, #26); anything else keeps the ordinary exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# The child registers an atexit handler (must run) and watches os._exit (the end without teardown),
# then runs mrsmith's main as the script does.
CHILD = """
import atexit, os, sys, threading
atexit.register(lambda: sys.stderr.write("ATEXIT RAN\\n"))
real_exit = os._exit
def watched_exit(code):
    sys.stderr.write(f"ENDED AT ONCE {code}\\n")
    sys.stderr.flush()
    real_exit(code)
os._exit = watched_exit
if sys.argv[1] == "thread":
    gate = threading.Event()
    threading.Thread(target=gate.wait, args=(60,)).start()  # a non-daemon thread still running at the end
    import mrsmith_tui.cli.process_exit as process_exit
    end = process_exit.end
    def end_then_release(code):
        end(code)  # returns: it did not end the process
        gate.set()  # the ordinary exit joins the thread: now it ends
    process_exit.end = end_then_release
sys.stdout.write("before ")
from mrsmith_tui.cli import main
sys.argv = ["mrsmith", *sys.argv[2:]]
raise SystemExit(main())
"""


def _run(loopback, tmp_path: Path, mode: str, *argv: str, turn: object = None) -> subprocess.CompletedProcess[str]:
    from loopback import text_turn

    srv = loopback([turn or text_turn("the answer")])
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    sessions = tmp_path / "sessions"
    args = argv or ("--base-url", srv.base_url, "--model", "m", "--api-key", "none", "-p", "hi")
    return subprocess.run([sys.executable, "-c", CHILD, mode, *args], cwd=work, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL,
                          env={**os.environ, "MRSMITH_NO_CONTEXT_PROBE": "1", "PYTHONPATH": str(REPO),
                               "MRSMITH_SESSIONS_DIR": str(sessions), "HOME": str(tmp_path)})


def test_a_one_shot_ends_at_once_after_its_atexit_handlers_and_flushes(loopback, tmp_path):
    proc = _run(loopback, tmp_path, "plain")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "before the answer\n"  # the buffered text before mrsmith's is flushed too
    assert proc.stderr.endswith("ATEXIT RAN\nENDED AT ONCE 0\n")  # the atexit handlers, then no teardown
    transcripts = list((tmp_path / "sessions").glob("*/transcript.jsonl"))
    assert len(transcripts) == 1 and '"RunEnded"' in transcripts[0].read_text()  # closed whole


def test_a_failed_one_shot_keeps_its_exit_code(loopback, tmp_path):
    from loopback import Turn

    proc = _run(loopback, tmp_path, "plain", turn=Turn(status=400, body={"error": {"message": "bad request"}}))
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.endswith("ATEXIT RAN\nENDED AT ONCE 1\n")


def test_a_running_non_daemon_thread_gets_the_ordinary_exit(loopback, tmp_path):
    proc = _run(loopback, tmp_path, "thread")
    assert proc.returncode == 0, proc.stderr
    assert "ATEXIT RAN" in proc.stderr and "ENDED AT ONCE" not in proc.stderr


def test_a_command_that_is_not_a_headless_run_gets_the_ordinary_exit(loopback, tmp_path):
    proc = _run(loopback, tmp_path, "plain", "--list")
    assert proc.returncode == 0, proc.stderr
    assert "ATEXIT RAN" in proc.stderr and "ENDED AT ONCE" not in proc.stderr


def test_main_called_with_arguments_never_ends_the_process(loopback, tmp_path, monkeypatch, capsys):
    from loopback import text_turn
    from mrsmith_tui.cli import main

    srv = loopback([text_turn("in process")])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MRSMITH_NO_CONTEXT_PROBE", "1")
    monkeypatch.setenv("MRSMITH_SESSIONS_DIR", str(tmp_path / "sessions"))
    assert main(["--base-url", srv.base_url, "--model", "m", "--api-key", "none", "-p", "hi"]) == 0
    assert "in process" in capsys.readouterr().out  # and this test is still running


def test_a_reader_gone_before_the_last_flush_is_quiet(tmp_path):
    """`mrsmith --list | head -1` with the listing still buffered: exit 0, nothing on stderr (not the
    interpreter's "Exception ignored ... BrokenPipeError" and exit 120)."""
    proc = subprocess.Popen([sys.executable, "-m", "mrsmith_tui", "--list", "--sessions-dir", str(tmp_path / "none")],
                            cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},  # buffered
                                 "PYTHONPATH": str(REPO), "HOME": str(tmp_path)})
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before mrsmith writes anything
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert err == b""
