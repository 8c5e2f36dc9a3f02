"""Practice against the real Stockfish ("Done when"): whole games headless, a killed engine.

The blind player's side is played by :class:`practice_driver.BlindSide` through
the real table inputs (peg lines on the scenario runner's simulated peg-board,
phonetic announcements, clock presses), generated from the position as the
game goes; his moves come from a fixed policy (a seeded choice preferring
captures and checks). The computer is Debian's Stockfish at level 1 in its own
process. Time is the simulated clock of the scenario runner: no sleeps.
"""

from __future__ import annotations

import io
import os
import random
import signal

import chess
import chess.pgn
import pytest

from blindchess.adapters.engine import find_engine
from blindchess.base.i18n import tr
from blindchess.cli import main
from blindchess.game import Session
from blindchess.language import phonetic
from blindchess.table.events import ClockPressed, Diverged, MirrorDone, Moved, Said
from tests.support.practice_driver import BlindSide

pytestmark = [pytest.mark.skipif(find_engine() is None, reason="Stockfish is not installed (make test installs it)"),
              pytest.mark.slow]

HEADER = "@white Bernd Blind\n@black Stockfish\n@blind white\n@opponent engine 1\n@time 15+10\n@settle 0.5\n"
#: The blind player resigns when the game has not ended after this many half-moves.
RESIGN_AFTER = 200


def policy(board: chess.Board, rng: random.Random) -> chess.Move:
    """A weak player: a check or a capture when there is one, else any move (seeded)."""
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    sharp = [m for m in moves if board.is_capture(m) or board.gives_check(m)]
    return rng.choice(sharp or moves)


def careful(board: chess.Board, rng: random.Random) -> chess.Move:
    """As :func:`policy`, but never a move after which the computer mates at once (a game that must go on)."""
    moves = sorted(board.legal_moves, key=lambda m: m.uci())

    def mated_next(move: chess.Move) -> bool:
        after = board.copy(stack=False)
        after.push(move)
        for reply in after.legal_moves:
            after.push(reply)
            mate = after.is_checkmate()
            after.pop()
            if mate:
                return True
        return False

    safe = [m for m in moves if not mated_next(m)] or moves
    sharp = [m for m in safe if board.is_capture(m) or board.gives_check(m)]
    return rng.choice(sharp or safe)


def play_on(s: BlindSide, rng: random.Random, *, until_plies: int | None = None, choose=policy) -> None:
    """The blind player plays (and mirrors) until the game ends, the computer does not move, or ``until_plies``;
    ``choose`` picks his moves."""
    for _ in range(2 * RESIGN_AFTER + 10):
        s.wait()
        session = s.table.session
        if session.snapshot.finished or (until_plies is not None and len(session.snapshot.game_moves) >= until_plies):
            return
        if s.mirror():
            continue
        if session.snapshot.to_move != s.color:
            return                                   # the computer's turn, and nothing came
        if len(session.snapshot.game_moves) >= RESIGN_AFTER:
            s.say("Ich gebe auf")
            s.later(3.0)
            s.say("ja")                              # the table asked first (nothing ends unconfirmed)
            s.wait()
            return
        s.play(choose(session.game_board(), rng))


