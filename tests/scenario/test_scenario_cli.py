"""``blindchess scenario run``: bad scripts, the kept journal, script time, the readable log."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import chess
import chess.pgn
import pytest

from blindchess import scenario
from blindchess.cli import main
from blindchess.storage.journal import read_journal
from blindchess.table.commands import BlindSays
from blindchess.table.table import Table
from tests.support.paths import SCENARIOS

# A good script to put bad lines into.
GOOD = """\
@white Bernd Blind
@black Sabine Sehend
2.0  peg     L e2
2.4  peg     P e4
3.0  blind   says Bauer Eva vier
"""

#: (script, line number named in the message)
BAD_SCRIPTS = [
    ("@foo bar\n", 1),
    (GOOD + "@time 90+30\n", 6),                          # header after an action
    ("@white A\n@white B\n", 2),                          # header twice
    ("@blind left\n", 1),
    ("@time 90+x\n", 1),
    ("@start not a fen\n", 1),
    ("@start 8/8/8/8/8/8/8/8 w - - 0 1\n", 1),             # no kings: not a valid position
    ("@chess960 960\n", 1),
    ("@chess960 12\n@start 8/8/8/8/8/8/8/K6k w - - 0 1\n", 2),
    ("@lang fr\n", 1),
    ("@tactile dgt\n", 1),
    ("@settle 0\n", 1),
    ("@settle soon\n", 1),
    (GOOD + "2.9 clock press white\n", 6),                 # time decreases
    (GOOD + "-1 clock press white\n", 6),
    (GOOD + "soon clock press white\n", 6),
    (GOOD + "4.0 wizard zap\n", 6),
    (GOOD + "4.0 peg Q e4\n", 6),
    (GOOD + "4.0 peg L z9\n", 6),
    (GOOD + "4.0 peg S 12345\n", 6),
    (GOOD + "4.0 peg\n", 6),
    (GOOD + "4.0 blind says\n", 6),
    (GOOD + "4.0 blind says Eva vier | sure\n", 6),
    (GOOD + "4.0 blind says Eva vier | 1.5\n", 6),
    (GOOD + "4.0 blind answer 0\n", 6),
    (GOOD + "4.0 blind answer maybe\n", 6),
    (GOOD + "4.0 blind move e2e4\n", 6),
    (GOOD + "4.0 sighted move e2\n", 6),
    (GOOD + "4.0 sighted touch z1\n", 6),
    (GOOD + "4.0 sighted says\n", 6),
    (GOOD + "4.0 clock press red\n", 6),
    (GOOD + "4.0 arbiter retrace back\n", 6),
    (GOOD + "4.0 arbiter apply now\n", 6),
    (GOOD + "4.0 app crash twice\n", 6),
    (GOOD + "4.0 arbiter result 2-0\n", 6),
    (GOOD + "4.0 arbiter result\n", 6),
    (GOOD + "4.0 arbiter resume later\n", 6),
    (GOOD + "4.0 app envelope-lost now\n", 6),
    (GOOD + "4.0 eboard P e4 X\n", 6),
    ("@blind none\n1.0 blind says Eva vier\n", 2),
    ("@tactile none\n1.0 peg L e2\n", 2),
    ("@white A\n@opponent engine 9\n", 2),          # no such level
    ("@blind both\n@opponent engine\n", 2),         # the computer needs one blind player
    ("@sighted-board usb\n", 1),                   # dgt is the e-board there is
    (GOOD + "4.0 eboard L e7\n", 6),               # an e-board line needs @sighted-board dgt
]


@pytest.mark.parametrize(("text", "line"), BAD_SCRIPTS)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_bad_script_is_one_line_naming_the_line_exit_2_nothing_written(
        text: str, line: int, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLINDCHESS_LANG", lang)
    script = tmp_path / "bad.scn"
    script.write_text(text, encoding="utf-8")
    journal = tmp_path / "kept.jsonl"
    assert main(["scenario", "run", str(script), "--json", "--journal", str(journal)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1, captured.err
    word = "Zeile" if lang == "de" else "line"
    assert f"{word} {line}:" in captured.err
    assert not journal.exists()


def test_a_script_that_is_not_utf8_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "latin1.scn"
    script.write_bytes(GOOD.encode("utf-8") + "4.0 blind says Läufer\n".encode("latin-1"))
    assert main(["scenario", "run", str(script)]) == 2
    assert "Zeile 6:" in capsys.readouterr().err


def test_a_missing_script_and_a_taken_journal_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "run", str(tmp_path / "none.scn")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    taken = tmp_path / "taken.jsonl"
    taken.write_text("{}\n", encoding="utf-8")
    assert main(["scenario", "run", str(SCENARIOS / "d1_confirmation_not_cut.scn"), "--journal", str(taken)]) == 2
    assert capsys.readouterr().out == ""
    assert taken.read_text(encoding="utf-8") == "{}\n"
    assert main(["scenario", "run", str(SCENARIOS / "d1_confirmation_not_cut.scn"),
                 "--journal", str(tmp_path / "no" / "folder.jsonl")]) == 2


def test_the_kept_journal_is_a_game_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "game.jsonl"
    assert main(["scenario", "run", str(SCENARIOS / "game_whole.scn"), "--json", "--journal", str(journal)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert read_journal(journal).events, "the journal holds the game"
    pgn = tmp_path / "game.pgn"
    assert main(["export", str(journal), "--format", "pgn", "-o", str(pgn)]) == 0
    with pgn.open(encoding="utf-8") as f:
        game = chess.pgn.read_game(f)
    assert game is not None
    assert [m.uci() for m in game.mainline_moves()] == [e["uci"] for e in lines if e["type"] == "move"]
    assert game.end().board().fen() == lines[-1]["game"]
    resumed = Table.resume(journal, lines[-1]["t"] + 60.0)     # what the app does when it opens the journal
    assert resumed.session.game_board().fen() == lines[-1]["game"]
    resumed.close()
    brf = tmp_path / "game.brf"
    assert main(["export", str(journal), "--format", "brf", "-o", str(brf)]) == 0
    assert brf.stat().st_size > 0


def test_without_journal_the_temporary_one_is_removed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    assert main(["scenario", "run", str(SCENARIOS / "d1_confirmation_not_cut.scn"), "--json"]) == 0
    assert capsys.readouterr().out
    assert list(temp.iterdir()) == []


def test_a_four_hour_game_runs_on_script_time(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # Every think is an hour: the clocks prove the script's clock was used; nothing may sleep.
    def no_sleep(seconds: float) -> None:
        raise AssertionError(f"slept {seconds} s")

    monkeypatch.setattr(time, "sleep", no_sleep)
    script = tmp_path / "long.scn"
    script.write_text("""\
