"""One score reader: a text (``notation.read_score``) and a score kept entry by entry
(``notation.read_entries``) give the same ``notation.ScoreReading``, and every user of a score —
the D.2.9 ruling, the rules engine's two scores — takes that one result."""

from __future__ import annotations

import random

import chess
import pytest

from blindchess.game.events import Player
from blindchess.game.session import Session
from blindchess.language import notation, phonetic
from blindchess.laws.ruling import reading_of, rule


def _random_game(seed: int, plies: int) -> tuple[chess.Board, list[chess.Move]]:
    rng = random.Random(seed)
    board = chess.Board()
    moves: list[chess.Move] = []
    for _ in range(plies):
        legal = sorted(board.legal_moves, key=chess.Move.uci)
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return chess.Board(), moves


def _entries(start: chess.Board, moves: list[chess.Move], lang: str) -> list[str]:
    board = start.copy()
    out = []
    for m in moves:
        out.append(notation.write(board, m, lang))
        board.push(m)
    return out


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("lang", ["de", "en", "nl", "ru"])
def test_a_text_and_its_entries_read_the_same(seed, lang):
    start, moves = _random_game(seed, 30 + seed * 7)
    entries = _entries(start, moves, lang)
    from_text = notation.read_score(notation.write_score(start, moves, lang), board=start, lang=lang)
    from_entries = notation.read_entries(entries, board=start)
    assert isinstance(from_text, notation.ScoreReading) and isinstance(from_entries, notation.ScoreReading)
    assert from_text.moves == from_entries.moves == moves
    assert from_text.problem is None and from_entries.problem is None
    assert from_entries.written == entries
    assert from_entries.board().fen() == from_text.board().fen()


@pytest.mark.parametrize("seed", range(8))
def test_a_slip_is_the_same_problem_at_the_same_half_move_in_both_forms(seed):
    start, moves = _random_game(100 + seed, 24)
    entries = _entries(start, moves, "de")
    slip = 5 + seed * 2
    entries[slip] = "Kz9"
    text = " ".join(f"{i // 2 + 1}. {e}" if i % 2 == 0 else e for i, e in enumerate(entries))
    from_text = notation.read_score(text, board=start)
    from_entries = notation.read_entries(entries, board=start)
    for reading in (from_text, from_entries):
        assert reading.plies == slip and reading.moves == moves[:slip]
        assert reading.problem is not None
        assert (reading.problem.index, reading.problem.written, reading.problem.problem) == (slip, "Kz9", "unreadable")
        assert reading.problem.message
    assert from_entries.written == entries


def test_moves_and_spoken_phrases_are_entries_too():
    e4, e5 = chess.Move.from_uci("e2e4"), chess.Move.from_uci("e7e5")
    reading = notation.read_entries([e4, e5, "Springer Felix drei"], board=chess.Board(), spoken=phonetic.read_phrase)
    assert reading.moves == [e4, e5, chess.Move.from_uci("g1f3")] and reading.problem is None
    without = notation.read_entries([e4, e5, "Springer Felix drei"], board=chess.Board())
    assert without.plies == 2 and without.problem is not None and without.problem.problem == "unreadable"
    illegal = notation.read_entries([e4, chess.Move.from_uci("e2e4")], board=chess.Board())
    assert illegal.plies == 1 and illegal.problem is not None and illegal.problem.problem == "illegal"
    assert illegal.problem.index == 1 and illegal.written == ["e4", "e2e4"]


@pytest.mark.parametrize("seed", range(6))
def test_the_positions_of_a_reading_are_its_moves_played(seed):
    start, moves = _random_game(200 + seed, 40)
    reading = notation.read_entries(_entries(start, moves, "en"), board=start)
    replay = start.copy()
    for k in range(len(moves) + 1):
        assert reading.board(k).fen() == replay.fen()
        assert reading.board(k).move_stack == moves[:k]
        assert reading.board(k, stack=False).move_stack == []
        assert reading.board(k, stack=False).fen() == replay.fen()
        if k < len(moves):
            replay.push(moves[k])


def test_a_reading_extended_entry_by_entry_is_the_reading_of_the_whole():
    start, moves = _random_game(7, 30)
    entries = _entries(start, moves, "de")
    growing = notation.read_entries(entries[:10], board=start)
    growing.board()                                  # the end position kept, then extended
    for text, move in zip(entries[10:], moves[10:]):
        growing.append(text, move)
    whole = notation.read_entries(entries, board=start)
    assert growing.moves == whole.moves and growing.written == whole.written
    assert growing.entries == whole.entries
    assert growing.board().fen() == whole.board().fen()
    growing.append("Lz9")
    growing.append("Sf3")
    assert growing.plies == len(moves) and growing.problem is not None
    assert growing.problem.index == len(moves) and len(growing.problems) == 1
    assert growing.written[-2:] == ["Lz9", "Sf3"]


def test_the_ruling_and_the_engine_take_the_one_reading():
    text = notation.read_score("1. e4 e5 2. Sf3 Sc6", board=chess.Board())
    board = text.board()
    r = rule(text, ["e4", "e5", "Nf3", "Nc6"], board, board.copy())
    assert r.sheets_agree and r.kind == "none"
    assert reading_of(text, chess.Board()) is text
    assert isinstance(reading_of("1. e4 e5", chess.Board()), notation.ScoreReading)
    assert isinstance(reading_of(["e4", "e5"], chess.Board()), notation.ScoreReading)

    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "90+30", now=0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 10.0)
    s.press_clock(chess.WHITE, 11.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 12.0)
    for who in ("blind", "sighted"):
        read = s.score_read(who)
        assert isinstance(read, notation.ScoreReading) and read.moves == [chess.Move.from_uci("e2e4")]
        assert read.written == ["e4"]