def test_a_whole_game_against_stockfish_on_the_pegboard_to_the_end_and_to_pgn(tmp_path, capsys):
    journal = tmp_path / "practice.jsonl"
    s = BlindSide(HEADER, journal, seed=11)
    play_on(s, random.Random(11))
    session = s.table.session
    assert session.snapshot.finished and session.snapshot.result in ("1-0", "0-1", "1/2-1/2"), s.table.next_step()
    assert session.snapshot.result_reason in ("checkmate", "resignation", "stalemate", "insufficient_material",
                                     "fivefold_repetition", "seventyfive_moves")
    moves = list(session.snapshot.game_moves)
    assert len(moves) >= 10
    # every move of the computer: made on its board (D.2.5), announced to the blind player (D.2.1) in the
    # phonetic alphabet, mirrored by him on the pegs; its clock pressed at once; never before its least delay
    board = session.snapshot.start.copy(stack=False)
    by_ply = {e.ply: e for e in s.events if isinstance(e, Moved)}
    presses = {e.ply: e.t for e in s.events if isinstance(e, ClockPressed)}
    said = [(e.t, e.text) for e in s.events if isinstance(e, Said) and e.to == "blind"]
    for ply, move in enumerate(moves, start=1):
        event = by_ply[ply]
        assert event.uci == move.uci()
        if event.color == "black":
            words = phonetic.announce(board, move, "de")
            assert (event.t, words) in said or (event.t, words) in [(t, x) for t, x in said if x.startswith(words)]
            assert event.t >= presses[ply - 1] + 8.0 - 1e-9
            if not (ply == len(moves) and session.snapshot.result_reason == "checkmate"):
                assert presses[ply] == event.t
            if ply < len(moves):
                assert any(isinstance(e, MirrorDone) and e.board == "tactile" and e.ply == ply for e in s.events)
        board.push(move)
    assert not [e for e in s.events if isinstance(e, Diverged)]
    # both scores as written agree with the game; the boards show it
    game = session.snapshot
    assert game.score("blind") == game.score("sighted") and len(game.score("blind")) == len(moves)
    assert session.board("sighted").fen() == session.game_board().fen()
    s.close()
    # the journal is a game record like any other: blindchess export writes its PGN
    target = tmp_path / "practice.pgn"
    assert main(["export", str(journal), "--format", "pgn", "-o", str(target)]) == 0, capsys.readouterr().err
    game = chess.pgn.read_game(io.StringIO(target.read_text(encoding="utf-8")))
    assert game is not None
    assert list(game.mainline_moves()) == moves
    assert game.headers["Result"] == session.snapshot.result
    assert (game.headers["White"], game.headers["Black"]) == ("Bernd Blind", "Stockfish")


def test_the_engine_killed_mid_game_is_told_and_the_game_resumes_with_a_new_engine(tmp_path):
    journal = tmp_path / "practice.jsonl"
    s = BlindSide(HEADER, journal, seed=3)
    rng = random.Random(3)
    play_on(s, rng, until_plies=8, choose=careful)          # the engine's play varies: no mate before the kill
    assert len(s.table.session.snapshot.game_moves) == 8 and not s.table.session.snapshot.finished
    engine = s.front.engine
    assert engine is not None and engine.pid is not None
    os.kill(engine.pid, signal.SIGKILL)
    before = list(s.table.session.snapshot.game_moves)
    for _ in range(3):                        # the next call may still find the pipe open
        play_on(s, rng, until_plies=len(s.table.session.snapshot.game_moves) + 2, choose=careful)
        if s.table.opponent is not None and s.table.opponent.failure is not None:
            break
    opponent = s.table.opponent
    assert opponent is not None and opponent.failure == tr("engine.crashed", "de")
    assert tr("engine.crashed", "de") in s.said_to_blind()        # one sentence, to the blind player
    kept = list(s.table.session.snapshot.game_moves)
    assert kept[: len(before)] == before and s.table.session.snapshot.to_move == chess.BLACK
    s.later(600.0)                                                # nothing happens without an engine
    assert list(s.table.session.snapshot.game_moves) == kept
    assert list(Session.load(journal).snapshot.game_moves) == kept               # the journal holds the game
    # the engine is back: the program is started again on the journal, with a new engine
    s.front.crash(s.now)
    s.wait()
    new = s.front.engine
    assert new is not None and new.pid is not None and new.pid != engine.pid
    resumed = list(s.table.session.snapshot.game_moves)
    assert resumed[: len(kept)] == kept and len(resumed) == len(kept) + 1
    play_on(s, rng, until_plies=len(kept) + 6)
    assert len(s.table.session.snapshot.game_moves) >= len(kept) + 6 or s.table.session.snapshot.finished
    s.close()
