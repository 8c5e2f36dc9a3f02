"""Tournament procedures at the table, as whole scripts: an adjourned game (FIDE Laws, Guidelines I),
rapid and blitz with and without adequate supervision (Appendices A, B), the assistant's duties (D.2.10).

The window runs the same scripts with the same events (``tests/ui/test_ui_scenario.py``).
"""

from __future__ import annotations

import json
import shutil
import subprocess

import chess
import chess.pgn
import pytest

from blindchess.cli import main
from blindchess.storage.journal import envelope_path
from blindchess.table.commands import (
    ArbiterAdjourn,
    ArbiterQuickplay,
    ArbiterResume,
    BlindSays,
    ClaimsQuickplay,
    ClockPress,
    SightedMove,
    SightedSays,
)
from tests.support.journal_text import journal_words
from tests.support.scenario_report import SCENARIOS, Report, run


def assert_secret(r: Report, opened: float, *forms: str) -> None:
    """No event before ``opened`` — every type, ``heard`` too — holds any of the sealed move's ``forms``."""
    for e in r.events:
        if e["t"] < opened and e["type"] != "final":
            text = json.dumps(e, ensure_ascii=False)
            assert not any(form in text for form in forms), e


# ---------------------------------------------------------------- Guidelines I
def test_an_adjournment_sealed_by_the_blind_player_and_resumed_a_day_later(capsys, tmp_path):
    journal = tmp_path / "game.jsonl"
    r = run("adjournment_sealed_by_the_blind_player.scn", capsys, "--journal", str(journal))
    assert r.of("adjourned") == [{"t": 60.0, "type": "adjourned", "sealer": "blind", "ply": 5}]
    # the first attempt ("Läufer Bella") is told to him alone; only the sealing is an event for everybody
    assert r.of("sealed") == [{"t": 75.0, "type": "sealed", "by": "blind"}]
    told = [e for e in r.of("said") if e["t"] == 70.0]
    assert told and all(e["to"] == "blind" and e.get("private") for e in told)
    assert r.of("resumed") == [{"t": 86480.0, "type": "resumed", "uci": "f1b5"}]
    # nothing of the sealed move before the envelope is opened: not said, shown, or in any event
    assert_secret(r, 86480.0, "f1b5", "Lb5", "Bb5", "Bella fünf", "Läufer Bella")
    # the clocks stood still from the sealing to the opening: White's time used is the 1.5 s + 19 s he
    # thought before the adjournment plus the time from the adjournment to sealing; the day is no play time
    press = r.of("clock", ply=6)[0]
    assert press["white"] == pytest.approx(5400 + 30 + 30 - (3.5 - 0) - (15.5 - 8.5) - (75.0 - 20.5), abs=0.01)
    assert press["black"] == pytest.approx(5400 + 30 + 30 + 30 - (8.5 - 3.5) - (20.5 - 15.5) - (86501.0 - 86480.0), abs=0.01)
    assert r.final["scores"]["blind"][4] == "Lb5" and r.final["plies"] == 6
    # the journal never holds the move as written: the envelope beside it does, and only until resumption
    text = journal_words(journal, until="envelope-opened")
    assert "Bella fünf" not in text and "f1b5" not in text
    assert envelope_path(journal).exists()
    # the sealed move counts as pressed (I.9 a): the assistant is not asked to press for it
    assert not [e for e in r.of("shown") if e["t"] >= 86480.0 and "Uhr" in e["text"] and "Drücken" in e["text"]]


def test_an_absent_responder_s_clock_runs_until_she_arrives_and_the_envelope_is_opened(capsys, tmp_path):
    r = run("adjournment_responder_absent.scn", capsys, "--journal", str(tmp_path / "game.jsonl"))
    assert r.of("responder-absent") == [{"t": 86400.0, "type": "responder-absent", "responder": "sighted"}]
    assert r.of("resumed") == [{"t": 86700.0, "type": "resumed", "uci": "f1b5"}]
    told = [e["text"] for e in r.of("said") if e["t"] == 86400.0]
    assert told and "Sabine Sehend" in told[0] and "Umschlag" in told[0]
    assert_secret(r, 86700.0, "f1b5", "Lb5", "Bb5", "Bella fünf")   # the envelope stays closed until she is there
    # her clock ran from the start of the session (I.9 b): the five minutes she was late are hers;
    # White's time is what he had when he sealed
    black_before, white_before = r.of("clock", ply=4)[0]["black"], r.of("clock", ply=4)[0]["white"]
    press = r.of("clock", ply=6)[0]
    assert press["black"] == pytest.approx(black_before - (86721.0 - 86400.0) + 30, abs=0.01)
    assert press["white"] == pytest.approx(white_before - (75.0 - 20.5), abs=0.01)
    assert r.final["scores"]["blind"] == ["e4", "e5", "Sf3", "Sc6", "Lb5", "a6"]


