"""The Laws at the table, played as whole scripts through ``blindchess scenario run``.

Each scenario in ``tests/scenarios/`` named below shows one rule of the FIDE Laws at
the edges of play: a D.2.9 ruling after later moves, a late mirror, claims and
automatic ends (Art. 9.2, 9.3, 9.5, 9.6), fallen flags (Art. 6.9), a draw offer
across a crash, the pegs after a retrace, a slow capture mirror (D.2.2), play
without an electronic tactile board, and refusals that are said at once or not at
all. The window runs the same scripts with the same events
(``tests/ui/test_ui_scenario.py``).
"""

from __future__ import annotations

import json

import pytest

from blindchess.cli import main
from blindchess.storage.journal import read_journal
from tests.support.scenario_report import run


# ---------------------------------------------------------------- D.2.9 after later moves
def test_correct_board_after_later_moves_keeps_every_agreed_move_tactile(capsys):
    r = run("ruling_keeps_agreed_moves_tactile.scn", capsys)
    assert r.of("divergence") and r.of("divergence")[0]["ply"] == 2      # the position after 1...c5 parts
    [ruling] = r.of("ruling")
    assert ruling == {**ruling, "kind": "correct-board", "plies": 4}
    clock_before = [e for e in r.of("clock") if e["t"] < ruling["t"]][-1]
    assert r.moves() == ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4"]
    final = r.final
    assert final["plies"] == 5 and final["boards"]["tactile"] == final["boards"]["sighted"] == final["game"]
    assert final["scores"]["blind"] == ["e4", "c5", "Sf3", "d6", "d4"] == final["scores"]["sighted"]
    # The clocks are untouched by the ruling: White's press at 37.5 charges his time since 20.5 only.
    press = r.of("clock", ply=5)[0]
    assert press["black"] == clock_before["black"]
    assert press["white"] == pytest.approx(clock_before["white"] - (37.5 - 20.5) + 30, abs=0.01)
    assert not r.of("refused", what="mirror") and not r.of("refused", what="press")


def test_correct_board_after_later_moves_keeps_every_agreed_move_sighted(capsys):
    r = run("ruling_keeps_agreed_moves_sighted.scn", capsys)
    [ruling] = r.of("ruling")
    assert ruling["kind"] == "correct-board" and ruling["plies"] == 6
    assert r.moves()[:7] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3"]
    final = r.final
    assert final["plies"] == 7 and final["boards"]["sighted"] == final["game"] == final["boards"]["tactile"]
    assert final["scores"]["blind"][-1] == "d3" and len(final["scores"]["sighted"]) == 7


# ---------------------------------------------------------------- a late mirror
def test_a_ruling_after_a_slip_made_good_leaves_no_board_behind(capsys):
    # The sighted board shows the game again after 2...a5, reached by a7-a5: the ruling corrects the
    # pegs only, and that board takes the game's moves too, so 3.e4 is a move like any other.
    r = run("ruling_after_a_slip_made_good.scn", capsys)
    assert [e["ply"] for e in r.of("divergence")] == [2]
    [ruling] = r.of("ruling")
    assert ruling == {**ruling, "kind": "correct-board", "plies": 4}
    assert r.moves() == ["h2h3", "a7a6", "b1c3", "a6a5", "e2e4"]
    assert not [e for e in r.of("refused") if e["t"] > ruling["t"]]
    final = r.final
    assert final["plies"] == 5 and final["boards"]["tactile"] == final["boards"]["sighted"] == final["game"]


def test_pegs_set_right_past_a_move_undo_nothing_of_the_game(capsys):
    # Setting two pegs right after a ruling passes a position that reads as a pawn move nobody made: nothing
    # is read into it (before: refused aloud as a mirror of a move not made, and the boards said to agree
    # before they did), and the pawn going back takes nothing back from the game.
    r = run("ruling_pegs_set_right_past_a_move.scn", capsys)
    [ruling] = r.of("ruling")
    assert ruling == {**ruling, "kind": "correct-board", "plies": 4}
    assert r.moves() == ["a2a3", "a7a6", "a1a2", "a6a5", "h2h3"]
    assert [e["ply"] for e in r.of("mirrored") if e["t"] > ruling["t"] and e.get("board") == "tactile"] == [5]
    assert not [e for e in r.of("refused") if e["t"] > ruling["t"]]
    agrees = [e for e in r.of("shown") if e["text"] == "Das Tastbrett stimmt wieder."]
    assert [e["t"] for e in agrees] == [33.9]          # the pawn back on a3 (33.4) and settled: not before
    assert [e for e in r.said("blind") if e["text"] == "Das Tastbrett stimmt wieder."]
    final = r.final
    assert final["plies"] == 5 and final["boards"]["tactile"] == final["boards"]["sighted"] == final["game"]


