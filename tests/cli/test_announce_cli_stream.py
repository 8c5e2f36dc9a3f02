"""``blindchess announce`` streams a multi-game file.

The file is read line by line and each game is announced as soon as it is read:
memory is bounded by the largest game, not by the file. Measured for real in a
child process (peak resident memory of a 20,000-game file against a one-game
file); no wall-clock limits.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from blindchess.cli import main
from blindchess.language.notation import iter_games

GAME = '[White "{w}"]\n[Black "{b}"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n'

_PEAK = (
    "import resource, subprocess, sys\n"
    "subprocess.run([sys.executable, '-m', 'blindchess', 'announce', sys.argv[1]],"
    " stdout=subprocess.DEVNULL, check=True)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def _peak_kb(path: Path) -> int:
    out = subprocess.run([sys.executable, "-c", _PEAK, str(path)], capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


def test_iter_games_yields_each_game_before_reading_the_next():
    read: list[str] = []

    def lines():
        for i in range(3):
            for line in GAME.format(w=f"W{i}", b=f"B{i}").splitlines(keepends=True):
                read.append(line)
                yield line
        raise AssertionError("the stream was read further than needed")

    games = iter_games(lines())
    first = next(games)
    assert '[White "W0"]' in first and "1. e4" in first
    assert sum(1 for line in read if line.startswith("[White")) == 2    # only up to the next game's tag


def test_games_before_a_broken_one_are_announced_as_they_are_read(tmp_path, capsys):
    path = tmp_path / "round.pgn"
    path.write_text(GAME.format(w="A", b="B") + GAME.format(w="C", b="D") + '[White "E"]\n\n1. e4 Kd5 *\n',
                    encoding="utf-8")
    assert main(["announce", str(path)]) == 2
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0] == "Partie 1: A – B" and "Partie 2: C – D" in lines
    assert "Partie 3" in captured.err and "Kd5" in captured.err


def test_a_one_game_file_has_no_game_title(tmp_path, capsys):
    path = tmp_path / "one.pgn"
    path.write_text(GAME.format(w="A", b="B"), encoding="utf-8")
    assert main(["announce", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "1. Eva vier"


def test_a_fifo_is_refused_not_read_forever(tmp_path, capsys):
    fifo = tmp_path / "pipe.pgn"
    os.mkfifo(fifo)
    assert main(["announce", str(fifo)]) == 2
    assert capsys.readouterr().out == ""


@pytest.mark.slow
def test_memory_does_not_grow_with_the_number_of_games(tmp_path):
    one = tmp_path / "one.pgn"
    one.write_text(GAME.format(w="A", b="B"), encoding="utf-8")
    many = tmp_path / "many.pgn"
    with many.open("w", encoding="utf-8") as f:
        for i in range(20_000):
            f.write(GAME.format(w=f"W{i}", b=f"B{i}"))
    base, big = _peak_kb(one), _peak_kb(many)
    # the whole-file reader held every game (about 2.5 kB each: +50 MB here); streaming stays near the base
    assert big - base < 20_000, (base, big)
