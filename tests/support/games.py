"""Real games for the records tests, made with python-chess (no hand-written results).

``special_game`` plays a seeded random game that takes castling, en passant and
promotion whenever they are legal, so every export format meets them.
"""

from __future__ import annotations

import random
from pathlib import Path

import chess
import chess.pgn


def special_game(seed: int = 7, *, start: chess.Board | None = None, plies: int = 160) -> tuple[chess.Board, list[chess.Move]]:
    """A legal game from ``start``: castling, en passant and promotions are taken when possible."""
    rng = random.Random(seed)
    board = (start or chess.Board()).copy(stack=False)
    first = board.copy(stack=False)
    moves: list[chess.Move] = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        special = [m for m in legal if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
        pawn_pushes = [m for m in legal if board.piece_type_at(m.from_square) == chess.PAWN]
        if special:
            move = rng.choice(special)
        elif pawn_pushes and rng.random() < 0.5:
            move = rng.choice(pawn_pushes)
        else:
            move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return first, moves


def features(start: chess.Board, moves: list[chess.Move]) -> set[str]:
    """Which special moves a game contains: castling, en-passant, promotion, check, mate."""
    found = set()
    board = start.copy(stack=False)
    for move in moves:
        if board.is_castling(move):
            found.add("castling")
        if board.is_en_passant(move):
            found.add("en-passant")
        if move.promotion:
            found.add("promotion")
        board.push(move)
        if board.is_check():
            found.add("check")
    if board.is_checkmate():
        found.add("mate")
    return found


def rich_game(seed: int = 7) -> tuple[chess.Board, list[chess.Move]]:
    """The first seeded game from the normal start with castling, en passant and promotion."""
    for s in range(seed, seed + 500):
        start, moves = special_game(s)
        if {"castling", "en-passant", "promotion"} <= features(start, moves):
            return start, moves
    raise AssertionError("no rich game found")


def chess960_game(seed: int = 3) -> tuple[chess.Board, list[chess.Move]]:
    """A seeded Chess960 game (not the normal start position) in which a side castles."""
    for s in range(seed, seed + 500):
        number = random.Random(s).randrange(960)
        if number == 518:
            continue
        start, moves = special_game(s, start=chess.Board.from_chess960_pos(number))
        if "castling" in features(start, moves):
            return start, moves
    raise AssertionError("no Chess960 game with castling found")


def as_game(start: chess.Board, moves: list[chess.Move], **headers: str) -> chess.pgn.Game:
    """A chess.pgn.Game of the moves (result from the final position unless given)."""
    game = chess.pgn.Game()
    game.setup(start)
    node = game
    board = start.copy(stack=False)
    for move in moves:
        node = node.add_variation(move)
        board.push(move)
    game.headers["Result"] = headers.pop("Result", board.result(claim_draw=False))
    for key, value in headers.items():
        game.headers[key] = value
    return game


def journal_game(path: Path) -> list[chess.Move]:
    """A real journaled session: a touch, a move on both boards, clock presses, written scores."""
    from blindchess.game import Player, Session

    s = Session.new(Player("Anna", visually_impaired=True), Player("Bob"), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    s.touch(chess.G1, 1.0)
    s.board_move("tactile", chess.Move.from_uci("g1f3"), 2.0)
    s.announce(chess.Move.from_uci("g1f3"), "Springer Felix drei", 2.5)
    s.board_move("sighted", chess.Move.from_uci("g1f3"), 3.0)
    s.press_clock(chess.WHITE, 3.5)
    s.board_move("sighted", chess.Move.from_uci("e7e5"), 10.0)
    s.press_clock(chess.BLACK, 11.0)
    s.write("blind", "Sf3", 12.0, index=0)
    s.write("blind", "e6", 12.5, index=1)  # the blind player's score deviates from the game
    s.close()
    return [chess.Move.from_uci("g1f3"), chess.Move.from_uci("e7e5")]