def test_a_late_mirror_makes_the_announced_move(capsys):
    r = run("late_mirror_then_own_move.scn", capsys)
    assert r.moves() == ["e2e4", "e7e5", "g1f3", "b8c6"]
    refused_presses = r.of("refused", what="press")
    assert [e["t"] for e in refused_presses] == [13.5]            # before the late mirror only
    nf3 = r.of("move", uci="g1f3")[0]
    assert 16.4 <= nf3["t"] <= 17.5
    assert not r.of("refused", what="mirror") and not r.of("refused", what="move")
    for e in r.of("shown") + r.said():
        if e["t"] >= 12.0:    # what is said of the pegs names the squares of the missing mirror and of Nf3
            assert "e2" not in e["text"] and "Eva zwei" not in e["text"], e
    assert r.final["plies"] == 4 and r.final["boards"]["tactile"] == r.final["game"]


# ---------------------------------------------------------------- refusals and answered questions
def test_a_stale_refusal_is_never_said_and_an_answered_question_stops(capsys):
    r = run("refusal_said_at_once_or_not_at_all.scn", capsys)
    [refusal] = r.of("refused", what="press")
    assert refusal["t"] == 3.5
    assert not [e for e in r.said() if e["text"].startswith("Weiß darf die Uhr")]
    [question] = r.of("question")
    asked = [e for e in r.said() if e["text"] == question["text"]]
    assert asked and asked[0]["cut"] is True
    confirmation = [e for e in r.of("speak") if e["text"].startswith("Zug ausgeführt")]
    assert confirmation and confirmation[0]["t"] == 4.0


# ---------------------------------------------------------------- claims (Art. 9.2, 9.3, 9.5)
def test_a_correct_threefold_claim_draws(capsys):
    r = run("claim_threefold.scn", capsys)
    assert r.of("claim") == [{"t": 26.0, "type": "claim", "by": "blind", "kind": "threefold", "upheld": True}]
    assert r.of("ended") == [{"t": 26.0, "type": "ended", "result": "1/2-1/2", "reason": "threefold_repetition"}]
    assert r.final["result"] == "1/2-1/2" and r.final["plies"] == 8
    assert r.of("refused", what="move")          # 30.0: the game is over
    ends = [e for e in r.of("said") if e["to"] == "all" and "Remis" in e["text"]]
    assert ends, "the end is said to both sides"


def test_an_incorrect_claim_adds_two_minutes_to_the_opponent(capsys):
    r = run("claim_threefold_wrong.scn", capsys)
    assert r.of("claim") == [{"t": 17.5, "type": "claim", "by": "sighted", "kind": "threefold", "upheld": False}]
    assert not r.of("ended") and r.final["result"] is None
    assert r.moves()[-1] == "g8f6"
    before = r.of("clock", ply=5)[0]
    after = r.of("clock", ply=6)[0]
    assert after["white"] == pytest.approx(before["white"] + 120, abs=0.01)


def test_remis_with_the_repeating_move_announced_is_a_claim(capsys):
    r = run("claim_by_announcing_the_move.scn", capsys)
    assert r.of("claim") == [{"t": 26.3, "type": "claim", "by": "blind", "kind": "threefold", "upheld": True}]
    assert r.of("ended")[0]["result"] == "1/2-1/2"
    assert not r.of("question"), "a correct claim is not asked about as a draw offer"
    assert r.final["result"] == "1/2-1/2"


def test_a_fifty_move_claim_draws(capsys):
    r = run("claim_fifty_moves.scn", capsys)
    assert r.of("claim") == [{"t": 10.0, "type": "claim", "by": "sighted", "kind": "fifty", "upheld": True}]
    assert r.of("ended") == [{"t": 10.0, "type": "ended", "result": "1/2-1/2", "reason": "fifty_moves"}]


# ---------------------------------------------------------------- claims said or typed
def test_a_threefold_claim_said_is_a_claim_not_a_draw_offer(capsys):
    r = run("claim_threefold_said.scn", capsys)
    assert r.of("claim") == [{"t": 26.0, "type": "claim", "by": "blind", "kind": "threefold", "upheld": True}]
    assert r.of("ended")[0]["reason"] == "threefold_repetition" and r.final["result"] == "1/2-1/2"
    assert not r.of("question"), "nobody is asked to accept a draw offer"


def test_an_illegal_move_claim_said_by_the_blind_player_wins_in_unsupervised_blitz(capsys):
    r = run("claim_illegal_said.scn", capsys)
    assert r.of("claim") == [{"t": 9.0, "type": "claim", "by": "blind", "kind": "illegal", "upheld": True}]
    assert r.final["result"] == "1-0"


