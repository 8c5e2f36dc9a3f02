"""Fake UCI engines for engine faults that a real Stockfish cannot be made to show (a hang, junk, an
illegal best move): small Python scripts that answer the handshake and do one thing on "go"."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path


def fake(folder: Path, name: str, on_go: str, *, before: str = "") -> Path:
    """A fake UCI engine: answers the handshake, runs ``before`` at start and ``on_go`` for each "go"."""
    path = folder / name.replace(" ", "_").replace(",", "")
    path.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import os, sys
        out = sys.stdout.buffer
        def say(text):
            out.write(text.encode() + b"\\n"); out.flush()
        {before}
        for line in sys.stdin:
            cmd = line.strip()
            if cmd == "uci":
                say("id name Fake"); say("uciok")
            elif cmd == "isready":
                say("readyok")
            elif cmd.startswith("go"):
                {on_go}
            elif cmd == "quit":
                break
        """))
    path.chmod(0o755)
    return path