@time 150+0
3598.0  peg     L e2
3598.4  peg     P e4
3600.0  blind   says Bauer Eva vier
3601.0  clock   press white
3602.0  sighted move e2e4
7200.0  sighted move e7e5
7201.0  clock   press black
7204.0  peg     L e7
7204.4  peg     P e5
10798.0 peg     L g1
10798.4 peg     P f3
10800.0 blind   says Springer Felix drei
10801.0 clock   press white
10802.0 sighted move g1f3
14400.0 sighted move b8c6
14401.0 clock   press black
14404.0 peg     L b8
14404.4 peg     P c6
""", encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    presses = [(e["t"], e["white"], e["black"]) for e in events if e["type"] == "clock"]
    assert presses == [(3601.0, pytest.approx(9000 - 3601), pytest.approx(9000.0)),
                       (7201.0, pytest.approx(5399.0), pytest.approx(9000 - 3600)),
                       (10801.0, pytest.approx(5399 - 3600), pytest.approx(5400.0)),
                       (14401.0, pytest.approx(1799.0), pytest.approx(5400 - 3600))]
    final = events[-1]
    assert final["type"] == "final" and final["plies"] == 4 and final["t"] >= 14404.4
    assert final["clocks"]["black"] == pytest.approx(1800.0)
    assert final["clocks"]["white"] == pytest.approx(1799.0 - (final["t"] - 14401.0))


def test_a_flag_falls_on_script_time_between_actions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Black's clock runs from White's press at 4.0 with 5 minutes: the flag falls at 304.0, long
    # before the next action (400.0) — reported then, not when the next action comes.
    script = tmp_path / "flag.scn"
    script.write_text("@time 5+0\n2.0 peg L e2\n2.4 peg P e4\n3.0 blind says Bauer Eva vier\n4.0 clock press white\n"
                      "5.0 sighted move e2e4\n400 sighted move e7e5\n", encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    between = [e for e in events if 5.0 < e["t"] < 400.0 and e["type"] in ("shown", "said")]
    assert between and all(e["t"] == pytest.approx(304.0, abs=0.01) for e in between if e["type"] == "shown")
    # said: the flag, then the end of the game behind it (never cut by it)
    assert [e["t"] == pytest.approx(304.0, abs=0.01) for e in between if e["type"] == "said"][0]
    assert all(304.0 <= e["t"] < 310.0 and not e["cut"] for e in between if e["type"] == "said")
    assert events[-1]["clocks"] == {"white": pytest.approx(296.0), "black": 0.0}


@pytest.mark.parametrize(("lang", "expected"), [("de", ["Zug 1: e4 (e2e4)", "Ende: Ergebnis"]),
                                                  ("en", ["move 1: e4 (e2e4)", "end: result"])])
def test_the_readable_log_is_in_the_user_s_language(lang: str, expected: list[str], capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLINDCHESS_LANG", lang)
    assert main(["scenario", "run", str(SCENARIOS / "d1_confirmation_not_cut.scn")]) == 0
    out = capsys.readouterr().out
    for text in expected:
        assert text in out


def test_the_parser_keeps_comments_out_and_spoken_text_whole() -> None:
    script = scenario.parse("@event Open # round robin\n1.5 blind says Dame schlägt Felix sieben # mate\n"
                            "2 blind says Dxf7# | 0.5\n", "en")
    assert script.setup.headers == {"Event": "Open"}
    said = [(a.t, a.command) for a in script.actions
            if isinstance(a, scenario.TableAction) and isinstance(a.command, BlindSays)]
    assert [(t, command.text, command.confidence) for t, command in said] == \
        [(1.5, "Dame schlägt Felix sieben", 1.0), (2.0, "Dxf7#", 0.5)]


def test_the_simulated_pegboard_keeps_the_pegs() -> None:
    device = scenario.PegBoardDevice(int(chess.Board().occupied))
    device.apply("L e2")
    device.apply("P e4*21")
    expected = chess.Board()
    expected.push_san("e4")
    assert device.occupied == int(expected.occupied)
    assert device.snapshot().split("*")[0] == f"S {int(expected.occupied):016X}"
    assert device.hello()[0].startswith("I ")
