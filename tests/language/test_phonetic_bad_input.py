"""Bad input: any string gives an Understanding, never an exception.

Empty text, binary junk, ten megabytes, mixed scripts, control characters: the
result is a well-formed Understanding ("unknown" when nothing fits), a move is
only ever a legal one, and work is bounded however long the text is.
"""

from __future__ import annotations

import time

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from blindchess.language.phonetic import KINDS, LANGS, REQUESTS, Understanding, understand

POSITIONS = [
    chess.Board(),
    chess.Board("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"),
    chess.Board("3r1n2/4P3/8/8/8/k7/1p6/R1N1K3 b - - 0 1"),
    chess.Board("4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1"),
    chess.Board("1k6/8/8/8/8/8/8/RK5R w HA - 0 1", chess960=True),
    chess.Board("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),  # mated: no legal move
]

# words of all voices mixed with junk, so that the generator reaches the parser's branches
WORDS = ["Springer", "Felix", "drei", "Eva", "vier", "schlägt", "Dame", "wird", "Korrektur", "Remis", "Schach",
         "matt", "Kurze", "Rochade", "0-0-0", "e4", "x", "Knight", "takes", "Cesar", "eight", "Paard", "slaat",
         "Конь", "бьёт", "Ева", "пять", "что", "стоит", "на", "wo", "stehen", "meine", "was", "steht", "auf",
         "Zeit", "nein", "ich", "meine", "e.p.", "=", "D", "8", "9", "", "ä", "\x00", "\u202e", "🙂", "漢字"]


def check(u: Understanding, board: chess.Board, text: str) -> None:
    assert isinstance(u, Understanding)
    assert u.text == text
    assert u.kind in KINDS
    assert u.request is None or u.request in REQUESTS
    assert isinstance(u.message, str)
    legal = set(board.legal_moves)
    if u.move is not None:  # a move is only ever returned for certain, never as a guess
        assert u.move in legal and u.candidates and u.candidates[0] == u.move and u.certain
    assert all(m in legal for m in u.candidates)
    if u.certain and u.kind == "move":
        assert u.move is not None
    if u.kind == "unknown":
        assert u.move is None and not u.certain and u.message


@settings(deadline=None, max_examples=300)
@given(text=st.text(), pos=st.sampled_from(POSITIONS), lang=st.sampled_from(LANGS))
def test_any_unicode_text(text, pos, lang):
    check(understand(pos, text, lang), pos, text)


@settings(deadline=None, max_examples=300)
@given(words=st.lists(st.sampled_from(WORDS), max_size=12), seps=st.sampled_from([" ", ",", "", "-", "\n"]),
       pos=st.sampled_from(POSITIONS), lang=st.sampled_from(LANGS))
def test_any_sequence_of_move_words(words, seps, pos, lang):
    text = seps.join(words)
    check(understand(pos, text, lang), pos, text)


@settings(deadline=None, max_examples=100)
@given(data=st.binary(max_size=300), pos=st.sampled_from(POSITIONS))
def test_binary_junk(data, pos):
    text = data.decode("latin-1")
    check(understand(pos, text), pos, text)


def test_empty_and_blank_text_is_unknown():
    for text in ("", " ", "\n\t", "...", "?!"):
        u = understand(chess.Board(), text)
        assert u.kind == "unknown" and u.message == "Nicht verstanden. Bitte wiederholen."


def test_ten_megabytes_are_read_in_bounded_time():
    text = ("Springer Felix drei " + "blah " * 10) * 100_000  # ~7 MB of words
    junk = "\x00\xff漢字🙂" * 2_500_000                          # 10 M characters of mixed scripts
    for t in (text, junk, "a" * 10_000_000):
        start = time.process_time()
        u = understand(chess.Board(), t)
        assert time.process_time() - start < 0.5
        check(u, chess.Board(), t)


def test_bytes_are_decoded_rather_than_rejected():
    u = understand(chess.Board(), b"Springer Felix drei")  # type: ignore[arg-type]
    assert u.move == chess.Move.from_uci("g1f3")


def test_mixed_scripts_do_not_confuse_the_words():
    u = understand(chess.Board(), "Springer Феликс drei")  # a Russian file name inside German text
    assert u.move is None or u.move in chess.Board().legal_moves
    u = understand(chess.Board(), "Конь Феликс три", "ru")
    assert u.move == chess.Move.from_uci("g1f3") and u.certain
    u = understand(chess.Board(), "конь е4", "ru")  # a Cyrillic "е" glued to the digit reads as the file e
    assert u.kind == "move"
