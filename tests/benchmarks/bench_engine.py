"""Engine faults: how long a hang takes to be told, and the memory an engine's flood of output costs.

A fake engine (a real executable script: a real engine cannot be made to hang or flood on purpose)
speaks UCI and then never answers "go" (silent), or talks on without a move ("info" every 0.2 s), or
writes 200 MB without a newline. With the adapter's default bounds, per level: the seconds until
``EngineError`` (hung / not UCI), and the peak memory of the process driving it (a process of its
own per run). Run: ``python tests/benchmarks/bench_engine.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))    # the repository: the tests' fake engines
from tests.support.fake_engine import fake  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

FAKES = {
    "silent": "pass",
    "talks, no move": "import time\n                for _ in range(10_000): say('info depth 1'); time.sleep(0.2)",
    "200 MB, no newline": "chunk = b'y' * (1 << 20)\n                for _ in range(200): out.write(chunk)\n"
                          "                out.flush()",
}

PROBE = """
import resource, sys, time
import chess
from blindchess.adapters.engine import Engine, EngineError, level
engine = Engine.start(sys.argv[1], level(int(sys.argv[2])), "en")
start = time.monotonic()
try:
    engine.choose(chess.Board())
    message = "a move"
except EngineError as exc:
    message = exc.message
print(f"{time.monotonic() - start:.1f}\\t{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}\\t{message}")
"""


def main() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        probe = folder / "probe.py"
        probe.write_text(PROBE)
        print("fake engine\tlevel\tseconds until told\tpeak MB\tsentence")
        for name, on_go in FAKES.items():
            path = fake(folder, name, on_go)
            for lv in (1, 6):
                out = subprocess.run([sys.executable, str(probe), str(path), str(lv)], capture_output=True,
                                     text=True, env=env, timeout=300).stdout.strip()
                print(f"{name}\t{lv}\t{out}")


if __name__ == "__main__":
    main()
