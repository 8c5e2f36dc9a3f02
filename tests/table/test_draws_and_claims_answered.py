"""Draw offers and claims as the players hear them: the blind player's "no" declines the offer made to him
(Art. 9.1.2), an offer standing across a crash is put to him again — never his own —, "Remis" said where a
draw can be claimed is the claim and nothing more (Art. 9.2), a claim goes to the one who made it (the
assistant's for the blind player, D.2.10 e; Art. 9.5.3's two minutes to his opponent), the texts of a rejected
claim in blitz without supervision (Appendix B), and what is refused once the game is over or without a clock
(Guidelines III)."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.base import tr
from blindchess.storage import read_journal
from blindchess.table.commands import (
    AgreesCorrection,
    Answers,
    BlindSays,
    Claims,
    ClaimsQuickplay,
    ClockPress,
    Finish,
    OffersDraw,
    Resigns,
    SightedMove,
    SightedSays,
    Tick,
)
from blindchess.table.events import Asked, ClaimDecided, Refused, Said, Shown
from tests.support.table import Run


def _said_or_shown(run: Run, t: float) -> list[str]:
    return [e.text for e in run.events if isinstance(e, (Said, Shown)) and e.t >= t]


# ---------------------------------------------------------------- offers
def test_the_blind_player_answering_no_declines_the_offer_and_the_game_goes_on() -> None:
    run = Run(blind="white", tactile="none", white="Bernd", black="Sabine")
    run.handle(BlindSays("Bauer Eva vier"), 1.0)
    run.handle(SightedMove("e2e4"), 2.0)
    run.handle(OffersDraw("sighted"), 3.0)
    assert [(a.to, a.text) for a in run.of(Asked)] == [
        ("blind", f"{tr('table.draw_offered_to_blind', 'de')} {tr('table.ask_draw_accept', 'de')}")]
    run.handle(Answers("blind", "no"), 4.0)
    run.handle(Finish(), 5.0)
    assert run.table.game.result is None and run.table.game.draw_offer is None
    assert run.table.question is None
    assert tr("table.draw_declined", "de") in _said_or_shown(run, 4.0)
    assert tr("table.cancelled", "de") not in _said_or_shown(run, 4.0)


def test_an_offer_to_the_blind_player_standing_across_a_crash_is_put_to_him_again(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.journal", blind="white", tactile="none", white="Bernd", black="Sabine",
              time_control="90+30")
    for t, command in ((1.0, BlindSays("Bauer Eva vier")), (1.5, ClockPress(chess.WHITE)), (2.0, SightedMove("e2e4")),
                       (3.0, SightedMove("e7e5")), (3.2, OffersDraw("sighted")), (3.5, ClockPress(chess.BLACK)),
                       (5.0, BlindSays("Springer Felix drei"))):
        run.handle(command, t)
    # his move said closes the question; the offer stands until he presses (Art. 9.1.2)
    assert run.table.question is None and run.table.game.draw_offer == chess.BLACK
    run.crash_and_resume(10.0)
    assert [(a.t, a.to, a.text) for a in run.of(Asked)][1:] == [
        (10.0, "blind", f"{tr('table.draw_offered_to_blind', 'de')} {tr('table.ask_draw_accept', 'de')}")]
    assert tr("table.draw_offered", "de", name="Sabine") in _said_or_shown(run, 10.0)
    run.handle(Answers("blind", 1), 11.0)     # the first candidate: yes
    run.handle(Tick(), 12.0)
    assert run.table.game.result == "1/2-1/2"


def test_the_blind_player_s_own_offer_across_a_crash_is_shown_and_not_put_to_him(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.journal", blind="white", tactile="none", white="Bernd", black="Sabine")
    run.handle(BlindSays("Bauer Eva vier"), 1.0)
    run.handle(OffersDraw("blind"), 1.5)
    run.crash_and_resume(10.0)
    assert not run.of(Asked)
    assert tr("table.draw_offered", "de", name="Bernd") in [e.text for e in run.of(Shown) if e.t == 10.0]


# ---------------------------------------------------------------- "Remis" where a claim holds
KNIGHTS = (("Springer Felix drei", "g1f3", "g8f6"), ("Springer Gustav eins", "f3g1", "f6g8"))


def test_remis_said_where_threefold_repetition_holds_is_the_claim_and_no_offer() -> None:
    run = Run(blind="white", tactile="none", white="Bernd", black="Sabine")
    t = 1.0
    for _ in range(2):
        for said, mirror, reply in KNIGHTS:
            run.handle(BlindSays(said), t)
            run.handle(SightedMove(mirror), t + 0.5)
            run.handle(SightedMove(reply), t + 1.0)
            t += 2.0
    run.handle(BlindSays("Remis"), t)           # the start position for the third time, he to move
    run.handle(Finish(), t + 1.0)
    assert [(c.by, c.kind, c.upheld) for c in run.of(ClaimDecided)] == [("blind", "threefold", True)]
    assert run.table.game.result == "1/2-1/2"
    assert not run.of(Refused) and run.table.game.draw_offer is None
    run.handle(SightedSays("Remis"), t + 5.0)   # over: an offer now, refused as one
    assert [(r.what, r.text) for r in run.of(Refused)] == [("draw", tr("table.game_over", "de"))]


# ---------------------------------------------------------------- whose claim
def _journal_claims(path: Path) -> list[tuple[str, str]]:
    return [(e["color"], e["kind"]) for e in read_journal(path).events if e.get("type") == "claim"]


def test_the_sighted_player_s_time_claim_is_his_own_while_his_flag_is_up(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.journal", blind="white", tactile="none", time_control="10+0",
              rules="rapid", supervised=False)
    run.handle(BlindSays("Bauer Eva vier"), 1.0)
    run.handle(ClockPress(chess.WHITE), 1.5)
    run.handle(Claims("sighted", "time"), 5.0)     # nobody's flag is down: Black's claim, rejected
    assert [(c.by, c.kind, c.upheld) for c in run.of(ClaimDecided)] == [("sighted", "time", False)]
    assert _journal_claims(tmp_path / "game.journal") == [("black", "time")]


def test_a_wrong_draw_claim_by_the_sighted_player_with_his_flag_down_gives_the_blind_player_two_minutes(
        tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.journal", blind="white", tactile="none", time_control="10+0",
              rules="rapid", supervised=False)
    run.handle(BlindSays("Bauer Eva vier"), 1.0)
    run.handle(ClockPress(chess.WHITE), 1.5)
    run.handle(SightedMove("e2e4"), 2.0)
    run.handle(Tick(), 700.0)                       # Black's flag is down; unclaimed, play goes on (A.4.4)
    assert run.table.game.result is None
    white = run.table.session.clock.remaining(chess.WHITE, 700.0)
    run.handle(Claims("sighted", "threefold"), 700.0)
    assert _journal_claims(tmp_path / "game.journal") == [("black", "threefold")]
    assert run.table.session.clock.remaining(chess.WHITE, 700.0) == white + 120.0      # Art. 9.5.3
    assert run.table.session.clock.remaining(chess.BLACK, 700.0) <= 0.0


# ---------------------------------------------------------------- blitz without supervision (Appendix B)
def _blitz_illegal_move(tmp_path: Path) -> Run:
    """1.e4 e5 2.Nf3 Ke6?? (illegal, made as played)."""
    run = Run(journal=tmp_path / "game.journal", blind="white", tactile="none", white="Bernd", black="Sabine",
              time_control="5+0", rules="blitz", supervised=False)
    for t, command in ((1.0, BlindSays("Bauer Eva vier")), (1.5, ClockPress(chess.WHITE)), (2.0, SightedMove("e2e4")),
                       (3.0, SightedMove("e7e5")), (3.5, ClockPress(chess.BLACK)),
                       (5.0, BlindSays("Springer Felix drei")), (5.5, ClockPress(chess.WHITE)),
                       (6.0, SightedMove("g1f3")), (7.0, SightedMove("e8e6")), (7.5, ClockPress(chess.BLACK))):
        run.handle(command, t)
    assert run.table.game.illegal_plies and run.table.game.plies == 4
    return run


def test_the_offender_claiming_his_own_illegal_move_is_told_the_move_was_legal_for_him(tmp_path: Path) -> None:
    run = _blitz_illegal_move(tmp_path)
    run.handle(Claims("sighted", "illegal"), 8.0)
    assert [(c.by, c.upheld) for c in run.of(ClaimDecided)] == [("sighted", False)]
    assert tr("table.claim_rejected_illegal", "de") in _said_or_shown(run, 8.0)
    assert tr("table.claim_rejected_illegal_stands", "de") not in _said_or_shown(run, 8.0)


def test_a_wrong_repetition_claim_after_an_illegal_move_says_the_repetition_rejected(tmp_path: Path) -> None:
    run = _blitz_illegal_move(tmp_path)
    run.handle(Claims("blind", "threefold"), 8.0)
    assert [(c.by, c.kind, c.upheld) for c in run.of(ClaimDecided)] == [("blind", "threefold", False)]
    assert tr("table.claim_rejected_threefold", "de") in _said_or_shown(run, 8.0)
    assert tr("table.claim_rejected_illegal_stands", "de") not in _said_or_shown(run, 8.0)


def test_no_correction_is_agreed_once_the_game_is_over(tmp_path: Path) -> None:
    run = _blitz_illegal_move(tmp_path)
    run.handle(BlindSays("Springer Cäsar drei"), 9.0)     # he moves: the illegal move stands
    run.handle(ClockPress(chess.WHITE), 9.5)
    run.handle(SightedMove("b1c3"), 10.0)
    run.handle(Resigns("sighted"), 11.0)
    run.handle(Answers("sighted", "yes"), 12.0)
    assert run.table.game.result == "1-0"
    run.handle(AgreesCorrection("blind"), 13.0)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("correction", tr("table.no_illegal_to_correct", "de"))]
    assert run.table.game.result == "1-0" and run.table.game.plies == 5


# ---------------------------------------------------------------- the quickplay finish (Guidelines III)
def test_a_quickplay_finish_claim_is_refused_without_a_clock_after_the_end_and_for_nobody() -> None:
    run = Run(blind="white", tactile="none")
    run.handle(ClaimsQuickplay("blind", "cannot_win"), 1.0)
    refusals = [(r.what, r.text) for r in run.of(Refused)]
    run = Run(blind="none", tactile="none", time_control="90+0")
    run.handle(ClaimsQuickplay("blind", "cannot_win"), 1.0)
    refusals += [(r.what, r.text) for r in run.of(Refused)]
    run = Run(blind="white", tactile="none", time_control="90+0")
    run.handle(Resigns("sighted"), 1.0)
    run.handle(Answers("sighted", "yes"), 2.0)
    run.handle(ClaimsQuickplay("blind", "cannot_win"), 3.0)
    refusals += [(r.what, r.text) for r in run.of(Refused)]
    assert refusals == [("claim", tr("table.no_clock", "de")), ("claim", tr("table.no_blind_player", "de")),
                        ("claim", tr("table.game_over", "de"))]
