"""Reading a journal costs the game it holds, not the file: peak memory and time of ``journal show`` and ``export``.

Each command runs as a user runs it (``python -m blindchess …``, a process of its own); its peak resident memory
is the kernel's count for that one process (``wait4``'s ``ru_maxrss``), its time the wall clock from start to exit.
The files:

1. **600,000 lines of** ``{}`` (1.8 MB) named ``*.jsonl`` — no journal;
2. **60 lines of 0.9 MB** each (54 MB of one JSON string a line) — no journal;
3. **a real game of 160 half-moves** played at the table through the rules engine (moves on both boards, touches,
   announcements, presses, both scores) — a journal of about 1,000 lines;
4. **the same game with 600,000 lines of** ``{}`` **appended** — a journal with junk after it.

Also ``blindchess --version`` (the interpreter and the command line, nothing read) for the floor, and the app's
start-up reading of the journals folder (``last_unfinished``) with files 1, 2 and 4 in it beside 20 games.
Before the streaming reader (the issue's figures): file 1 576 MB and 20 s; file 2 245 MB; file 3 44 MB.

Run: ``python tests/benchmarks/bench_journal_memory.py`` (``make bench``); ``--keep DIR`` keeps the files.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def game(path: Path, plies: int = 160) -> None:
    """A real game of ``plies`` half-moves at the table: the sighted player White, the blind player Black."""
    from blindchess.game import Player, Session
    from tests.support.games import special_game

    start, moves = special_game(11, plies=plies)
    s = Session.new(Player("Anna Sehend"), Player("Bert Blind", True), "90+30", journal=path, now=0.0,
                    start_fen=start.fen())
    s.start_clock(0.0)
    t = 0.0
    for i, move in enumerate(moves):
        t += 5.0
        if i % 2 == 0:
            s.board_move("sighted", move, t)
            s.press_clock(chess.WHITE, t + 0.5)
            s.board_move("tactile", move, t + 1.0)
            s.write("sighted", move.uci(), t + 1.5)
        else:
            s.touch(move.from_square, t)
            s.board_move("tactile", move, t + 0.5)
            s.announce(move, move.uci(), t + 1.0)
            s.press_clock(chess.BLACK, t + 1.5)
            s.board_move("sighted", move, t + 2.0)
            s.write("blind", move.uci(), t + 2.5)
    assert s.snapshot.plies == len(moves) >= plies - 2, s.snapshot.plies
    s.close()


def measure(args: list[str], env: dict[str, str]) -> tuple[int, float, float]:
    """(exit code, peak resident MB, seconds) of ``python -m blindchess ARGS`` in a process of its own."""
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "blindchess", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_maxrss / 1024, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", metavar="DIR", help="write the files there and keep them")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-journal-"))
    folder.mkdir(parents=True, exist_ok=True)
    home = folder / "home"
    env = dict(os.environ, BLINDCHESS_HOME=str(home), BLINDCHESS_LANG="en", PYTHONPATH=str(ROOT))
    try:
        files = {
            "600,000 lines of {} (1.8 MB)": folder / "braces.jsonl",
            "60 lines of 0.9 MB (54 MB)": folder / "long-lines.jsonl",
            "a real game, 160 half-moves": folder / "game.jsonl",
            "the game + 600,000 lines of {}": folder / "game-and-junk.jsonl",
        }
        files["600,000 lines of {} (1.8 MB)"].write_bytes(b"{}\n" * 600_000)
        line = b'{"x":"' + b"a" * 900_000 + b'"}\n'
        with files["60 lines of 0.9 MB (54 MB)"].open("wb") as f:
            for _ in range(60):
                f.write(line)
        game(files["a real game, 160 half-moves"])
        data = files["a real game, 160 half-moves"].read_bytes()
        files["the game + 600,000 lines of {}"].write_bytes(data + b"{}\n" * 600_000)
        lines = data.count(b"\n")
        print(f"the game's journal: {lines} lines, {len(data) / 1e6:.2f} MB")

        code, floor, seconds = measure(["--version"], env)
        print(f"\nfloor (blindchess --version): {floor:.0f} MB, {seconds:.2f} s\n")
        print(f"{'file':34} {'command':13} {'exit':>4} {'peak MB':>8} {'s':>6}")
        for name, path in files.items():
            for command in (["journal", "show", str(path)], ["export", str(path), "-o", str(folder / "out.pgn")]):
                code, peak, seconds = measure(command, env)
                print(f"{name:34} {' '.join(command[:2]) if command[0] == 'journal' else 'export':13} {code:>4} "
                      f"{peak:>8.0f} {seconds:>6.2f}")
                (folder / "out.pgn").unlink(missing_ok=True)

        # The app's start: the journals folder read for the game to reopen, the junk files the newest.
        journals = home / "journals"
        journals.mkdir(parents=True, exist_ok=True)
        for i in range(20):
            shutil.copyfile(files["a real game, 160 half-moves"], journals / f"game-{i:02d}.jsonl")
            os.utime(journals / f"game-{i:02d}.jsonl", (1_700_000_000 + i, 1_700_000_000 + i))
        for name in ("600,000 lines of {} (1.8 MB)", "60 lines of 0.9 MB (54 MB)", "the game + 600,000 lines of {}"):
            shutil.copyfile(files[name], journals / files[name].name)
        code = ("from blindchess.storage import last_unfinished, list_journals; import sys; "
                "sys.exit(0 if last_unfinished() is not None and len(list_journals()) == 23 else 1)")
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-c", code], env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        print(f"\nthe app's start-up reading (last_unfinished, then journal list) of 20 games and the 3 junk files: "
              f"exit {os.waitstatus_to_exitcode(status)}, peak {usage.ru_maxrss / 1024:.0f} MB, "
              f"{time.monotonic() - start:.2f} s")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
