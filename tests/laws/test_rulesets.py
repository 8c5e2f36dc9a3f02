"""Standard / rapid / blitz (FIDE Laws, Appendices A and B): the choice from the time control and every difference."""

from __future__ import annotations

import chess
import pytest

from blindchess.laws import rulesets as rs

KK_N = "8/8/8/4k3/8/8/8/4K1N1 w - - 0 1"     # White: king + knight (cannot mate), Black: bare king
KQ_K = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1"      # White: king + queen


@pytest.mark.parametrize("tc,kind", [
    # the edition of the project's FIDE texts: blitz under 15 minutes, rapid 15 to under 60 (A, B)
    ((600, 0), "blitz"),            # 10 minutes
    ((180, 2), "blitz"),            # 3 + 2: 3 + 60 × 2 s = 5 minutes
    ((300, 5), "blitz"),            # 5 + 5 = 10 minutes
    ((601, 0), "blitz"),
    ((600, 4), "blitz"),            # 10 + 4 minutes
    ((899, 0), "blitz"),
    ((900, 0), "rapid"),            # exactly 15 minutes: rapid ("15 but less than 60")
    ((600, 5), "rapid"),            # 10 + 5 minutes = 15
    ((900, 10), "rapid"),           # 15 + 10: 25 minutes
    ((3599, 0), "rapid"),
    ((3600, 0), "standard"),        # 60 minutes is no longer rapid ("less than 60")
    ((1800, 30), "standard"),       # 30 + 30 s: 60 minutes
    ((5400, 30), "standard"),
])
def test_classification_from_base_plus_60_increments(tc, kind):
    assert rs.classify(tc) == kind
    assert rs.for_time_control(tc).kind == kind


def test_session_time_controls_and_text_are_accepted():
    clock = pytest.importorskip("blindchess.laws.clock")
    assert rs.for_time_control(clock.TimeControl.parse("5+3")).kind == "blitz"
    assert rs.for_time_control(clock.TimeControl.parse("40/5400+30:1800+30")).kind == "standard"
    assert rs.for_time_control("25").kind == "rapid"
    assert rs.for_time_control(None).kind == "standard"


def test_thresholds_are_configurable():
    local = rs.Thresholds(rapid_min=20 * 60, standard_min=90 * 60)
    assert rs.classify((900, 0), local) == "blitz"
    assert rs.classify((3600, 0), local) == "rapid"
    assert rs.classify((5400, 0), local) == "standard"
    with pytest.raises(ValueError):
        rs.Thresholds(rapid_min=3600, standard_min=600)


def test_recording_and_procedures_differ():
    standard, rapid, blitz = (rs.for_time_control(t) for t in ((5400, 30), (900, 10), (180, 2)))
    assert standard.recording_required and not rapid.recording_required and not blitz.recording_required
    assert standard.setup_claims_until_moves is None and rapid.setup_claims_until_moves == 3
    assert rapid.touch_move_only_on_request and not standard.touch_move_only_on_request
    supervised = rs.for_time_control((900, 10), supervised=True)
    assert supervised.arbiter_calls_flag and not supervised.touch_move_only_on_request
    assert "Art. 8.1" in standard.describe("de") and "Anhang A" in rapid.describe("de")
    assert "Appendix B" in blitz.describe("en")


# -- illegal moves ------------------------------------------------------------------

def test_standard_illegal_move_first_gives_two_minutes_second_loses():
    rules = rs.for_time_control((5400, 30))
    board = chess.Board()
    first = rs.illegal_move(rules, board, chess.WHITE, claimed=False)
    assert first.restore_position and first.add_seconds == {chess.BLACK: 120.0} and first.result is None
    # the arbiter acts even after the opponent has moved (Art. 7.5.1)
    assert rs.illegal_move(rules, board, chess.WHITE, claimant_has_moved=True).restore_position
    second = rs.illegal_move(rules, board, chess.WHITE, previous_illegal=1)
    assert second.result == "0-1" and "7.5.5" in second.message("de")
    # ... unless the opponent cannot mate: a draw
    assert rs.illegal_move(rules, chess.Board(KK_N), chess.BLACK, previous_illegal=1).result == "1/2-1/2"


def test_rapid_illegal_move_counts_only_when_claimed_before_own_move():
    rules = rs.for_time_control((900, 10))
    board = chess.Board()
    claimed = rs.illegal_move(rules, board, chess.BLACK)
    assert claimed.restore_position and claimed.add_seconds == {chess.WHITE: 120.0}
    late = rs.illegal_move(rules, board, chess.BLACK, claimant_has_moved=True)
    assert late.move_stands and not late.restore_position and late.result is None
    unclaimed = rs.illegal_move(rules, board, chess.BLACK, claimed=False)
    assert unclaimed.move_stands
    assert rs.illegal_move(rules, board, chess.BLACK, previous_illegal=1).result == "1-0"


def test_blitz_illegal_move_claim_wins_or_draws():
    rules = rs.for_time_control((300, 0))
    win = rs.illegal_move(rules, chess.Board(KQ_K), chess.BLACK)
    assert win.result == "1-0" and "Anhang B" in win.message("de")
    # the claimant (White) has only king and knight: he cannot mate -> draw
    draw = rs.illegal_move(rules, chess.Board(KK_N), chess.BLACK)
    assert draw.result == "1/2-1/2"
    # once the claimant has moved, the illegal move stands
    assert rs.illegal_move(rules, chess.Board(KQ_K), chess.BLACK, claimant_has_moved=True).move_stands


# -- flags ---------------------------------------------------------------------------