def test_a_flag_claim_typed_by_the_sighted_player_wins_in_unsupervised_rapid(capsys):
    r = run("claim_time_typed_by_the_sighted_player.scn", capsys)
    assert r.of("claim") == [{"t": 960.0, "type": "claim", "by": "sighted", "kind": "time", "upheld": True}]
    assert r.final["result"] == "0-1"


#: The position after 1.Nf3 for the third time, Black (the sighted player) to move; then his claim in
#: each language's own words.
_THREEFOLD = """@white Bernd Blind
@black Sabine Sehend
@time 90+30
@tactile none
@lang {lang}
2.0  blind   says g1f3
2.5  clock   press white
3.0  sighted move g1f3
5.0  sighted move g8f6
5.5  clock   press black
8.0  blind   says f3g1
8.5  clock   press white
9.0  sighted move f3g1
11.0 sighted move f6g8
11.5 clock   press black
14.0 blind   says g1f3
14.5 clock   press white
15.0 sighted move g1f3
17.0 sighted move g8f6
17.5 clock   press black
20.0 blind   says f3g1
20.5 clock   press white
21.0 sighted move f3g1
23.0 sighted move f6g8
23.5 clock   press black
26.0 blind   says g1f3
26.5 clock   press white
27.0 sighted move g1f3
28.0 sighted says {words}
"""


