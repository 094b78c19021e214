"""The loopback OpenAI-compatible server in a child process (its CPU is not the app's).

The child answers each chat request from the last user message: `stream N` streams an
N-token answer (15 % reasoning first), `stream N plain` one without reasoning; `... tag T` ends it with `ZQXEND<T>`, `... rate R` paces it at R tokens/s; anything
else gets a short reply. `python -m bench.server` prints its base URL on the first line.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _last_user_text(body: dict) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else str(content)
    return ""


def _respond(body: dict, n: int):
    from bench.workload import END_MARK, stream_turn
    from loopback import text_turn

    m = re.search(r"stream (\d+)( plain)?(?: tag (\w+))?(?: rate (\d+))?", _last_user_text(body))
    if not m:
        return text_turn("ok")
    mark = END_MARK + (m.group(3) or "")
    turn = stream_turn(int(m.group(1)), 0.0 if m.group(2) else 0.15, seed=n + 1, mark=mark)[0]
    if m.group(4):  # paced like a real model: one event every 1/rate s
        turn.split, turn.delay = None, 1 / int(m.group(4))
    return turn


def main() -> None:
    import bench.workload  # noqa: F401  (puts tests/ on sys.path)
    from loopback import LoopbackServer

    server = LoopbackServer(responder=_respond, models=["bench-model"]).start()
    print(server.base_url, flush=True)
    sys.stdin.read()  # until the parent closes our stdin (or dies)
    server.stop()


class ServerProcess:
    """`with ServerProcess() as base_url:` the child runs until the block ends."""

    def __enter__(self) -> str:
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.server"], cwd=REPO, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None and self.proc.stdin is not None  # both PIPE
        line = self.proc.stdout.readline().strip()
        if not line.startswith("http://"):
            self.proc.kill()
            raise RuntimeError("the bench server did not start")
        return line

    def __exit__(self, *exc: object) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


if __name__ == "__main__":
    main()
