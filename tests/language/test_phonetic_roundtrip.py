"""Acceptance: every announced move is understood back as that move.

Over more than 5,000 positions from seeded random games (standard chess and
Chess960 from several start numbers) plus constructed positions that make sure
every promotion piece, en passant and both castlings of both colours occur (in
standard chess and in Chess960), for every legal move and every shipped voice:

    understand(board, announce(board, move, lang), lang).move == move   (and certain)

and the announced phrase, lowercased as vosk returns it, is in the position's
recognition grammar (checked on every fourth position to keep the suite fast;
grammar building is covered in full by tests/language/test_recognition.py).
"""

from __future__ import annotations

import random
from collections import Counter

import chess
import pytest

from blindchess.language.phonetic import LANGS, announce, grammar, understand

N_POSITIONS = 5000
GRAMMAR_EVERY = 4
CHESS960_STARTS = (0, 518, 959, 100, 333, 707, 871)

CONSTRUCTED = [
    # promotions to every piece, straight and capturing, both colours
    ("3r1n2/4P3/8/8/8/7k/1p6/R1N1K3 w - - 0 1", False),
    ("3r1n2/4P3/8/8/8/7k/1p6/R1N1K3 b - - 0 1", False),
    ("r3k3/1P6/8/8/8/8/6p1/4K2R w - - 0 1", False),
    ("r3k3/1P6/8/8/8/8/6p1/4K2R b - - 0 1", False),
    # en passant, both colours, with one and with two capturing pawns
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", False),
    ("4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1", False),
    ("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", False),
    ("4k3/8/8/8/2pPp3/8/8/4K3 b - d3 0 1", False),
    # both castlings, both colours
    ("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", False),
    ("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", False),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", False),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", False),
    # disambiguation by file, rank and square; many legal moves
    ("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", False),
    ("2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", False),
    ("7k/R7/8/8/8/8/8/R3K3 w - - 0 1", False),
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", False),
    ("8/7k/8/2Q1Q3/8/2Q1Q3/8/K7 w - - 0 1", False),
    # mate and check
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", False),
    ("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 1", False),
]


def _chess960_castling_positions() -> list[chess.Board]:
    """Chess960 starts with the back ranks cleared between king and rooks: both castlings possible."""
    boards = []
    for n in CHESS960_STARTS + (1, 250, 600, 900):
        b = chess.Board.from_chess960_pos(n)
        for sq in chess.SquareSet(chess.BB_RANK_1 | chess.BB_RANK_8):
            if b.piece_type_at(sq) not in (chess.KING, chess.ROOK):
                b.remove_piece_at(sq)
        b.chess960 = True
        for turn in (chess.WHITE, chess.BLACK):
            c = b.copy()
            c.turn = turn
            boards.append(c)
    return boards


def positions(count: int = N_POSITIONS, seed: int = 20260401) -> list[chess.Board]:
    rng = random.Random(seed)
    out = [chess.Board(fen, chess960=c960) for fen, c960 in CONSTRUCTED]
    assert all(b.is_valid() for b in out), [b.fen() for b in out if not b.is_valid()]
    out.extend(_chess960_castling_positions())
    starts: list[int | None] = [s for n in CHESS960_STARTS for s in (None, n)]  # half standard, half Chess960
    game = 0
    while len(out) < count:
        start = starts[game % len(starts)]
        game += 1
        b = chess.Board() if start is None else chess.Board.from_chess960_pos(start)
        for _ in range(rng.randint(30, 180)):
            moves = list(b.legal_moves)
            if not moves:
                break
            out.append(b.copy(stack=False))
            # prefer captures and promotions now and then, so games reach endgames and promotions
            sharp = [m for m in moves if m.promotion or b.is_capture(m)]
            b.push(rng.choice(sharp) if sharp and rng.random() < 0.35 else rng.choice(moves))
    return out


@pytest.fixture(scope="module")
def boards() -> list[chess.Board]:
    return positions()


def test_the_position_set_covers_every_special_move(boards):
    assert len(boards) >= N_POSITIONS
    seen: Counter = Counter()
    for b in boards:
        for m in b.legal_moves:
            color = "white" if b.turn else "black"
            if m.promotion:
                seen[("promotion", m.promotion, color)] += 1
            if b.is_en_passant(m):
                seen[("en passant", color)] += 1
            if b.is_castling(m):
                side = "short" if b.is_kingside_castling(m) else "long"
                seen[("castling", side, color, b.chess960)] += 1
    for color in ("white", "black"):
        for piece in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT):
            assert seen[("promotion", piece, color)], (piece, color)
        assert seen[("en passant", color)]
        for side in ("short", "long"):
            for c960 in (False, True):
                assert seen[("castling", side, color, c960)], (side, color, c960)
    assert 1000 < sum(1 for b in boards if b.chess960) < len(boards) - 1000


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.slow
def test_round_trip_every_move_every_position(boards, lang):
    failures = []
    checked = 0
    for i, b in enumerate(boards):
        phrases = set(grammar(b, lang)) if i % GRAMMAR_EVERY == 0 else None
        for m in b.legal_moves:
            said = announce(b, m, lang)
            u = understand(b, said, lang)
            checked += 1
            if u.move != m or not u.certain:
                failures.append((b.fen(), m.uci(), said, u.move, u.message))
            if phrases is not None and said.lower() not in phrases:
                failures.append((b.fen(), m.uci(), said, "not in grammar", ""))
    assert checked > 50_000
    assert not failures, failures[:10]


SAN_PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT}


def spoken_san(board: chess.Board, move: chess.Move, lang: str) -> str:
    """An independent reading of python-chess's SAN aloud, word by word (Appendix C -> D.2.1)."""
    from blindchess.language.phonetic import piece_name, voice

    v = voice(lang)
    san = board.san(move)
    suffix = []
    if san.endswith("#"):
        suffix, san = [v.spoken["mate"]], san[:-1]
    elif san.endswith("+"):
        suffix, san = [v.spoken["check"]], san[:-1]
    if san in ("O-O", "O-O-O"):
        return " ".join([v.spoken["castle_short" if san == "O-O" else "castle_long"], *suffix])
    words = []
    if san[0] in SAN_PIECES:
        words.append(piece_name(SAN_PIECES[san[0]], lang))
        san = san[1:]
    promotion = None
    if "=" in san:
        san, promotion = san.split("=")
    target, head = san[-2:], san[:-2]
    for ch in head:
        if ch == "x":
            words.append(v.spoken["capture"])
        elif ch.isdigit():
            words.append(v.ranks[int(ch) - 1])
        else:
            words.append(v.files["abcdefgh".index(ch)])
    # two disambiguation characters name a square: "Qh4e1" -> "Dame Hector vier Eva eins"
    words.append(v.squares[chess.parse_square(target)])
    if board.is_en_passant(move):
        words.append(v.spoken["en_passant"])
    if promotion:
        words += [v.spoken["promotion"], v.pieces[SAN_PIECES[promotion]].promotion]
    return " ".join(words + suffix)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_announcement_is_python_chess_san_read_aloud(boards, lang):
    """Disambiguation, capture, en passant, promotion, check and mate exactly as in SAN (Appendix C)."""
    mismatches = []
    for b in boards[::10]:
        for m in b.legal_moves:
            if announce(b, m, lang) != spoken_san(b, m, lang):
                mismatches.append((b.fen(), m.uci(), announce(b, m, lang), spoken_san(b, m, lang)))
    assert not mismatches, mismatches[:10]
