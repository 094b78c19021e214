"""The wait for a finished command's pipe readers: all the output, yet never for ever."""

from __future__ import annotations

import os
import threading

from mrsmith_tui.tools.shell.pipe_drain import drain, pipe_has_work


def _gated_reader(fd: int, go: threading.Event, got: list[bytes]) -> threading.Thread:
    def read() -> None:
        go.wait()
        with os.fdopen(fd, "rb") as f:
            got.append(f.read())
    t = threading.Thread(target=read, daemon=True)
    t.start()
    return t


def test_output_waiting_in_the_pipe_is_waited_for_even_past_the_quiet_time():
    # the reader has not got to the bytes yet (a loaded machine): a quiet time of 0 must not end the wait
    r, w = os.pipe()
    os.write(w, b"the end of the output\n")
    os.close(w)
    go, got, done = threading.Event(), [], threading.Event()
    reader = _gated_reader(r, go, got)
    waiter = threading.Thread(target=lambda: (drain([reader], [r], quiet=0.0, cap=90), done.set()), daemon=True)
    waiter.start()
    assert not done.wait(0.3), "the wait ended while the output was still in the pipe"
    go.set()
    assert done.wait(90)
    assert got == [b"the end of the output\n"]


def test_a_pipe_held_open_in_silence_ends_the_wait_after_the_quiet_time():
    # a process that escaped the group kill holds the write end and says nothing
    r, w = os.pipe()
    reader_go = threading.Event()
    reader = threading.Thread(target=reader_go.wait, daemon=True)
    reader.start()
    drain([reader], [r], quiet=0.0, cap=90)  # returns: nothing to read, nothing coming
    assert reader.is_alive()
    reader_go.set()
    os.close(w)
    os.close(r)


def test_pipe_has_work_tells_bytes_and_eof_from_silence():
    r, w = os.pipe()
    try:
        assert not pipe_has_work(r)
        os.write(w, b"x")
        assert pipe_has_work(r)
        os.read(r, 1)
        os.close(w)
        w = -1
        assert pipe_has_work(r)  # EOF
    finally:
        os.close(r)
        if w != -1:
            os.close(w)
    assert not pipe_has_work(r)  # closed: nothing to wait for