@pytest.mark.parametrize(("lang", "words", "kind"), [
    ("de", "Remis durch Stellungswiederholung", "threefold"),
    ("en", "threefold repetition", "threefold"),
    ("nl", "remise door zetherhaling", "threefold"),
    ("ru", "троекратное повторение", "threefold"),
    ("de", "fünfzig Züge", "fifty"),
    ("en", "fifty move rule", "fifty"),
    ("nl", "vijftigzettenregel", "fifty"),
    ("ru", "правило пятидесяти ходов", "fifty"),
])
def test_a_claim_is_understood_in_every_language(capsys, tmp_path, lang, words, kind):
    """A claim typed on the sighted side in the language of the table: judged (Art. 9.2 upheld; Art. 9.3
    refused, no fifty moves were played), never taken for a draw offer or a request."""
    script = tmp_path / "claim.scn"
    script.write_text(_THREEFOLD.format(lang=lang, words=words), encoding="utf-8")
    code = main(["scenario", "run", str(script), "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    claims = [json.loads(line) for line in out.out.splitlines() if '"type": "claim"' in line]
    assert [(c["by"], c["kind"]) for c in claims] == [("sighted", kind)]
    assert claims[0]["upheld"] is (kind == "threefold")     # no fifty quiet moves were played

def test_fivefold_repetition_ends_the_game_by_itself(capsys):
    r = run("fivefold_ends_by_itself.scn", capsys)
    assert r.of("ended") == [{"t": 33.0, "type": "ended", "result": "1/2-1/2", "reason": "fivefold_repetition"}]
    assert not r.of("claim") and r.final["plies"] == 16
    assert r.final["result"] == "1/2-1/2"


def test_seventyfive_moves_end_the_game_by_itself(capsys):
    r = run("seventyfive_moves_end_by_itself.scn", capsys)
    assert r.of("ended") == [{"t": 3.0, "type": "ended", "result": "1/2-1/2", "reason": "seventyfive_moves"}]
    assert r.final["plies"] == 2


# ---------------------------------------------------------------- flags (Art. 6.9)
def test_a_fallen_flag_ends_the_game_at_once(capsys):
    r = run("flag_ends_the_game.scn", capsys)
    [ended] = r.of("ended")
    assert ended["result"] == "0-1" and ended["reason"] == "time_forfeit"
    assert ended["t"] == pytest.approx(63.0, abs=0.01)       # 60 s - 1.5 s used, running again from 4.5 s
    assert r.moves() == ["e2e4", "e7e5"]
    assert r.of("refused", what="press") and r.final["result"] == "0-1"
    assert r.final["clocks"]["white"] == 0.0
    assert [e for e in r.of("said") if e["to"] == "all" and "Schwarz gewinnt" in e["text"]]


def test_a_flag_against_a_bare_king_is_a_draw(capsys):
    r = run("flag_against_bare_king_is_a_draw.scn", capsys)
    [ended] = r.of("ended")
    assert ended["result"] == "1/2-1/2" and ended["reason"] == "time_no_mate"
    assert ended["t"] == pytest.approx(62.0, abs=0.01)       # Black: 60 s - 2.5 s, running again from 4.5 s
    assert not [e for e in r.of("said") if "reklamieren" in e["text"]]
    assert r.final["result"] == "1/2-1/2"


# ---------------------------------------------------------------- a draw offer across a crash
def test_a_draw_offer_is_told_again_after_a_crash(capsys):
    r = run("draw_offer_told_after_crash.scn", capsys)
    after = [e for e in r.said("blind") if e["t"] >= 7.5]
    assert any("Remis" in e["text"] for e in after if e["t"] < 12.0), after
    assert r.final["result"] == "1/2-1/2"
    assert r.of("ended")[0]["reason"] == "agreement"


# ---------------------------------------------------------------- the pegs after a retrace
def test_after_a_retrace_the_pegs_are_set_right_square_by_square(capsys):
    r = run("retrace_sets_pegs_right.scn", capsys)
    [ruling] = r.of("ruling")
    assert ruling == {**ruling, "kind": "retrace", "plies": 2}
    told = [e["text"] for e in r.said("blind") if 30.0 <= e["t"] < 40.0]
    assert any("Felix drei" in t and "Gustav eins" in t for t in told), told
    assert not [e for e in r.of("shown") if 30.0 <= e["t"] < 40.0 and "dieselbe Stellung" in e["text"]]
    assert r.of("touched", square="b1", by="blind"), "his lift in his own move after the set-right counts (D.2.2)"
    assert r.moves()[-1] == "b1c3" and r.final["plies"] == 3
    assert r.final["scores"]["blind"] == ["e4", "e5", "Sc3"] == r.final["scores"]["sighted"]


def test_pegs_set_right_in_any_order_read_as_no_move_and_agree_again(capsys, tmp_path):
    # Issue 29, 5: the black knight set back first leaves the pegs showing 2.Nf3 — before, that was read as
    # his move (placed, then taken back) and "agrees again" was shown while the pegs were still wrong
    journal = tmp_path / "game.jsonl"
    r = run("pegs_set_right_in_any_order.scn", capsys, "--journal", str(journal))
    [ruling] = r.of("ruling")
    assert ruling == {**ruling, "kind": "retrace", "plies": 2}
    told = [e["text"] for e in r.said("blind") if 30.0 <= e["t"] < 40.0]
    assert any("Cäsar sechs leer" in t and "Gustav eins" in t for t in told), told
    between = [e for e in r.events if 40.0 <= e["t"] < 42.4 and e["type"] in ("shown", "said", "refused", "move",
                                                                            "touched")]
    assert between == [], between
    agrees = [e for e in r.said("blind") if e["text"] == "Das Tastbrett stimmt wieder."]
    assert agrees and agrees[0]["t"] >= 42.4
    assert r.of("touched", square="b1", by="blind"), "his lift in his own move after the set-right counts (D.2.2)"
    assert r.moves()[-1] == "b1c3" and r.final["scores"]["blind"] == ["e4", "e5", "Sc3"]
    placed = [ev for ev in read_journal(journal).events if ev.get("type") == "board-move" and ev["t"] > 30.0]
    assert [ev["uci"] for ev in placed] == ["b1c3"], "no move placed on the pegs while they were set right"


# ---------------------------------------------------------------- D.2.2 while mirroring a capture
def test_a_paused_capture_mirror_is_no_touch(capsys):
    r = run("capture_mirror_lift_pause_no_touch.scn", capsys)
    assert not [e for e in r.of("touched") if 23.0 <= e["t"] < 28.0]
    assert r.of("touched", square="f3", by="blind")
    assert r.moves()[-1] == "f3g5"


# ---------------------------------------------------------------- no electronic tactile board
def test_without_a_tactile_board_the_announcement_makes_the_move(capsys):
    r = run("no_tactile_board_announcement_moves.scn", capsys)
    assert r.moves() == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]
    assert not r.of("refused")
    assert r.final["boards"]["tactile"] == r.final["game"] == r.final["boards"]["sighted"]


# ---------------------------------------------------------------- the app's own clock mode
def test_the_apps_clock_mode_presses_as_soon_as_a_move_is_made(capsys):
    r = run("app_presses_the_clock.scn", capsys)
    moves = {e["ply"]: e["t"] for e in r.of("move")}
    presses = {e["ply"]: e["t"] for e in r.of("clock")}
    assert presses == moves == {1: 3.0, 2: 8.0, 3: 15.0}
    # no D.2.8 window left: the correction is refused and the blind player hears why
    [refusal] = r.of("refused", what="correction")
    assert refusal["t"] == 15.5 and [e for e in r.said() if e["text"] == refusal["text"].split(" (")[0] + "."
                                     or e["text"].startswith("Korrektur nicht mehr möglich")]
    assert r.final["scores"]["blind"][2] == "Sf3"


def test_a_promotion_announced_before_a_crash_is_completed_by_the_pegs_after_it(capsys):
    """The pegs cannot tell the promoted piece; the announcement made before the crash does (D.2.3)."""
    r = run("crash_promotion_announced.scn", capsys)
    assert r.moves() == ["a7a8q"]
    final = r.final
    assert final["boards"]["tactile"] == final["boards"]["sighted"] == final["game"] and final["plies"] == 1
