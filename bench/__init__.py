"""Benchmarks of the full-screen app (issue 4, "Speed"): `python -m bench [--quick]`.

    workload.py   the streamed Markdown/reasoning text, cut into tokens, and the SSE turn
    server.py     the loopback server (tests/loopback.py) in a subprocess, so its CPU is not ours
    harness.py    the app under Textual's headless driver: frames, keys, a session proxy
    scenarios.py  throughput, key latency, scale, memory, idle CPU
    startup.py    time to the first frame, app vs a bare Textual app (child processes)
    report.py     figures with their targets, PASS/MISS
    naive_app.py  a deliberately naive reference app (MarkdownStream per block), `--app naive`
"""
