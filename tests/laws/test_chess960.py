"""Chess960 (FIDE Laws, Guidelines II): numbering, spoken description, castling of every kind on both boards, CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import chess
import pytest

from blindchess.base.errors import UserError
from blindchess.cli import main
from blindchess.laws import chess960

KINDS = ("double", "swap", "king_only", "rook_only")
SIDES = ("king", "queen")


def _first_numbers() -> dict[tuple[str, bool, str], int]:
    """For every (kind, colour, side) the first start number where it occurs — found by search."""
    found: dict[tuple[str, bool, str], int] = {}
    for n in range(chess960.COUNT):
        board = chess960.start_board(n)
        for color in chess.COLORS:
            for side in SIDES:
                plan = chess960.castling_plan(board, color, side)
                found.setdefault((plan.kind, color, side), n)
    return found


FIRST = _first_numbers()
CASES = [(kind, color, side) for kind in KINDS for color in (chess.WHITE, chess.BLACK) for side in SIDES]


def _ready_to_castle(number: int, color: chess.Color, side: str) -> chess.Board:
    """Start position ``number``, ``color`` to move, his back rank cleared but for king and castling rook."""
    board = chess960.start_board(number)
    plan = chess960.castling_plan(board, color, side)
    for file in range(8):
        square = chess.square(file, chess.square_rank(plan.king_from))
        if square not in (plan.king_from, plan.rook_from):
            board.remove_piece_at(square)
    board.turn = color
    return board


def test_numbering_is_python_chess_scharnagl():
    assert chess960.start_board(518).board_fen() == chess.Board().board_fen()
    for n in (0, 1, 359, 518, 959):
        board = chess960.start_board(n)
        assert board.chess960 and chess960.number_of(board) == n


@pytest.mark.parametrize("bad", [-1, 960, 10_000])
def test_bad_numbers_are_user_errors(bad):
    with pytest.raises(UserError) as err:
        chess960.start_board(bad)
    assert "959" in str(err.value)


def test_random_is_seedable_and_in_range():
    assert chess960.random_number(42) == chess960.random_number(42)
    drawn = {chess960.random_number(seed) for seed in range(200)}
    assert all(0 <= n < 960 for n in drawn) and len(drawn) > 100


def test_every_kind_occurs_for_both_colours_and_sides():
    assert set(FIRST) == set(CASES)
    # the normal start is a double move on both sides
    board = chess960.start_board(518)
    assert {chess960.castling_plan(board, chess.WHITE, s).kind for s in SIDES} == {"double"}


@pytest.mark.parametrize("kind,color,side", CASES)
def test_castling_steps_reach_the_position_on_both_boards(kind, color, side):
    number = FIRST[(kind, color, side)]
    board = _ready_to_castle(number, color, side)
    plan = chess960.castling_plan(board, color, side)
    assert plan.kind == kind
    assert plan.move in board.legal_moves
    assert plan.notation == ("0-0" if side == "king" else "0-0-0")
    assert board.san(plan.move) == plan.notation.replace("0", "O")
    assert chess960.plan_for_move(board, plan.move) == plan
    before = board.piece_map()
    after = board.copy()
    after.push(plan.move)
    # the king ends on the c-/g-file and the rook on the d-/f-file as in normal chess
    assert after.king(color) == plan.king_to and after.piece_type_at(plan.rook_to) == chess.ROOK
    # carried out step by step on the sighted board and, mirrored, on the tactile board
    for physical in ("sighted", "tactile"):
        assert chess960.apply_steps(before, plan.steps) == after.piece_map(), physical
        texts = plan.instructions(physical, "de")
        assert texts[0] == "Sagen Sie: „Ich werde rochieren“."
        assert texts[-1] == ("Sagen Sie: „Kurze Rochade“." if side == "king" else "Sagen Sie: „Lange Rochade“.")
    # the rook is touched only when it moves; the king is always taken off first
    lifted = [s.piece.piece_type for s in plan.steps if s.action == "lift"]
    assert lifted[0] == chess.KING
    assert (chess.ROOK in lifted) == (kind != "king_only")
    # the kinds are what their names say
    if kind == "rook_only":
        assert plan.king_from == plan.king_to
    if kind == "king_only":
        assert plan.rook_from == plan.rook_to
    if kind == "swap":
        assert (plan.king_to, plan.rook_to) == (plan.rook_from, plan.king_from)


def test_instructions_name_squares_per_board():
    plan = chess960.castling_plan(chess960.start_board(518), chess.WHITE, "king")
    tactile = plan.instructions("tactile", "de")
    sighted = plan.instructions("sighted", "en")
    assert "Eva eins" in tactile[1] and "Gustav eins" in tactile[1]
    assert "Hector eins" in tactile[2] and "Felix eins" in tactile[2]
    assert "e1" in sighted[1] and "h1" in sighted[2] and "f1" in sighted[2] and "g1" in sighted[3]


def test_impossible_steps_are_refused():
    plan = chess960.castling_plan(chess960.start_board(518), chess.WHITE, "king")
    with pytest.raises(ValueError):  # the bishop still stands on f1
        chess960.apply_steps(chess960.start_board(518).piece_map(), plan.steps)
    with pytest.raises(ValueError):  # no king on e1
        chess960.apply_steps({}, plan.steps)


def test_no_plan_without_castling_rights():
    board = chess960.start_board(518)
    board.castling_rights = chess.BB_EMPTY
    assert chess960.castling_plan(board, chess.WHITE, "king") is None
    assert chess960.plan_for_move(board, chess.Move.from_uci("e2e4")) is None


def test_spoken_description_german_and_english():
    de = chess960.describe(518, "de")
    assert de.startswith("Stellung 518. Weiß: Turm Anna eins, Springer Bella eins,")
    assert "König Eva eins" in de and "Schwarz: Turm Anna acht" in de and "Bauern Anna zwei bis Hector zwei" in de
    en = chess960.describe(518, "en")
    assert en.startswith("Position 518. White:") and "Black:" in en
    # the description lists exactly the back-rank pieces of the position, in file order
    board = chess960.start_board(0)
    text = chess960.describe(0, "de")
    names = {chess.BISHOP: "Läufer", chess.QUEEN: "Dame", chess.KNIGHT: "Springer", chess.ROOK: "Turm", chess.KING: "König"}
    white_part = text.split("Schwarz:")[0]
    order = [names[board.piece_type_at(chess.square(f, 0))] for f in range(8)]
    positions = [white_part.index(f"{name} {file_name} eins") for name, file_name in
                 zip(order, ("Anna", "Bella", "Cäsar", "David", "Eva", "Felix", "Gustav", "Hector"))]
    assert positions == sorted(positions)


def test_castle_intent_is_understood_by_phonetic():
    phonetic = pytest.importorskip("blindchess.language.phonetic")
    u = phonetic.understand(chess960.start_board(518), "Ich werde rochieren", "de")
    assert u.kind == "castle_intent"


def test_castling_written_with_zeros_by_notation():
    notation = pytest.importorskip("blindchess.language.notation")
    board = _ready_to_castle(FIRST[("swap", chess.WHITE, "king")], chess.WHITE, "king")
    plan = chess960.castling_plan(board, chess.WHITE, "king")
    assert notation.write(board, plan.move, "de").startswith("0-0")
    assert notation.read(board, "0-0", "de").move == plan.move


def test_cli_json(capsys):
    assert main(["chess960", "3", "--json", "--lang", "de"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["number"] == 3 and data["fen"] == chess.Board.from_chess960_pos(3).fen()
    assert data["spoken"] == chess960.describe(3, "de")
    kinds = {(c["color"], c["notation"]): c["kind"] for c in data["castling"]}
    assert kinds[("white", "0-0")] == chess960.castling_plan(chess960.start_board(3), chess.WHITE, "king").kind


def test_cli_default_is_normal_start_and_random_is_reproducible(capsys):
    assert main(["chess960", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Position 518." in out and chess.STARTING_FEN in out and "R N B Q K B N R" in out
    main(["chess960", "--random", "--seed", "7", "--json"])
    first = json.loads(capsys.readouterr().out)
    main(["chess960", "--seed", "7", "--json"])
    assert json.loads(capsys.readouterr().out)["number"] == first["number"] == chess960.random_number("7")


def test_cli_bad_number_message_without_traceback(capsys):
    assert main(["chess960", "960"]) == 2
    err = capsys.readouterr().err
    assert "959" in err and "Traceback" not in err


def test_cli_subprocess_unicode():
    out = subprocess.run([sys.executable, "-m", "blindchess", "chess960", "518", "--unicode", "--lang", "de"],
                         capture_output=True, text=True, encoding="utf-8", timeout=60,   # UTF-8 into pipes, on Windows too
                         env={**os.environ, "BLINDCHESS_LANG": "de"})
    assert out.returncode == 0, out.stderr
    assert "♔" in out.stdout and "Stellung 518." in out.stdout and out.stderr == ""


def _castling_move(board: chess.Board, side: str) -> chess.Move:
    """The legal castling move to ``side`` as this board encodes it (standard or Chess960 mode)."""
    return next(m for m in board.legal_moves
                if board.is_castling(m) and board.is_kingside_castling(m) == (side == "king"))


@pytest.mark.parametrize("kind,color,side", CASES)
def test_castling_steps_on_the_peg_board_are_recognised_by_the_tracker(kind, color, side):
    """Carried out on the tactile board as the plan says, the tracker sees exactly that castling."""
    tracker_mod = pytest.importorskip("blindchess.pegboard.tracker")
    board = _ready_to_castle(FIRST[(kind, color, side)], color, side)
    plan = chess960.castling_plan(board, color, side)
    tracker = tracker_mod.Tracker(board)
    t, seen = 0.0, []
    for step in plan.steps:
        if step.action == "announce":
            continue
        t += 0.2
        event = tracker_mod.Lift(t, step.square) if step.action == "lift" else tracker_mod.Place(t, step.square)
        seen += tracker.feed(event)
    seen += tracker.tick(t + 2.0)
    moves = [e.move for e in seen if e.type == "move"]
    assert moves == [plan.move], (kind, [e.type for e in seen])


@pytest.mark.parametrize("kind,color,side", CASES)
def test_castling_in_a_session_ends_equal_on_both_boards(kind, color, side):
    """The castling player's own board, then the mirror on the other board: both show the same position."""
    from blindchess import game as session_mod
    from blindchess.language import phonetic

    board = _ready_to_castle(FIRST[(kind, color, side)], color, side)
    # White is the visually impaired player: White castles on the tactile board first,
    # Black (sighted) on the sighted board first; each time the other board mirrors it.
    s = session_mod.Session.new(session_mod.Player("Anna", visually_impaired=True), session_mod.Player("Bert"),
                                None, start_fen=board.fen(), now=0.0)
    game = s.game_board()
    move = _castling_move(game, side)
    if color == chess.WHITE:  # the blind player castles on the tactile board and announces it
        s.board_move("tactile", move, 1.0)
        s.announce(move, phonetic.announce(game, move, "de"), 2.0)
        s.board_move("sighted", move, 3.0)
    else:  # the sighted player castles; the move is mirrored on the tactile board
        s.board_move("sighted", move, 1.0)
        s.board_move("tactile", move, 2.0)
    expected = game.copy()
    expected.push(move)
    assert list(s.snapshot.game_moves) == [move]
    assert s.board("tactile").board_fen() == s.board("sighted").board_fen() == expected.board_fen()
    assert s.snapshot.divergence is None


@pytest.mark.parametrize("argv", [["chess960", "5"], ["envelope", "check", "Sf3"]])
def test_an_unknown_language_code_is_refused(capsys, argv):
    # "--lang xx" silently printed English
    with pytest.raises(SystemExit) as info:
        main([*argv, "--lang", "xx"])
    assert info.value.code == 2 and "xx" in capsys.readouterr().err


def test_a_number_and_random_together_are_refused(capsys, monkeypatch):
    # "chess960 5 --random" silently showed a random position instead of 5
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    assert main(["chess960", "5", "--random"]) == 2
    assert "nicht beides" in capsys.readouterr().err
    assert main(["chess960", "5", "--seed", "1", "--lang", "de"]) == 2
