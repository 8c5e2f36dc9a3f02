"""Every scenario in tests/scenarios/ through ``blindchess scenario run``.

Each scenario is run through the CLI's own code (``blindchess.cli.main``) with
``--json`` and the events that matter are asserted. Every defect scenario says
what a table that gets it wrong does, so it is clear why the assertion would fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import chess
import chess.pgn
import pytest

from blindchess.cli import main
from tests.support.scenario_report import SCENARIOS, run

SCRIPTS = sorted(p.name for p in SCENARIOS.glob("*.scn"))

#: The nine basic event types and their exact fields.
FIELDS = {
    "said": {"t", "type", "to", "text", "cut"},
    "shown": {"t", "type", "text"},
    "touched": {"t", "type", "square", "by"},
    "move": {"t", "type", "ply", "color", "uci", "san"},
    "question": {"t", "type", "text", "candidates", "to"},
    "refused": {"t", "type", "what", "text"},
    "divergence": {"t", "type", "ply"},
    "ruling": {"t", "type", "kind", "plies"},
    "final": {"t", "type", "boards", "game", "plies", "scores", "clocks", "result"},
}

#: Words of the talking clock / time information (D.2.10 d).
TIME_TALK = re.compile(r"verbraucht|übrig|Minute|Sekunde|Stunde|Bedenkzeit", re.IGNORECASE)
#: Article numbers as written ("D.2.3", "Art. 6.9") or spoken ("zwei Punkt drei").
ARTICLE = re.compile(r"\b[A-Z]\.\d|\bArt\.|\bArtikel\b|\bPunkt\b", re.IGNORECASE)
#: Internal ids: snake_case or hyphenated program words, or the names of the rulings/boards.
INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|correct-board|\bretrace\b|\bsighted\b|\btactile\b|\bpegboard\b")
#: Moves in UCI (the program's notation: never spoken, the blind player hears the phonetic words).
UCI = re.compile(r"\b[a-h][1-8][a-h][1-8][qrbn]?\b")


def export_pgn(journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> chess.pgn.Game:
    target = tmp_path / "game.pgn"
    assert main(["export", str(journal), "--format", "pgn", "-o", str(target)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    with target.open(encoding="utf-8") as f:
        game = chess.pgn.read_game(f)
    assert game is not None
    return game


def speaking_seconds(text: str) -> float:
    """Speaking time at 175 words a minute (the voice's default rate)."""
    return len(text.split()) * 60.0 / 175.0


# ---------------------------------------------------------------------------
# Every scenario

@pytest.mark.parametrize("name", SCRIPTS)
def test_every_scenario_runs_with_the_issue_s_json(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    report = run(name, capsys)
    times = [e["t"] for e in report.events if e["type"] != "final"]
    assert times == sorted(times), "events in time order"
    assert report.final["type"] == "final" and [e["type"] for e in report.events].count("final") == 1
    # the final state is read at the script's own end (its last line, or a move the pegs' settle time
    # completed after it), not when the speech still running ends
    script_end = max(float(line.split()[0]) for line in (SCENARIOS / name).read_text(encoding="utf-8").splitlines()
                     if line.strip() and line.split()[0].replace(".", "", 1).isdigit())
    assert script_end <= report.final["t"] <= max(times), (script_end, report.final["t"])
    for event in report.events:
        if event["type"] in FIELDS:
            # "private": only on a text for one player alone (the sealer's), and then true
            assert set(event) - {"private"} == FIELDS[event["type"]] and event.get("private", True) is True, event
    for event in report.of("said"):
        assert event["to"] in ("blind", "sighted", "all") and isinstance(event["cut"], bool)
    for event in report.of("move"):
        assert event["color"] in ("white", "black")
    assert [e["ply"] for e in report.of("move")] == list(range(1, len(report.of("move")) + 1)) \
        or report.of("ruling") or report.of("illegal-corrected"), \
        "plies numbered 1, 2, ... unless a retrace or an illegal move corrected took moves back"
    final = report.final
    assert set(final["boards"]) == {"sighted", "tactile"} and set(final["scores"]) == {"blind", "sighted"}
    assert set(final["clocks"]) == {"white", "black"}
    chess.Board(final["game"], chess960=name == "game_chess960.scn")  # a valid FEN


@pytest.mark.parametrize("name", SCRIPTS)
def test_no_internal_ids_or_article_numbers_are_spoken(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Defect 8, in every scenario: the old app read "De zwei Punkt drei" with every move and spoke
    # "sighted_follows" / "retrace" in an English voice.
    report = run(name, capsys)
    for event in report.of("said") + report.of("question"):
        assert not ARTICLE.search(event["text"]), event
        assert not INTERNAL.search(event["text"]), event
        assert not UCI.search(event["text"]), event
    for event in report.of("shown") + report.of("refused"):
        assert not INTERNAL.search(event["text"]), event


@pytest.mark.parametrize("name", SCRIPTS)
def test_nothing_is_said_twice_to_one_person_for_one_event(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Speech policy: one event, one text per listener. The same text said again to the same
    # person is allowed only after a restart (the question asked again) or when he asked to repeat.
    report = run(name, capsys)
    for listener in ("blind", "sighted"):
        said = sorted(report.said_to(listener), key=lambda e: e["t"])
        for before, after in zip(said, said[1:]):
            if before["text"] != after["text"]:
                continue
            between = [e for e in report.events if before["t"] <= e["t"] <= after["t"]]
            resumed = any(e["type"] == "said" and "fortgesetzt" in e["text"] for e in between)
            repeat = any(e["type"] == "heard" and "wiederhol" in e["text"].lower() for e in between)
            assert resumed or repeat, (listener, before, after)


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_spoken_text_is_short(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    # defect 8: a ruling read 47-50 s of text. Every text is at most 12 s at the voice's rate,
    # except the description of a Chess960 start position (the blind player sets up his board by it).
    report = run(name, capsys)
    for event in report.of("said"):
        if event["text"].startswith("Neue Partie Chess960"):
            continue
        assert speaking_seconds(event["text"]) <= 12.0, event


# ---------------------------------------------------------------------------
# Defects of the game flow, one test each

def test_d1_the_confirmation_is_not_cut(capsys: pytest.CaptureFixture[str]) -> None:
    # Old: when the sighted board took the keyboard focus (the mirror at 3.3) it read its cursor
    # square with interrupt, so "Zug ausgeführt: ..." (begun at 3.0) was cut after 0.3-0.5 s and
    # the log still said "said".
    report = run("d1_confirmation_not_cut.scn", capsys)
    assert report.moves() == ["e2e4", "e7e5", "g1f3"]
    confirmations = [e for e in report.said_to("blind") if 3.0 <= e["t"] < 3.3]
    assert confirmations, "the blind player hears his move confirmed"
    assert not any(e["cut"] for e in confirmations)
    for move in report.of("move"):
        spoken = [e for e in report.said_to("blind") if e["t"] == move["t"]]
        assert spoken and not any(e["cut"] for e in spoken), ("every move is heard to the end", move, spoken)
    assert report.of("move", ply=1)[0]["t"] == pytest.approx(3.0, abs=0.6)


def test_d2_an_unclear_announcement_is_asked_and_answered(capsys: pytest.CaptureFixture[str]) -> None:
    # Old: the session emitted a "question" event, the window never handled it: no question was
    # asked, the answer by keys did nothing, the move was never played.
    report = run("d2_unclear_announcement.scn", capsys)
    first = report.between("question", 2.0, 5.0)
    assert first and first[0]["to"] in ("blind", "all") and "e2e4" in first[0]["candidates"]
    assert first[0]["candidates"][0] == "e2e4", "key 1 chooses the best candidate"
    # the question is spoken as soon as the voice is free (it never cuts the greeting it waits behind)
    asked = [e for e in report.said_to("blind") if e["text"] == first[0]["text"]]
    assert asked and first[0]["t"] <= asked[0]["t"] < 5.0 and not asked[0]["cut"], "the question is spoken"
    assert not report.between("move", 0.0, 5.0), "nothing is played before the answer"
    assert report.of("move", ply=1)[0]["uci"] == "e2e4"
    second = report.between("question", 20.0, 23.0)
    assert second and "g1f3" in second[0]["candidates"]
    assert not report.between("move", 20.0, 23.0)
    assert report.of("move", ply=3)[0]["uci"] == "g1f3" and report.of("move", ply=3)[0]["t"] >= 23.0
    assert report.final["plies"] == 3


def test_d3_clocks_scores_and_pgn_clk_after_a_correct_board_ruling(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Old: after the correct-board ruling the clock ran for White (the wrong side), the blind
    # player's score stopped at move 1, and [%clk]/[%emt] were wrong from there on.
    journal = tmp_path / "d3.jsonl"
    report = run("d3_clock_after_correct_board.scn", capsys, "--journal", str(journal))
    assert report.between("divergence", 9.0, 12.0)[0]["ply"] == 1, "half-move 1 (1-based, as in move events)"
    ruling = report.of("ruling")
    assert len(ruling) == 1 and ruling[0]["kind"] == "correct-board" and ruling[0]["plies"] == 1
    assert report.moves() == ["e2e4", "e7e5", "g1f3", "b8c6"]
    # 90+30; Black's clock runs from White's press at 8.0 through the ruling at 12.0.
    expected = {8.0: ("white", 5400 - 8 + 30), 31.0: ("black", 5400 - (31 - 8) + 30),
                42.0: ("white", 5422 - (42 - 31) + 30), 61.0: ("black", 5407 - (61 - 42) + 30)}
    presses = {e["t"]: e for e in report.of("clock")}
    for t, (color, seconds) in expected.items():
        assert presses[t][color] == pytest.approx(seconds, abs=0.01), (t, presses[t])
    final = report.final
    assert final["clocks"]["black"] == pytest.approx(5418, abs=0.01)
    assert final["clocks"]["white"] == pytest.approx(5441 - (final["t"] - 61.0), abs=0.01), "White's clock runs"
    assert len(final["scores"]["blind"]) == 4 and len(final["scores"]["sighted"]) == 4
    assert final["boards"]["sighted"].split()[0] == final["game"].split()[0]
    clocks = [node.clock() for node in export_pgn(journal, tmp_path, capsys).mainline()]
    assert clocks == pytest.approx([5422, 5407, 5441, 5418], abs=1.0)


def test_d4_a_mirror_of_a_move_never_made_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # Old: the sighted board took e2e4 before the blind player had made it (and later g1f3),
    # reporting only "weicht ab auf ..." and no arbiter view.
    report = run("d4_mirror_not_made.scn", capsys)
    assert report.between("refused", 1.0, 1.01), "the mirror before the move is refused"
    assert report.between("refused", 12.0, 12.01), "the mirror of White's second move is refused"
    assert not report.between("refused", 6.0, 6.01), "the mirror after the move is taken"
    assert not report.between("move", 0.0, 3.0)
    assert report.moves() == ["e2e4", "e7e5"]
    assert not report.of("divergence")
    final = report.final
    assert final["boards"]["sighted"].split()[0] == final["game"].split()[0], "the refused mirror left no trace"
    assert chess.Board(final["boards"]["sighted"]).piece_at(chess.G1) == chess.Piece(chess.KNIGHT, chess.WHITE)


def test_d5_a_wrong_promotion_piece_is_a_divergence(capsys: pytest.CaptureFixture[str]) -> None:
    # Old: boards were compared with each other by occupancy, so a queen for the announced knight
    # was no divergence and the arbiter view said the boards agree.
    report = run("d5_wrong_promotion.scn", capsys)
    assert report.moves() == ["e7e8n"]
    divergence = report.between("divergence", 5.0, 8.0)
    assert divergence and divergence[0]["ply"] == 1
    ruling = report.of("ruling")
    assert ruling and ruling[0]["kind"] == "correct-board" and ruling[0]["plies"] == 1
    sighted = chess.Board(report.final["boards"]["sighted"])
    assert sighted.piece_at(chess.E8) == chess.Piece(chess.KNIGHT, chess.WHITE)


def test_d6_a_slow_capture_mirror_is_not_a_touch(capsys: pytest.CaptureFixture[str]) -> None:
    # Old: removing the captured pawn on e4 (23.0) and pausing longer than the settle time was
    # recorded as the blind player touching his pawn (D.2.2), in the journal and the PGN; and a
    # mirror finished 0.2 s before his own next lift (b1 at 26.1) was never recognised.
    report = run("d6_capture_mirror_slow.scn", capsys)
    touches = [e for e in report.between("touched", 20.0, 26.0) if e["by"] == "blind"]
    assert not touches, touches
    mirrored = [e for e in report.between("mirrored", 25.9, 27.0) if e.get("board") == "tactile"]
    assert mirrored, "the capture mirror is recognised"
    assert report.moves() == ["e2e4", "d7d5", "g1f3", "d5e4", "b1c3"]
    assert [e["square"] for e in report.between("touched", 26.0, 27.0) if e["by"] == "blind"] == ["b1"]
    assert not report.of("divergence")


def test_d7_a_correction_without_false_illegality_or_stale_touch(capsys: pytest.CaptureFixture[str]) -> None:
    # Old: after "Korrektur ..." the app said the corrected move was illegal on the tactile board,
    # and "Berührt: Gustav eins" was spoken 19 s late.
    report = run("d7_correction.scn", capsys)
    assert report.moves() == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert report.of("move", ply=3)[0]["t"] >= 15.0
    assert not report.between("refused", 15.0, 41.0)
    illegal = re.compile(r"illegal|unmöglich|nicht möglich|regelwidrig|nicht erlaubt", re.IGNORECASE)
    for event in report.between("said", 16.0) + report.between("shown", 16.0):
        assert not illegal.search(event["text"]), event
    g1 = [e for e in report.of("touched") if e["square"] == "g1"]
    assert [e["t"] for e in g1] == [14.0], "one touch of g1, when it happened"
    assert not report.between("touched", 15.0, 40.0)
    assert not [e for e in report.between("said", 15.0) if "berührt" in e["text"].lower()]
    assert report.between("clock", 18.0, 18.01), "the press after the correction is taken (D.2.8)"
    # The announcement the pegs contradict (15.0) is said in two short parts, the rule only shown.
    said = report.between("said", 15.0, 15.01)
    assert [e["text"] for e in said] == ["Angesagt: Springer Hector drei. Auf dem Tastbrett: Springer Felix drei."]
    assert any("D.2.3" in e["text"] and "Hector" in e["text"] for e in report.between("shown", 15.0, 15.01))


def test_d8_short_ruling_texts(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Old: applying a ruling read 47-50 s of text, with article numbers and internal ids, and the
    # ids ("sighted_follows", "retrace") went into the PGN.
    journal = tmp_path / "d8.jsonl"
    report = run("d8_short_texts.scn", capsys, "--journal", str(journal))
    assert report.between("divergence", 11.0, 16.0)
    assert report.of("ruling", kind="correct-board")
    for event in report.of("said"):
        assert speaking_seconds(event["text"]) <= 12.0, event
    ruling_speech = sum(speaking_seconds(e["text"]) for e in report.between("said", 16.0, 20.0))
    assert ruling_speech <= 15.0
    assert report.moves() == ["e2e4", "e7e5", "g1f3"]
    pgn = str(export_pgn(journal, tmp_path, capsys))
    assert not INTERNAL.search(pgn.replace("[%", "")), pgn


def test_d9_resignation_is_confirmed_by_a_question(capsys: pytest.CaptureFixture[str]) -> None:
    # Old: the recognised phrase "Ich gebe auf" ended the game at once, without a question.
    report = run("d9_resignation_question.scn", capsys)
    first = report.between("question", 14.0, 17.0)
    assert first and set(first[0]["candidates"]) == {"yes", "no"} and first[0]["to"] in ("blind", "all")
    assert not report.between("game-end", 0.0, 38.0)
    assert report.of("move", ply=3)[0]["uci"] == "g1f3", "after 'no' the game goes on"
    assert report.between("question", 35.0, 38.0)
    ends = report.of("game-end")
    assert len(ends) == 1 and ends[0]["result"] == "0-1" and ends[0]["t"] >= 38.0
    assert report.final["result"] == "0-1"


# ---------------------------------------------------------------------------
# Requests to the table

def test_a_ruling_drops_the_divergence_text_it_settled(capsys: pytest.CaptureFixture[str]) -> None:
    # Before: the divergence text waited behind the move confirmation and was said after the ruling
    # had settled it ("Entscheid: ..." then "Die Bretter weichen voneinander ab ...").
    report = run("ruling_drops_stale_texts.scn", capsys)
    divergence = report.of("divergence")
    assert divergence and divergence[0]["t"] == pytest.approx(8.3) and divergence[0]["ply"] == 3
    ruling = report.of("ruling")
    assert len(ruling) == 1 and ruling[0]["kind"] == "correct-board" and ruling[0]["t"] == pytest.approx(8.5)
    after = [e["text"] for e in report.said_to("blind") if e["t"] >= 8.0]
    assert len(after) == 2 and after[0].startswith("Zug ausgeführt") and after[1].startswith("Entscheid"), after
    assert not [e for e in report.of("said") if "weichen" in e["text"]], "nothing said about the parted boards"
    assert any("weichen" in e["text"] for e in report.between("shown", 8.3, 8.31)), "it is shown when it happens"
    assert report.moves() == ["e2e4", "e7e5", "f1c4"]


def test_a_heard_two_square_king_move_is_asked_not_castled(capsys: pytest.CaptureFixture[str]) -> None:
    # recognisers turn "Springer" into "König"; the recogniser's "König Gustav eins"
    # must not castle on a guess (D.2.1) — it is asked, and castles after "ja".
    report = run("heard_king_two_squares.scn", capsys)
    question = report.between("question", 24.0, 24.01)
    assert question and question[0]["candidates"] == ["e1g1"] and question[0]["to"] == "blind"
    assert "Rochade" in question[0]["text"]
    assert any(e["text"] == question[0]["text"] for e in report.between("said", 24.0, 24.01))
    assert not report.between("move", 20.0, 28.0), "nothing is played before the answer"
    castle = report.of("move", ply=7)
    assert castle and castle[0]["uci"] == "e1g1" and castle[0]["san"] == "O-O" and castle[0]["t"] == 28.0
    assert report.final["scores"]["blind"][-1] == report.final["scores"]["sighted"][-1] == "0-0"


# ---------------------------------------------------------------------------
# Whole games

def test_a_whole_game_with_en_passant_castling_and_promotion(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    journal = tmp_path / "whole.jsonl"
    report = run("game_whole.scn", capsys, "--journal", str(journal))
    board = chess.Board()
    sans = []
    for san in ["e4", "Nf6", "e5", "d5", "exd6", "Nc6", "Nf3", "Bf5", "Be2", "Qd7", "O-O", "O-O-O", "dxe7", "a6",
                "exf8=Q", "Rhxf8"]:
        sans.append(board.san(board.parse_san(san)))
        board.push_san(san)
    assert report.moves() == [m.uci() for m in board.move_stack]
    assert [e["san"] for e in report.of("move")] == sans
    assert not report.of("divergence") and not report.of("refused") and not report.of("question")
    final = report.final
    assert final["game"] == board.fen() and final["plies"] == 16
    assert final["boards"]["sighted"].split()[0] == board.board_fen()
    assert final["boards"]["tactile"].split()[0] == board.board_fen()
    assert len(final["scores"]["blind"]) == 16 and len(final["scores"]["sighted"]) == 16
    game = export_pgn(journal, tmp_path, capsys)
    assert [m.uci() for m in game.mainline_moves()] == report.moves()
    assert (game.headers["Event"], game.headers["Site"], game.headers["Date"], game.headers["Round"]) == \
        ("Vereinsmeisterschaft", "Marburg", "2024.05.04", "3")
    assert (game.headers["White"], game.headers["Black"]) == ("Bernd Blind", "Sabine Sehend")


def test_a_chess960_game(capsys: pytest.CaptureFixture[str]) -> None:
    report = run("game_chess960.scn", capsys)
    board = chess.Board.from_chess960_pos(12)
    for san in ["f4", "f5", "Bf2", "Bf7", "O-O", "O-O", "Nd3", "Nd6"]:
        board.push_san(san)
    assert report.moves() == [board.uci(m) for m in board.move_stack] or \
        report.moves() == [m.uci() for m in board.move_stack]
    assert [e["san"] for e in report.of("move")][4:6] == ["O-O", "O-O"]
    assert not report.of("divergence") and not report.of("refused")
    assert report.final["game"].split()[0] == board.board_fen()
    assert report.final["boards"]["tactile"].split()[0] == board.board_fen()
    # The start text names the start position (REQUESTS, UI: the old app said "Chess960 Nr. N: ..."):
    # said to the blind player square by square, shown to the sighted side with its number.
    start_said = [e["text"] for e in report.said_to("blind") if e["t"] == 0.0]
    assert start_said and "Stellung 12" in start_said[0] and "Dame Anna eins" in start_said[0] \
        and "König Felix acht" in start_said[0], start_said
    start_shown = [e["text"] for e in report.between("shown", 0.0, 0.01)]
    assert any("Chess960" in text and "12" in text and "DLSSTKLT" in text for text in start_shown), start_shown


# ---------------------------------------------------------------------------
# Crash and resume at every kind of pending state

def test_crash_with_a_move_placed_but_not_announced(capsys: pytest.CaptureFixture[str]) -> None:
    report = run("crash_placed.scn", capsys)
    assert not report.between("move", 0.0, 5.0), "placed is not made (D.2.3)"
    assert report.moves() == ["e2e4", "e7e5"] and report.of("move", ply=1)[0]["t"] >= 5.0
    assert any(e["what"] == "snapshot" for e in report.between("device", 4.0, 4.01)) or \
        not report.of("device"), "the restarted table asks the board for its pegs"
    assert not report.of("divergence") and not report.of("refused")


def test_a_crash_gives_nobody_time(capsys: pytest.CaptureFixture[str]) -> None:
    # The app died at 4.0 and was back at once: White thought from 0.0 to his press at 6.0, so his
    # clock shows 90 min - 6 s + 30 s. The time between the last journal line (the pegs settling
    # at 2.9) and the crash was play time too.
    report = run("crash_placed.scn", capsys)
    assert report.of("clock")[0]["white"] == pytest.approx(5400 - 6 + 30, abs=0.01)


def test_crash_with_a_move_announced_but_not_placed(capsys: pytest.CaptureFixture[str]) -> None:
    report = run("crash_announced.scn", capsys)
    assert not report.between("move", 0.0, 4.4)
    assert report.moves() == ["e2e4", "e7e5"] and report.of("move", ply=1)[0]["t"] >= 4.4
    assert not report.of("divergence") and not report.of("refused")


def test_crash_with_a_question_open(capsys: pytest.CaptureFixture[str]) -> None:
    report = run("crash_question.scn", capsys)
    assert report.between("question", 2.0, 4.0)
    assert not report.between("move", 0.0, 6.0)
    assert not report.between("refused", 6.0, 6.01), "the restarted table still has the question"
    assert report.moves() == ["e2e4"]
    assert report.final["boards"]["sighted"].split()[0] == report.final["game"].split()[0]


def test_crash_with_a_ruling_proposed(capsys: pytest.CaptureFixture[str]) -> None:
    report = run("crash_ruling.scn", capsys)
    assert report.between("divergence", 5.0, 7.0)
    ruling = report.between("ruling", 9.0, 9.01)
    assert ruling and ruling[0]["kind"] == "correct-board" and ruling[0]["plies"] == 1
    assert [e["text"] for e in report.between("said", 7.0, 7.01)] == ["Partie fortgesetzt nach 1 Halbzug."]
    assert report.moves() == ["e2e4", "e7e5"]
    final = report.final
    assert final["boards"]["sighted"].split()[0] == final["game"].split()[0]


# ---------------------------------------------------------------------------
# Time requests

def test_the_time_is_said_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    # D.2.10 d: the blind player is told the time only at his request.
    report = run("time_request.scn", capsys)
    to_blind = report.said_to("blind")
    assert not [e for e in to_blind if e["t"] < 30.0 and TIME_TALK.search(e["text"])]
    answer = [e for e in to_blind if 30.0 <= e["t"] < 31.0 and TIME_TALK.search(e["text"])]
    assert answer, "the request is answered at once"
    assert not [e for e in to_blind if e["t"] >= 31.0 and TIME_TALK.search(e["text"])]
    assert report.moves() == ["e2e4", "e7e5", "g1f3"]


def test_the_adjournment_s_steps_out_of_turn_are_refused_and_a_late_player_loses(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Guidelines I: no envelope to open before the adjournment, no second adjournment, the sealer's move
    # sealed by him alone; the absent responder's clock started once (I.9 b); late at the default time she
    # loses (I.10) with the envelope closed, and nothing is annulled after the result.
    report = run("adjournment_steps_out_of_turn_and_late_player.scn", capsys)
    refused = [(e["t"], e["what"]) for e in report.of("refused")]
    assert refused == [(30.0, "resume"), (61.0, "adjourn"), (62.0, "seal"), (86401.0, "resume"), (90001.0, "result")]
    assert [(e["t"], e["result"], e["reason"]) for e in report.of("ended")] == [(90000.0, "1-0", "late")]
    final = report.final
    assert final["plies"] == 2 and final["result"] == "1-0"
    assert final["clocks"]["black"] == 5400.0 - 5.0 + 30.0 - 3600.0     # her clock ran from the resumption on
