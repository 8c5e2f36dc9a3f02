"""The real program killed with SIGKILL right after one of its writes reached the disk, and started again.

A crash can only leave what the program had written when it died: every unit of the journal is one
``write`` followed by an ``fsync``, and the envelope of an adjourned game is written, fsynced and
renamed. So the moments that matter are the program's fsyncs, and :class:`Programs` kills it at each of
them: the command ``blindchess …`` runs in a process of its own whose ``os.fsync`` counts, and right
after the N-th one has returned the process sends itself SIGKILL — no cleanup, no ``finally``, no
flush, the length line left as the last rewrite put it, exactly as the system leaves a killed program's
files.

Starting Python and importing the program takes most of a run's time, so the processes are forked from
one that has imported :mod:`blindchess.cli` and does nothing else (no thread, no Qt, no open journal):
each run is a fresh child process that calls :func:`blindchess.cli.main` with the command's arguments,
as the ``blindchess`` command does, its standard output to a file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.support.paths import REPO

#: The process runs are forked from: it reads one request a line on stdin ({"args", "stdout", "kill_at",
#: "count"}), forks, waits for the child, and answers one line: how it ended.
_FORKER = r'''
import json, os, signal, sys
import blindchess.cli

def child(request):
    out = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err = os.open(request["stdout"] + ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(out, 1), os.dup2(err, 2), os.dup2(null, 0)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
    kill_at, count = request["kill_at"], [0]
    real = os.fsync

    def fsync(fd):
        real(fd)
        count[0] += 1
        if count[0] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)     # right after the write is on the disk: nothing more

    os.fsync = fsync
    try:
        code = blindchess.cli.main(request["args"])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        import traceback
        traceback.print_exc()
        code = 99
    sys.stdout.flush()
    sys.stderr.flush()
    with open(request["count"], "w") as f:
        f.write(str(count[0]))
    os._exit(code)

for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        child(request)
    _, status = os.waitpid(pid, 0)
    answer = {"signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
              "code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
'''


@dataclass(frozen=True)
class Ran:
    """How one run ended: killed by ``signal``, or exited with ``code``; its ``fsyncs`` (when it exited),
    its standard output and error."""

    signal: int | None
    code: int | None
    fsyncs: int | None
    stdout: str
    stderr: str

    def json(self) -> list[dict]:
        """The JSON lines it printed (``--json``)."""
        return [json.loads(line) for line in self.stdout.splitlines()]


class Programs:
    """Runs of the real program (see the module docstring); a context manager."""

    def __init__(self, folder: Path, env: dict[str, str] | None = None) -> None:
        """``env``: the programs' environment (default: this process's)."""
        self.folder = folder
        self._n = 0
        self._forker = subprocess.Popen([sys.executable, "-c", _FORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, cwd=REPO,
                                        env=dict(os.environ if env is None else env, PYTHONPATH=str(REPO)))

    def run(self, args: list[str], *, kill_at: int = 0) -> Ran:
        """``blindchess ARGS`` in a process of its own, killed right after its ``kill_at``-th fsync (0: never)."""
        self._n += 1
        out = self.folder / f"run{self._n}.out"
        count = self.folder / f"run{self._n}.count"
        count.unlink(missing_ok=True)
        assert self._forker.stdin is not None and self._forker.stdout is not None
        self._forker.stdin.write(json.dumps({"args": args, "stdout": str(out), "kill_at": kill_at,
                                             "count": str(count)}) + "\n")
        self._forker.stdin.flush()
        answer = json.loads(self._forker.stdout.readline())
        fsyncs = int(count.read_text()) if count.exists() else None
        return Ran(answer["signal"], answer["code"], fsyncs, out.read_text(encoding="utf-8"),
                   Path(f"{out}.err").read_text(encoding="utf-8"))

    def close(self) -> None:
        if self._forker.stdin is not None:
            self._forker.stdin.close()
        self._forker.wait(timeout=60)
        if self._forker.stdout is not None:
            self._forker.stdout.close()

    def __enter__(self) -> Programs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