def test_flag_fall_standard_called_by_arbiter():
    rules = rs.for_time_control((5400, 30))
    assert rs.flag_fall(rules, chess.Board(), chess.WHITE).result == "0-1"
    assert rs.flag_fall(rules, chess.Board(KQ_K), chess.BLACK).result == "1-0"


def test_flag_fall_draw_when_opponent_cannot_mate():
    rules = rs.for_time_control((5400, 30))
    decision = rs.flag_fall(rules, chess.Board(KK_N), chess.BLACK)  # White has K+N only
    assert decision.result == "1/2-1/2" and "6.9" in decision.message("en")


def test_flag_fall_rapid_and_blitz_only_when_validly_pointed_out():
    for tc in ((900, 10), (180, 2)):
        rules = rs.for_time_control(tc)
        assert rs.flag_fall(rules, chess.Board(), chess.WHITE).result is None
        assert rs.flag_fall(rules, chess.Board(), chess.WHITE, pointed_out=True, clocks_stopped=False).result is None
        assert rs.flag_fall(rules, chess.Board(), chess.WHITE, pointed_out=True).result == "0-1"


def test_both_flags():
    for tc in ((900, 10), (180, 2)):
        assert rs.both_flags_fallen(rs.for_time_control(tc), chess.Board(), first=chess.WHITE).result == "1/2-1/2"
    standard = rs.for_time_control((5400, 30))
    assert rs.both_flags_fallen(standard, chess.Board(), first=chess.WHITE).result == "0-1"
    assert rs.both_flags_fallen(standard, chess.Board()).result == "1/2-1/2"
    assert rs.both_flags_fallen(standard, chess.Board(), last_period=False).result is None


# -- quickplay finish ----------------------------------------------------------------

def test_quickplay_claim_conditions():
    rules = rs.for_time_control((1800, 0))  # rapid without increment
    board = chess.Board(KQ_K)
    fen = board.fen()
    ok = rs.quickplay_claim(rules, board, chess.WHITE, 90, "cannot_win", fen)
    assert ok.valid and "Schiedsrichter entscheidet" in ok.message("de")
    assert rs.quickplay_claim(rules, board, chess.WHITE, 120, "cannot_win", fen).problems == ("quickplay_too_early",)
    assert rs.quickplay_claim(rules, board, chess.WHITE, 0, "cannot_win", fen).problems == ("quickplay_flag_fallen",)
    assert rs.quickplay_claim(rules, board, chess.BLACK, 90, "cannot_win", fen).problems == ("quickplay_not_to_move",)
    assert rs.quickplay_claim(rules, board, chess.WHITE, 90, "cannot_win", None).problems == ("quickplay_no_position",)
    assert rs.quickplay_claim(rules, board, chess.WHITE, 90, "cannot_win", "garbage").problems == ("quickplay_bad_position",)
    other = chess.Board(KK_N).fen()
    assert rs.quickplay_claim(rules, board, chess.WHITE, 90, "cannot_win", other).problems == ("quickplay_wrong_position",)
    # second ground: the scoresheet must be handed in
    assert rs.quickplay_claim(rules, board, chess.WHITE, 90, "no_effort", fen).problems == ("quickplay_no_scoresheet",)
    assert rs.quickplay_claim(rules, board, chess.WHITE, 90, "no_effort", fen, ["e4", "e5"]).valid
    # not with increment, not in blitz
    for tc in ((1800, 10), (300, 0)):
        claim = rs.quickplay_claim(rs.for_time_control(tc), board, chess.WHITE, 90, "cannot_win", fen)
        assert claim.problems == ("quickplay_not_here",) and "Guidelines III" in claim.message("en")


def test_quickplay_arbiter_decides():
    rules = rs.for_time_control((5400, 0))
    board = chess.Board(KQ_K)
    claim = rs.quickplay_claim(rules, board, chess.WHITE, 30, "cannot_win", board.fen())
    assert rs.decide_quickplay(claim, "draw").result == "1/2-1/2"
    rejected = rs.decide_quickplay(claim, "reject")
    assert rejected.result is None and rejected.add_seconds == {chess.BLACK: 120.0}
    assert rs.decide_quickplay(claim, "postpone").result is None
    bad = rs.quickplay_claim(rules, board, chess.WHITE, 300, "cannot_win", board.fen())
    with pytest.raises(ValueError):
        rs.decide_quickplay(bad, "draw")


def test_tournament_core_stays_pure():
    """envelope, rulesets, chess960, talking_clock, assistant import no Qt/audio/serial (ARCHITECTURE)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import blindchess.laws.adjournment, blindchess.laws.rulesets, blindchess.laws.chess960, blindchess.table.clock\n"
        "import blindchess.table.assistant\n"
        "print(','.join(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyttsx3', 'vosk', 'serial')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_tournament_messages_exist_in_every_language():
    import tomllib

    from blindchess.base.resources import locale_dir

    keys = [set(tomllib.loads((locale_dir() / f"tournament.{lang}.toml").read_text("utf-8")))
            for lang in ("de", "en", "nl", "ru")]
    assert all(k == keys[0] for k in keys) and {"ruleset_rapid", "illegal_blitz_win", "quickplay_draw"} <= keys[0]


def test_a_one_minute_game_says_minute_not_minutes():
    # "= 1 Minuten"
    bullet = rs.for_time_control((60, 0))
    assert "= 1 Minute," in bullet.describe("de") and "= 1 minute," in bullet.describe("en")
    assert "= 5 Minuten," in rs.for_time_control((180, 2)).describe("de")
