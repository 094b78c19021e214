"""`python -m bench [--quick] [--app mrsmith|naive] [--only app,startup]`: print every figure
with its target and PASS / MISS. `--strict` exits 1 when a figure misses."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path


def _isolate() -> Path:
    """A fresh HOME: the bench never reads or writes the person's config, history or sessions."""
    home = Path(tempfile.mkdtemp(prefix="mrsmith-bench-"))
    os.environ.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"))
    os.environ.update(XDG_STATE_HOME=str(home / ".local/state"), XDG_CACHE_HOME=str(home / ".cache"))  # a person's own would win
    for var in ("NO_COLOR", "OPENAI_API_KEY", "OPENAI_BASE_URL", "MODEL"):
        os.environ.pop(var, None)
    return home


def _no_ui_ceiling(base_url: str, workdir: Path, tokens: int) -> float | None:
    """Tokens/s of provider + tool loop into a sink that only counts: what any UI can at best absorb."""
    from bench.harness import TimingSink, bench_config
    from mrsmith_tui.cancel import CancelToken
    from mrsmith_tui.core.session import build_session
    from mrsmith_tui.tools.approval import PolicyApprover

    timing = TimingSink()
    session = build_session(config=bench_config(base_url), agent_name="bench", cwd=workdir, sink=timing,
                            approver=PolicyApprover(), persist=False)
    try:
        session.run(f"stream {tokens} tag C", CancelToken())
    finally:
        session.close()
    log = timing.log
    if log.error or log.first_delta_at is None or log.ended_at is None:
        return None
    return tokens / (log.ended_at - log.first_delta_at)


def _load_app(kind: str):
    if kind == "naive":
        from bench.naive_app import run_tui as run_naive_tui
        return run_naive_tui, ""
    try:
        from mrsmith_tui.tui.app import run_tui
    except ImportError as e:
        return None, f"mrsmith_tui.tui.app cannot be imported ({e})"
    return run_tui, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter idle (under a minute)")
    parser.add_argument("--app", choices=["mrsmith", "naive"], default="mrsmith")
    parser.add_argument("--only", default="headless,app,startup,filter,latency",
                        help="comma list of: headless, app, keys (app's stream and 5,000-block sections only), startup, "
                             "filter, bounds, latency")
    parser.add_argument("--race-ops", type=int, default=100_000, help="operations of the containment race (bounds)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a figure misses its target")
    args = parser.parse_args(argv)
    parts = {p.strip() for p in args.only.split(",") if p.strip()}
    known = {"headless", "app", "keys", "startup", "filter", "bounds", "latency"}
    if not parts <= known:
        parser.error(f"--only: unknown part(s): {', '.join(sorted(parts - known))}")

    home = _isolate()
    import textual

    from bench import scenarios, startup
    from bench.harness import run_app
    from bench.report import Figure, print_section
    from bench.server import ServerProcess

    settings = scenarios.Settings.quick() if args.quick else scenarios.Settings()
    if "keys" in parts and "app" not in parts:
        parts.add("app")
        settings.keys_only = True
    print(f"mrsmith bench · app={args.app} · {'quick' if args.quick else 'full'} · {os.cpu_count()} cores · "
          f"Python {sys.version.split()[0]} · Textual {textual.__version__}")
    started = time.perf_counter()
    figures: list[Figure] = []
    run_tui, problem = _load_app(args.app)

    if "headless" in parts:
        from bench import oneshot

        with ServerProcess() as base_url:
            section = oneshot.measure(base_url, 3 if args.quick else 7)
        print_section("Headless one-shot (child processes, alternating; .pyc caching on, one warm-up run each)",
                      section)
        figures += section

    if "app" in parts:
        with ServerProcess() as base_url:
            ceiling = _no_ui_ceiling(base_url, home, settings.stream_tokens)
            if run_tui is None:
                sections = {"App": [Figure("in-app figures", None, "", ">= 0", problem)]}
            else:
                try:
                    sections = run_app(run_tui, base_url,
                                       lambda app, watch, timing: scenarios.run_all(app, watch, timing, settings, ceiling),
                                       home)
                except Exception as e:  # the app failed under the harness: say so, keep the rest
                    sections = {"App": [Figure("in-app figures", None, "", ">= 0", f"{type(e).__name__}: {e}")]}
            if ceiling and run_tui is None:
                sections["Baseline"] = [Figure("no-UI ceiling (provider + tool loop only)", ceiling, "tokens/s", "")]
        for title, section in sections.items():
            print_section(title, section)
            figures += section

    if "startup" in parts:
        repeats = 3 if args.quick else 11
        section = []
        for mode, what in (("frame", "first frame"), ("key", "first key shown")):
            bare, app_times, ratios, failure = startup.measure(args.app, repeats, dict(os.environ), mode)
            b, a, r = startup.median(bare), startup.median(app_times), startup.median(ratios)
            section += [
                Figure(f"bare Textual app: start -> {what} (median)", b * 1000 if b else None, "ms", "",
                       f"{len(bare)} runs"),
                Figure(f"{args.app}: start -> {what} (median)", a * 1000 if a else None, "ms", "",
                       failure or f"{len(app_times)} runs"),
                Figure("  ratio app / bare (median of the back-to-back pairs)", r, "x", "<= 1.3",
                       f"ratio of the medians {a / b:.3f}" if a and b else ""),
            ]
            bc, ac = startup.median(startup.CPU.get("bare", [])), startup.median(startup.CPU.get(args.app, []))
            section.append(Figure("  ratio of their CPU time (steadier on a busy machine)", ac / bc if ac and bc else None,
                                  "x", "", f"{ac * 1000:.0f} vs {bc * 1000:.0f} ms" if ac and bc else ""))
        print_section("Start-up (child processes, headless, 120x40; .pyc caching on, one warm-up start each)", section)
        figures += section

    if "bounds" in parts:
        from bench import bounds

        section = bounds.measure(args.race_ops)
        print_section("Bounds (child processes: 1 GB read, 100 MB output, 10k-file glob, 1,000 calls, race)", section)
        figures += section

    if "filter" in parts:
        from bench import outbound

        section = outbound.measure(args.quick)
        print_section("Outbound filter (terminal-text cleaning and redaction, on the streaming path)", section)
        figures += section

    if "latency" in parts:
        from bench import latency

        section = latency.measure()
        print_section("Latency budgets (moved out of the test suite: the suite checks behaviour only)", section)
        figures += section

    verdicts = [f.verdict for f in figures]
    print(f"\n{verdicts.count('PASS')} PASS · {verdicts.count('MISS')} MISS · "
          f"{time.perf_counter() - started:.0f} s")
    return 1 if args.strict and "MISS" in verdicts else 0


if __name__ == "__main__":
    sys.exit(main())