def test_the_absent_responder_s_clock_is_started_once_and_only_with_an_envelope(capsys, tmp_path):
    script = tmp_path / "twice.scn"
    text = (SCENARIOS / "adjournment_responder_absent.scn").read_text(encoding="utf-8")
    script.write_text(text.replace("86700.0 arbiter resume\n", "86500.0 arbiter resume absent\n86700.0 arbiter resume\n")
                      .replace("60.0 arbiter adjourn\n", "50.0 arbiter resume absent\n60.0 arbiter adjourn\n"),
                      encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert [e["t"] for e in r.of("responder-absent")] == [86400.0]
    assert [e["t"] for e in r.of("refused") if e["what"] == "resume"] == [50.0, 86500.0]
    assert r.of("resumed") == [{"t": 86700.0, "type": "resumed", "uci": "f1b5"}]


def test_the_sighted_player_seals_by_typing_on_his_side(capsys, tmp_path):
    r = run("adjournment_sealed_by_the_sighted_player.scn", capsys, "--journal", str(tmp_path / "game.jsonl"))
    assert r.of("adjourned") == [{"t": 60.0, "type": "adjourned", "sealer": "sighted", "ply": 4}]
    # "Remis" while he seals is no draw offer but an unreadable sealed move (I.1): he alone is told, on his screen
    assert r.of("sealed") == [{"t": 75.0, "type": "sealed", "by": "sighted"}]
    told = [e for e in r.of("shown") if e["t"] == 70.0]
    assert told and all(e.get("private") for e in told)
    assert not r.of("question") and not [e for e in r.of("said") if "Remis" in e["text"]]
    assert r.of("resumed") == [{"t": 86480.0, "type": "resumed", "uci": "b8c6"}]
    assert_secret(r, 86480.0, "b8c6", "Sc6", "Nc6", "Cäsar sechs", "Remis")
    assert r.final["scores"]["blind"] == ["e4", "e5", "Sf3", "Sc6", "Lb5"] and r.final["result"] is None

def test_a_draw_offered_after_the_sealing_stands_and_agreed_before_resumption_ends_the_game(capsys, tmp_path):
    journal = tmp_path / "game.jsonl"
    r = run("adjournment_draw_agreed_before_resumption.scn", capsys, "--journal", str(journal))
    assert [e["by"] for e in r.of("sealed")] == ["sighted"]
    # the offer made after the opponent sealed stands across the night and the restart (I.4) ...
    assert [e for e in r.of("shown") if e["t"] == 100.0 and "Remis" in e["text"]]
    # ... and its acceptance before resumption ends the game (I.6): no envelope opened, no move made
    assert r.of("ended")[0] == {**r.of("ended")[0], "result": "1/2-1/2"}
    assert r.final["result"] == "1/2-1/2" and r.final["plies"] == 3 and not r.of("resumed")
    assert_secret(r, float("inf"), "b8c6", "Sc6", "Nc6", "Cäsar sechs")
    assert "b8c6" not in journal_words(journal)


def test_a_lost_envelope_play_goes_on_from_the_adjourned_position_with_the_sealer_to_move(capsys, tmp_path):
    journal = tmp_path / "game.jsonl"
    r = run("adjournment_envelope_lost.scn", capsys, "--journal", str(journal))
    assert r.of("envelope-lost") == [{"t": 86480.0, "type": "envelope-lost", "sealer": "blind", "reason": "missing"}]
    assert not r.of("resumed") and r.final["result"] is None
    told = [e["text"] for e in r.of("said") if e["t"] == 86480.0]
    assert told and "Umschlag fehlt" in told[0] and "Bernd Blind" in told[0]
    # the sealer makes on the board the move he states he sealed; his clock ran from the resumption,
    # with the time he had when he sealed (Guidelines I.12): the night is no play time
    assert r.final["scores"]["blind"] == r.final["scores"]["sighted"] == ["e4", "e5", "Sf3", "Sc6", "Lb5", "a6"]
    white_before = r.of("clock", ply=4)[0]["white"]
    assert r.of("clock", ply=5)[0]["white"] == pytest.approx(white_before - (75.0 - 20.5) - (86492.0 - 86480.0) + 30,
                                                            abs=0.01)
    assert "f1b5" not in journal_words(journal, until="envelope-lost")


def test_an_envelope_that_does_not_match_its_sealing_is_not_opened(capsys, tmp_path):
    lines = (SCENARIOS / "adjournment_envelope_lost.scn").read_text(encoding="utf-8").splitlines()
    first = tmp_path / "first.scn"
    first.write_text("\n".join(line for line in lines if not line.startswith(("80.0", "81.0", "864", "865"))) + "\n",
                     encoding="utf-8")
    journal = tmp_path / "game.jsonl"
    assert main(["scenario", "run", str(first), "--journal", str(journal)]) == 0
    envelope = envelope_path(journal)
    kept = json.loads(envelope.read_text(encoding="utf-8"))
    kept["hidden"]["written"] = "Läufer Cäsar vier"          # someone changed the move after the sealing
    envelope.write_text(json.dumps(kept), encoding="utf-8")
    second = tmp_path / "second.scn"
    second.write_text("\n".join(line for line in lines if not line.startswith(("80.0", "81.0"))) + "\n",
                      encoding="utf-8")          # the whole script: the pegs stand as the hands left them
    capsys.readouterr()
    assert main(["scenario", "run", str(second), "--journal", str(journal), "--resume", "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert r.of("envelope-lost") == [{"t": 86480.0, "type": "envelope-lost", "sealer": "blind", "reason": "mismatch"}]
    assert not r.of("resumed") and r.final["scores"]["blind"][4] == "Lb5"


def test_a_player_who_never_comes_loses_by_the_arbiter_s_decision_and_the_envelope_stays_closed(capsys):
    r = run("adjournment_responder_never_comes.scn", capsys)
    assert r.of("ended") == [{"t": 90001.0, "type": "ended", "result": "1-0", "reason": "arbiter"}]
    told = [e["text"] for e in r.of("said") if e["t"] == 90001.0]
    assert told and "Weiß gewinnt" in told[0] and "Schiedsrichter" in told[0]
    assert [e["t"] for e in r.of("refused") if e["what"] == "result"] == [90010.0]     # over is over
    assert not r.of("resumed") and r.final["result"] == "1-0" and r.final["plies"] == 4
    assert_secret(r, float("inf"), "f1b5", "Lb5", "Bb5", "Bella fünf")
    # her clock ran from the start of the session until the decision, and stopped there
    black_before = r.of("clock", ply=4)[0]["black"]
    assert r.final["clocks"]["black"] == pytest.approx(black_before - (90001.0 - 86400.0), abs=0.01)


def test_the_envelope_of_a_scripted_adjournment_prints_every_item(capsys, tmp_path):
    script = tmp_path / "adjourned.scn"
    lines = (SCENARIOS / "adjournment_sealed_by_the_blind_player.scn").read_text(encoding="utf-8").splitlines()
    script.write_text("\n".join(line for line in lines if not line.startswith(("80.0", "864", "865"))) + "\n",
                      encoding="utf-8")
    journal = tmp_path / "game.jsonl"
    assert main(["scenario", "run", str(script), "--journal", str(journal)]) == 0
    capsys.readouterr()
    assert main(["envelope", "show", "--journal", str(journal), "--json"]) == 0
    envelope = json.loads(capsys.readouterr().out)
    assert envelope["white"] == "Bernd Blind" and envelope["black"] == "Sabine Sehend"            # (a)
    assert envelope["position"] == chess.Board(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").fen()                  # (b)
    assert envelope["white_used"] == pytest.approx(3.5 + 7.0 + 54.5, abs=0.01)                      # (c)
    assert envelope["sealer"] == "white" and envelope["move_number"] == 3                           # (d), (e)
    assert envelope["draw_offer"] is None                                                           # (f)
    assert "resumption" in envelope                                                                  # (g)
    assert "Lb5" not in json.dumps(envelope, ensure_ascii=False)
    pdf = tmp_path / "envelope.pdf"
    assert main(["envelope", "show", "--journal", str(journal), "--pdf", str(pdf)]) == 0
    capsys.readouterr()
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        assert "Bernd Blind" in text and "Sabine Sehend" in text and "3" in text


def test_a_sealed_move_that_is_ambiguous_is_written_again(capsys):
    r = run("sealed_move_ambiguous_then_rewritten.scn", capsys)
    assert [(e["t"], e["by"]) for e in r.of("sealed")] == [(45.0, "sighted")]
    why = [e for e in r.of("shown") if 40.0 <= e["t"] < 45.0]
    assert why and "mehrdeutig" in why[0]["text"] and "d2" not in why[0]["text"] and why[0]["private"]
    assert r.of("resumed")[0]["uci"] == "b1d2"
    assert r.final["scores"]["sighted"][4] == "Sbd2"


def test_a_sealed_move_that_stays_illegal_loses_at_resumption(capsys, tmp_path):
    script = tmp_path / "insists.scn"
    text = (SCENARIOS / "sealed_move_ambiguous_then_rewritten.scn").read_text(encoding="utf-8")
    script.write_text(text.replace("45.0 sighted seals Sbd2", "45.0 sighted seals Sd2"), encoding="utf-8")
    code = main(["scenario", "run", str(script), "--json"])
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert code == 0
    assert [e["t"] for e in r.of("sealed")] == [45.0]        # written again: sealed as written
    assert r.of("resumed")[0]["uci"] is None
    assert r.of("ended")[0] == {**r.of("ended")[0], "result": "0-1", "reason": "sealed_move"}   # Guidelines I.8 a


# ---------------------------------------------------------------- Appendices A and B
def test_unsupervised_rapid_a_flag_counts_only_when_claimed(capsys):
    r = run("unsupervised_rapid_flag_claimed.scn", capsys)
    moves = [e["uci"] for e in r.of("move")]
    assert moves == ["e2e4", "e7e5", "g1f3", "b8c6"]       # play went on after White's flag at 900.5 s
    assert not [e for e in r.of("ended") if e["t"] < 960.0]
    assert r.of("claim") == [{"t": 960.0, "type": "claim", "by": "sighted", "kind": "time", "upheld": True}]
    assert r.of("ended") == [{"t": 960.0, "type": "ended", "result": "0-1", "reason": "time_forfeit"}]
    assert r.final["result"] == "0-1"


def test_unsupervised_blitz_both_flags_are_a_draw(capsys):
    r = run("unsupervised_both_flags.scn", capsys)
    [ended] = r.of("ended")
    assert ended["result"] == "1/2-1/2" and ended["reason"] == "both_flags"
    assert ended["t"] == pytest.approx(698.5, abs=0.01)       # when Black's flag falls too
    assert r.of("refused", what="move")


def test_an_illegal_move_claimed_in_unsupervised_blitz_wins(capsys):
    r = run("unsupervised_blitz_illegal_move_claimed.scn", capsys)
    assert [e["uci"] for e in r.of("move")][-1] == "e8e6"     # made as it was played
    assert r.of("clock", ply=4)                                 # and completed by the press
    assert r.of("claim") == [{"t": 9.0, "type": "claim", "by": "blind", "kind": "illegal", "upheld": True}]
    assert r.of("ended") == [{"t": 9.0, "type": "ended", "result": "1-0", "reason": "illegal_move"}]


def test_the_same_illegal_move_under_supervision_is_refused_at_once(capsys):
    r = run("supervised_illegal_move_refused.scn", capsys)
    assert r.of("refused", what="move") and r.of("refused", what="move")[0]["t"] == 7.0
    assert "e8e6" not in [e["uci"] for e in r.of("move")]
    assert [e["uci"] for e in r.of("move")][-1] == "b8c6"
    assert not r.of("ended") and r.final["result"] is None


def test_an_illegal_move_claimed_in_unsupervised_rapid_restores_the_position(capsys, tmp_path):
    script = tmp_path / "rapid_illegal.scn"
    text = (SCENARIOS / "unsupervised_blitz_illegal_move_claimed.scn").read_text(encoding="utf-8")
    script.write_text(text.replace("@time 5+0", "@time 25+0").replace("@rules blitz unsupervised",
                                                                      "@rules rapid unsupervised")
                      + "12.0 sighted move b8c6\n12.5 clock press black\n", encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert r.of("claim")[0]["upheld"] is True and not r.of("ended")
    final = r.final
    assert final["plies"] == 4 and final["scores"]["sighted"][-1] == "Sc6"   # e8e6 taken back, Nc6 played
    # two minutes more for the claimant (Art. 7.5.5 as A.4.2 applies it)
    assert final["clocks"]["white"] > 25 * 60 + 100


def test_the_rule_set_is_shown_at_the_start(capsys):
    r = run("unsupervised_rapid_flag_claimed.scn", capsys)
    assert [e for e in r.of("shown", t=0.0) if "Schnellschach" in e["text"]]


# ---------------------------------------------------------------- D.2.10
def test_the_assistant_is_offered_his_duties(capsys):
    r = run("adjournment_sealed_by_the_blind_player.scn", capsys)
    shown = [e["text"] for e in r.of("shown") if e["text"].startswith("Anna Hilfe:")]
    assert any("Uhr" in t for t in shown), shown                 # (c) press the opponent's clock
    assert any("D.2.10 f" in t for t in shown), shown            # (f) the adjournment's formalities
    said = [e for e in r.of("said") if e["text"].startswith("Anna Hilfe")]
    assert not said, "offered to the assistant, never said to the blind player unasked (D.2.10 d)"


def test_the_pgn_of_an_adjourned_game_has_the_sealed_move_only_after_the_opening(capsys, tmp_path):
    journal = tmp_path / "game.jsonl"
    run("adjournment_sealed_by_the_blind_player.scn", capsys, "--journal", str(journal))
    target = tmp_path / "game.pgn"
    assert main(["export", str(journal), "--format", "pgn", "-o", str(target)]) == 0
    capsys.readouterr()
    game = chess.pgn.read_game(target.open(encoding="utf-8"))
    assert [m.uci() for m in game.mainline_moves()][4] == "f1b5"


# ---------------------------------------------------------------- Guidelines III: the quickplay finish
def test_a_quickplay_finish_claim_waits_for_the_arbiter_across_a_crash(capsys, tmp_path):
    r = run("quickplay_finish_claimed.scn", capsys, "--journal", str(tmp_path / "game.jsonl"))
    assert [(e["t"], e["kind"], e["upheld"]) for e in r.of("claim")] == [(910.0, "quickplay", False),
                                                                         (940.0, "quickplay", True)]
    waiting = [e for e in r.of("shown") if e["t"] == 905.0 and "Remisreklamation" in e["text"]]
    assert waiting, "after the restart the claim is told again: it still waits for the arbiter"
    # the clocks stood from the claim to the verdict; rejected, White got two minutes (Guidelines III.5)
    press = r.of("clock", ply=2)[0]
    assert press["black"] == pytest.approx(16 * 60 - (900.0 - 1.5) - (911.5 - 910.0), abs=0.01)
    assert press["white"] == pytest.approx(16 * 60 - 1.5 + 120, abs=0.01)
    assert r.of("ended") == [{"t": 940.0, "type": "ended", "result": "1/2-1/2", "reason": "quickplay"}]


@pytest.mark.parametrize(("time", "at", "problem"), [
    ("16+0", 100.0, "erst unter zwei Minuten"),     # too early: two minutes or more left
    ("16+10", 900.0, "Inkrement"),                  # with increment Guidelines III do not apply
    ("10+0", 500.0, "Blitz"),                       # nor in blitz
])
def test_a_quickplay_claim_that_cannot_be_filed_is_refused_and_the_clocks_run_on(capsys, tmp_path, time, at, problem):
    script = tmp_path / "claim.scn"
    text = (SCENARIOS / "quickplay_finish_claimed.scn").read_text(encoding="utf-8")
    head = text.split("900.0 sighted claims")[0].replace("@time 16+0", f"@time {time}")
    script.write_text(head + f"{at} sighted claims quickplay cannot_win\n{at + 1} sighted move e7e5\n"
                      f"{at + 1.5} clock press black\n", encoding="utf-8")
    assert main(["scenario", "run", str(script), "--json"]) == 0
    r = Report([json.loads(line) for line in capsys.readouterr().out.splitlines()])
    assert r.of("claim") == [{"t": at, "type": "claim", "by": "sighted", "kind": "quickplay", "upheld": False}]
    [refusal] = r.of("refused", what="claim")
    assert problem.lower() in refusal["text"].lower()
    assert r.of("clock", ply=2), "nothing stopped: Black moves and presses"


def test_the_next_step_says_who_seals_and_that_the_arbiter_decides():
    """The window's next-step line (and a screen reader's) while a move is sealed, while the envelope is
    closed, and while a quickplay claim waits for the arbiter."""
    from blindchess.table.table import Table, TableSetup

    table = Table.new(TableSetup(white="Bernd Blind", black="Sabine Sehend", blind="white", time_control="16+0",
                                 tactile="none"), 0.0)
    table.handle(BlindSays("Bauer Eva vier", None), 1.0)
    table.handle(ClockPress(chess.WHITE), 1.5)
    table.handle(SightedMove("e2e4"), 2.0)
    table.handle(ClaimsQuickplay("sighted", "cannot_win"), 900.0)
    assert "Schiedsrichter entscheidet über die Remisreklamation von Sabine Sehend" in table.next_step()
    table.handle(ArbiterQuickplay("postpone"), 901.0)
    assert "Sabine Sehend" in table.next_step() and "Remisreklamation" not in table.next_step()
    table.handle(ArbiterAdjourn(), 902.0)
    assert "Sabine Sehend schreibt den Abgabezug auf" in table.next_step()
    table.handle(SightedSays("e5"), 903.0)
    assert "Umschlag verschlossen" in table.next_step()
    table.handle(ArbiterResume(), 904.0)
    assert "Umschlag" not in table.next_step()
