"""Start-up to a usable window: ``blindchess`` in a real subprocess, median of several runs.

Target: < 1.5 s. The app prints ``ready <seconds>`` once its window
is shown and the event loop runs (``BLINDCHESS_EXIT_WHEN_READY=1``), then quits.
We measure from spawning the process (interpreter start-up and imports included)
until that line arrives. Run: ``QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = int(os.environ.get("BENCH_RUNS", "7"))
TARGET = 1.5


def one_run(home: str) -> tuple[float, float]:
    env = dict(os.environ, BLINDCHESS_EXIT_WHEN_READY="1", BLINDCHESS_HOME=home)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "blindchess"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    line = proc.stdout.readline()
    wall = time.perf_counter() - start
    proc.communicate(timeout=30)
    if not line.startswith("ready"):
        raise SystemExit(f"the app did not report ready: {line!r} (exit {proc.returncode})")
    return wall, float(line.split()[1])


def main() -> int:
    with tempfile.TemporaryDirectory() as home:
        one_run(home)  # warm the file cache (.pyc, Qt plugins), as a second start would be
        walls, inner = [], []
        for _ in range(RUNS):
            wall, in_process = one_run(home)
            walls.append(wall)
            inner.append(in_process)
    walls.sort()
    median = statistics.median(walls)
    print(f"start-up to usable window, {RUNS} runs (real subprocess, offscreen Qt):")
    print(f"  median {median:.3f} s   min {walls[0]:.3f} s   max {walls[-1]:.3f} s")
    print(f"  in-process (imports + window): median {statistics.median(inner):.3f} s")
    print(f"  target < {TARGET} s: {'met' if median < TARGET else 'NOT met'}")
    return 0 if median < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
