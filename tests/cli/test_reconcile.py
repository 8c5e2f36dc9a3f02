"""``blindchess reconcile`` and ``blindchess journal`` for arbiters."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from blindchess.cli import main
from blindchess.game import Player, Session


def fen_after(sans, start=None) -> chess.Board:
    board = (start or chess.Board()).copy()
    for s in sans:
        board.push_san(s)
    return board


@pytest.fixture
def sheets(tmp_path):
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text("1. e4 e5 2. Sf3 Sc6 3. Lb5\n", encoding="utf-8")
    b.write_text("1.e4 e5\n2.Nf3 Nc6\n3.Bc4\n", encoding="utf-8")
    return a, b


def run_json(capsys, *args) -> dict:
    assert main(["reconcile", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_retrace_json_fields_and_clock_log(capsys, sheets, tmp_path):
    a, b = sheets
    log = tmp_path / "clock.txt"
    log.write_text("# ply white black\n0 1:30:00 1:30:00\n1 1:29:50 1:30:00\n2 1:29:50 1:29:30\n"
                   "3 5370 5370\n4 5370 5340.5\n5 5300 5340.5\n", encoding="utf-8")
    board_a = fen_after(["e4", "e5", "Nf3", "Nc6", "Bb5"])
    board_b = fen_after(["e4", "e5", "Nf3", "Nc6", "Bc4"])
    d = run_json(capsys, "--sheet-a", str(a), "--sheet-b", str(b), "--board-a", board_a.board_fen(),
                 "--board-b", board_b.fen(), "--clock-log", str(log), "--lang", "en")
    assert d["boards_agree"] is False and d["sheets_agree"] is False
    assert d["agreed_plies"] == 4 and d["ruling"] == "retrace"
    assert d["position_fen"] == fen_after(["e4", "e5", "Nf3", "Nc6"]).fen()
    assert d["fix_boards"] == ["a", "b"]
    assert d["clocks"] == {"ply": 4, "white": 5370.0, "black": 5340.5, "restore": True, "exact": True}
    assert "D.2.9" in d["explanation"]


def test_correct_board_and_no_clocks_without_log(capsys, tmp_path):
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text("1. e4 e5 2. Nf3", encoding="utf-8")
    b.write_text("Bauer Eva vier\nBauer Eva fünf\nSpringer Felix drei\n", encoding="utf-8")  # a recording
    right = fen_after(["e4", "e5", "Nf3"])
    wrong = fen_after(["e4", "e5", "Nh3"])
    d = run_json(capsys, "--sheet-a", str(a), "--sheet-b", str(b), "--board-a", right.board_fen(),
                 "--board-b", wrong.board_fen())
    assert d["ruling"] == "correct-board" and d["fix_boards"] == ["b"] and d["sheets_agree"]
    assert "clocks" not in d
    assert sorted(d["squares"]["b"]) == ["f3", "h3"]


def test_words_without_json_and_chess960(capsys, tmp_path):
    start = chess.Board.from_chess960_pos(99)
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text("1. g3 g6 2. Sf3 Sf6 3. 0-0", encoding="utf-8")
    b.write_text("1. g3 g6 2. Nf3 Nf6 3. O-O", encoding="utf-8")
    right = fen_after(["g3", "g6", "Nf3", "Nf6", "O-O"], start)
    wrong = fen_after(["g3", "g6", "Nf3", "Nf6", "Kg2"], start)
    assert main(["reconcile", "--sheet-a", str(a), "--sheet-b", str(b), "--board-a", right.board_fen(),
                 "--board-b", wrong.board_fen(), "--start-fen", start.fen(), "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "D.2.9" in out and "Brett B" in out and right.fen() in out


def test_clock_log_from_a_journal(capsys, sheets, tmp_path):
    a, b = sheets
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("A"), Player("B", True), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    for i, uci in enumerate(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]):
        t = 10.0 * (i + 1)
        if i % 2 == 0:
            s.board_move("sighted", chess.Move.from_uci(uci), t)
            s.press_clock(chess.WHITE, t)
        else:
            s.board_move("tactile", chess.Move.from_uci(uci), t)
            s.announce(chess.Move.from_uci(uci), uci, t)
            s.press_clock(chess.BLACK, t)
    expected = s.clock.times_at(4).remaining
    s.close()
    d = run_json(capsys, "--sheet-a", str(a), "--sheet-b", str(b),
                 "--board-a", fen_after(["e4", "e5", "Nf3", "Nc6", "Bb5"]).board_fen(),
                 "--board-b", fen_after(["e4", "e5", "Nf3", "Nc6", "Bc4"]).board_fen(), "--clock-log", str(path))
    assert (d["clocks"]["white"], d["clocks"]["black"]) == expected


@pytest.mark.parametrize("change, text", [
    ({"--board-a": "not/a/fen"}, "FEN"),
    ({"--sheet-b": "/nonexistent/file.txt"}, "/nonexistent/file.txt"),
    ({"--clock-log": "BAD"}, "Zeile"),
    ({"--start-fen": "zzz"}, "FEN"),
])
def test_bad_input_is_a_clear_message_exit_2(capsys, sheets, tmp_path, change, text):
    a, b = sheets
    bad_log = tmp_path / "bad.txt"
    bad_log.write_text("0 5400 5400\n1 five 5400\n", encoding="utf-8")
    args = {"--sheet-a": str(a), "--sheet-b": str(b), "--board-a": chess.STARTING_BOARD_FEN,
            "--board-b": chess.STARTING_BOARD_FEN}
    args.update({k: (str(bad_log) if v == "BAD" else v) for k, v in change.items()})
    flat = [x for kv in args.items() for x in kv]
    assert main(["reconcile", *flat]) == 2
    err = capsys.readouterr().err
    assert text in err and "Traceback" not in err


def test_reconcile_in_a_real_subprocess(sheets):
    a, b = sheets
    board = fen_after(["e4", "e5", "Nf3", "Nc6", "Bb5"]).board_fen()
    out = subprocess.run([sys.executable, "-m", "blindchess", "reconcile", "--sheet-a", str(a), "--sheet-b", str(b),
                          "--board-a", board, "--board-b", board, "--json"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["ruling"] == "none" and d["boards_agree"] and not d["sheets_agree"]
    bad = subprocess.run([sys.executable, "-m", "blindchess", "reconcile", "--sheet-a", str(a), "--sheet-b", str(b),
                          "--board-a", "x", "--board-b", board], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_journal_list_and_show(capsys, tmp_path):
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", journal=True, now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 5.0)
    s.touch(chess.G8, 6.0)
    s.close()
    with s.snapshot.journal_path.open("ab") as f:
        f.write(b'{"seq": 99, "ty')
    assert main(["journal", "list"]) == 0
    out = capsys.readouterr().out
    assert s.snapshot.journal_path.name in out and "Anna" in out
    assert main(["journal", "show", s.snapshot.journal_path.name]) == 0
    out = capsys.readouterr().out
    assert "move-made" in out and "D.2.2" in out and "Zeile" in out
    assert main(["journal", "show", str(tmp_path / "missing.jsonl")]) == 2
    proc = subprocess.run([sys.executable, "-m", "blindchess", "journal", "show", str(s.snapshot.journal_path), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["damaged_lines"]


def test_scores_behind_boards_that_agree_json_and_words(capsys, tmp_path):
    # Both boards show 2... Sc6; both sheets end at 2. Sf3: nothing is undone, the scores are completed.
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("1. e4 e5 2. Sf3\n", encoding="utf-8")
    b.write_text("1. e4 e5 2. Nf3\n", encoding="utf-8")
    board = fen_after(["e4", "e5", "Nf3", "Nc6"])
    args = ["--sheet-a", str(a), "--sheet-b", str(b), "--board-a", board.board_fen(), "--board-b", board.fen()]
    d = run_json(capsys, *args, "--lang", "en")
    assert d["ruling"] == "none" and d["boards_agree"] and d["sheets_agree"] and d["fix_boards"] == []
    assert d["scores_behind"] is True and d["position_fen"] == board.fen()
    assert main(["reconcile", *args, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "complete the scores" in out and "Nc6" in out


@pytest.mark.parametrize("content", [
    b'{"a": 1}\n',                                          # JSON, but no clock log: was silently ignored
    b'[{"ply": 4, "white": -5, "black": 5400}]',            # a negative time
    b'[{"ply": 4, "white": 5400, "black": 1e400}]',         # infinity: was shown as "Schwarz -"
    b"0 5400 5400\n4 -5 5400\n",
])
def test_a_clock_log_without_usable_times_is_refused(capsys, sheets, tmp_path, content):
    # these gave a ruling with no or nonsense clock times and exit 0
    a, b = sheets
    log = tmp_path / "clock.json"
    log.write_bytes(content)
    code = main(["reconcile", "--sheet-a", str(a), "--sheet-b", str(b), "--board-a", chess.STARTING_BOARD_FEN,
                 "--board-b", chess.STARTING_BOARD_FEN, "--clock-log", str(log)])
    assert code == 2 and "Uhrenprotokoll" in capsys.readouterr().err


def test_sheets_in_utf16_binary_or_a_folder(capsys, sheets, tmp_path):
    # a UTF-16 sheet (Windows Notepad) was read as "ÿþ1 . ", binary junk was ruled
    # on as a score, and a folder gave the OS's English "Is a directory"
    a, b = sheets
    utf16 = tmp_path / "utf16.txt"
    utf16.write_text("1. e4 e5 2. Sf3 Sc6 3. Lb5\n", encoding="utf-16")
    board = fen_after(["e4", "e5", "Nf3", "Nc6", "Bb5"]).board_fen()
    d = run_json(capsys, "--sheet-a", str(a), "--sheet-b", str(utf16), "--board-a", board, "--board-b", board)
    assert d["sheets_agree"] is True and d["agreed_plies"] == 5
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 8)
    for bad, needle in ((junk, "keine Textdatei"), (tmp_path, "Ordner")):
        assert main(["reconcile", "--sheet-a", str(bad), "--sheet-b", str(b), "--board-a", board,
                     "--board-b", board]) == 2
        assert needle in capsys.readouterr().err


def test_a_bad_start_fen_is_named_as_the_start_position(capsys, sheets):
    a, b = sheets
    assert main(["reconcile", "--sheet-a", str(a), "--sheet-b", str(b), "--board-a", chess.STARTING_BOARD_FEN,
                 "--board-b", chess.STARTING_BOARD_FEN, "--start-fen", "zzz"]) == 2
    err = capsys.readouterr().err
    assert "Ausgangsstellung" in err and "Brett start" not in err


def test_journal_list_marks_files_that_hold_no_game(capsys, tmp_path):
    # an empty, foreign or junk *.jsonl in the journal folder was listed as a game " – , Halbzüge: 0"
    from blindchess.base import paths
    s = Session.new(Player("Anna"), Player("Bert", True), None, journal=True, now=0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    s.close()
    folder = paths.journal_dir()
    (folder / "leer.jsonl").write_bytes(b"")
    (folder / "fremd.jsonl").write_text('[Event "x"]\n\n1. e4 *\n', encoding="utf-8")
    (folder / "ordner.jsonl").mkdir()
    assert main(["journal", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "leer.jsonl: kein blindchess-Journal (keine Partie darin)" in lines
    assert "fremd.jsonl: kein blindchess-Journal (keine Partie darin)" in lines
    assert any(line.startswith(s.snapshot.journal_path.name) and "Anna" in line for line in lines)
    assert main(["journal", "list", "--json"]) == 0
    listed = {Path(i["path"]).name: i["journal"] for i in json.loads(capsys.readouterr().out)}
    assert listed["leer.jsonl"] is False and listed[s.snapshot.journal_path.name] is True
    assert main(["journal", "show", "ordner.jsonl"]) == 2
    assert "Ordner" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["reconcile", "--sheet-a", "a", "--sheet-b", "b", "--board-a", "8/8/8/8/8/8/8/k6K",
                                   "--board-b", "8/8/8/8/8/8/8/k6K"], ["journal", "show", "x.jsonl"]])
def test_an_unknown_output_language_is_refused(capsys, argv):
    # "--lang xx" silently printed English
    with pytest.raises(SystemExit) as info:
        main([*argv, "--lang", "xx"])
    assert info.value.code == 2 and "xx" in capsys.readouterr().err


@pytest.mark.parametrize("board, lang, words", [
    ("kkkkkkkk/8/8/8/8/8/8/KKKKKKKK", "en", "more than one king of a colour"),
    ("4k3/8/8/8/8/8/8/P3K3", "en", "pawns on the first or eighth rank"),
    ("4k3/8/8/8/8/8/8/8 w - - 0 1", "de", "kein weißer König"),
    ("8/8/8/8/8/8/8/8", "en", "the board is empty"),
])
def test_impossible_boards_are_refused_with_the_reason(capsys, sheets, board, lang, words):
    # eight kings or a pawn on the first rank were accepted as a board
    a, b = sheets
    assert main(["reconcile", "--sheet-a", str(a), "--sheet-b", str(b), "--board-a", chess.STARTING_BOARD_FEN,
                 "--board-b", board, "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert words in err and ("board B" in err or "Brett B" in err) and "Traceback" not in err


def test_an_unreadable_board_fen_says_what_is_wrong(capsys, sheets):
    # "not a readable FEN" without saying why
    a, b = sheets
    assert main(["reconcile", "--sheet-a", str(a), "--sheet-b", str(b), "--board-a", "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                 "--board-b", chess.STARTING_BOARD_FEN, "--lang", "en"]) == 2
    assert "unknown character in the piece placement" in capsys.readouterr().err
    assert main(["reconcile", "--sheet-a", str(a), "--sheet-b", str(b), "--board-a", chess.STARTING_BOARD_FEN,
                 "--board-b", chess.STARTING_BOARD_FEN, "--start-fen", "8/8/8/8/8/8/8/KK5k w - - 0 1",
                 "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "start position is impossible" in err and "more than one king" in err


def test_a_piece_placement_alone_is_still_a_board(capsys, sheets):
    a, b = sheets
    d = run_json(capsys, "--sheet-a", str(a), "--sheet-b", str(b), "--board-a", chess.STARTING_BOARD_FEN,
                 "--board-b", chess.STARTING_FEN)
    assert d["ruling"] in ("none", "correct-board", "retrace")
