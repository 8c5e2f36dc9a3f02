"""A game continued from PGN text: the players as the PGN names them, the visually impaired one as chosen; the moves
made on both boards and both scores; a result the PGN records stands, as the arbiter's; an unfinished game ("*")
goes on."""

from __future__ import annotations

import chess

from blindchess.game import Session

HEADERS = '[Event "Club"]\n[White "Anna Weiss"]\n[Black "Bert Schwarz"]\n'


def test_the_players_and_the_result_as_the_pgn_records_them():
    s = Session.from_pgn(HEADERS + '[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n', now=0.0, visually_impaired="white")
    snap = s.snapshot
    assert (snap.white.name, snap.white.visually_impaired) == ("Anna Weiss", True)
    assert (snap.black.name, snap.black.visually_impaired) == ("Bert Schwarz", False)
    assert snap.blind_color == chess.WHITE and snap.plies == 3
    assert (snap.result, snap.result_reason) == ("1-0", "arbiter")
    black = Session.from_pgn(HEADERS + '[Result "*"]\n\n1. d4 *\n', now=0.0, visually_impaired="black")
    assert black.snapshot.blind_color == chess.BLACK and black.snapshot.black.visually_impaired
    assert black.snapshot.result is None and black.snapshot.to_move == chess.BLACK

