"""The engine adapter against a real Stockfish process (Debian's stockfish, installed by make)."""

from __future__ import annotations

import os
import signal
import sys
import textwrap

import chess
import pytest

from blindchess.engine import LEVELS, Engine, EngineError, find_engine, level
from blindchess.errors import UserError

STOCKFISH = find_engine()
needs_engine = pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed (make test installs it)")


@needs_engine
def test_real_stockfish_plays_legal_moves_at_every_level():
    board = chess.Board()
    for lv in LEVELS[:3]:
        engine = Engine.start(None, lv, "de")
        try:
            move = engine.choose(board)
            assert board.is_legal(move)
        finally:
            engine.close()


@needs_engine
def test_a_killed_engine_is_reported_in_one_sentence_and_a_new_one_can_go_on():
    board = chess.Board()
    engine = Engine.start(None, level(1), "de")
    board.push(engine.choose(board))
    os.kill(engine._engine.transport.get_pid(), signal.SIGKILL)  # type: ignore[union-attr]
    with pytest.raises(EngineError) as info:
        for _ in range(3):  # the first call may still find the pipe open
            board.push(engine.choose(board))
    assert "abgestürzt" in info.value.message and "\n" not in info.value.message
    engine.close()
    again = Engine.start(None, level(1), "de")
    try:
        assert board.is_legal(again.choose(board))
    finally:
        again.close()


def test_missing_engine_is_one_sentence_in_the_players_language(tmp_path):
    with pytest.raises(EngineError) as info:
        Engine.start(tmp_path / "no-such-engine", level(2), "en")
    assert info.value.message.startswith("No chess engine found")


def test_a_program_that_is_no_uci_engine(tmp_path):
    fake = tmp_path / "notuci"
    fake.write_text("#!/bin/sh\necho hello\n")
    fake.chmod(0o755)
    with pytest.raises(EngineError):
        Engine.start(fake, level(2), "en", timeout=2.0)


def test_a_hung_engine_counts_as_hung(tmp_path):
    # A real engine cannot be made to hang on demand: this one speaks UCI and never answers "go".
    hung = tmp_path / "hung.py"
    hung.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import sys
        for line in sys.stdin:
            cmd = line.strip()
            if cmd == "uci":
                print("id name Hung"); print("uciok"); sys.stdout.flush()
            elif cmd == "isready":
                print("readyok"); sys.stdout.flush()
            elif cmd == "quit":
                break
        """))
    hung.chmod(0o755)
    engine = Engine.start(hung, level(1), "en", timeout=1.0)
    with pytest.raises(EngineError) as info:
        engine.choose(chess.Board())
    assert "stopped answering" in info.value.message
    assert not engine.running


def test_levels_by_number_and_name():
    assert level(1).name == "beginner" and level("strong").number == 6 and level(None).number == 2
    with pytest.raises(UserError):
        level("grandmaster")
