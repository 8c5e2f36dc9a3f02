"""The never-guess dialogue, with the real move language (blindchess.language.phonetic) and real positions."""

from __future__ import annotations

import chess
import pytest

phonetic = pytest.importorskip("blindchess.language.phonetic")

from blindchess.language.dialogue import Dialogue, Hypothesis, hypotheses_from_result  # noqa: E402

START = chess.Board()
#: White knights on e1 and g1: "Springer Felix drei" fits both (Ne1-f3, Ng1-f3).
TWO_KNIGHTS = chess.Board("4k3/8/8/8/8/8/8/4NKN1 w - - 0 1")


def test_a_clear_move_is_played():
    d = Dialogue("de")
    decision = d.hear(START, ["springer felix drei"], confidence=0.95)
    assert decision.action == "play" and decision.move == chess.Move.from_uci("g1f3")
    assert not d.asking


def test_two_fitting_moves_lead_to_a_question_answered_by_voice():
    d = Dialogue("de")
    decision = d.hear(TWO_KNIGHTS, ["springer felix drei"])
    assert decision.action == "ask" and decision.move is None
    assert set(decision.candidates) == {chess.Move.from_uci("e1f3"), chess.Move.from_uci("g1f3")}
    assert decision.speech.startswith("Meinten Sie Springer") and " oder " in decision.speech
    # while asking, the recogniser listens for the answers: yes/no/repeat and the two moves
    expected = d.expected_phrases(TWO_KNIGHTS)
    assert "ja" in expected and "nein" in expected and "[unk]" in expected
    forms = [p for p in expected if phonetic.understand(TWO_KNIGHTS, p, "de").move in decision.candidates]
    assert len({phonetic.understand(TWO_KNIGHTS, p, "de").move for p in forms}) == 2
    # "ja" does not pick one of two
    assert d.hear(TWO_KNIGHTS, ["ja"]).action == "ask"
    # naming one of the options plays it
    answer = d.hear(TWO_KNIGHTS, ["springer gustav eins felix drei"])
    assert answer.action == "play" and answer.move == chess.Move.from_uci("g1f3")
    assert not d.asking and d.expected_phrases(TWO_KNIGHTS) == phonetic.grammar(TWO_KNIGHTS, "de")


def test_close_alternatives_naming_different_moves_are_asked_about():
    d = Dialogue("de")
    decision = d.hear(START, [Hypothesis("springer felix drei", 210.0), Hypothesis("springer hector drei", 208.5)])
    assert decision.action == "ask"
    assert decision.speech == "Meinten Sie Springer Felix drei oder Springer Hector drei?"
    assert decision.candidates == [chess.Move.from_uci("g1f3"), chess.Move.from_uci("g1h3")]
    # a distant alternative does not cause a question
    d2 = Dialogue("de", score_margin=5.0)
    assert d2.hear(START, [Hypothesis("springer felix drei", 230.0),
                           Hypothesis("springer hector drei", 200.0)]).action == "play"


def test_low_word_confidence_asks_for_confirmation_yes_plays_no_cancels():
    d = Dialogue("de", min_confidence=0.6)
    decision = d.hear(START, ["eva vier"], confidence=0.41)
    assert decision.action == "ask" and decision.candidates == [chess.Move.from_uci("e2e4")]
    assert decision.speech == "Meinten Sie Eva vier?"
    assert d.hear(START, ["ja"]).move == chess.Move.from_uci("e2e4")
    d.hear(START, ["eva vier"], confidence=0.41)
    no = d.hear(START, ["nein"])
    assert no.action == "say" and no.move is None and not d.asking


def test_keys_answer_the_question():
    d = Dialogue("de")
    asked = d.hear(TWO_KNIGHTS, ["springer felix drei"])
    assert d.key("3").action == "ask" and "Taste" in d.key("x").speech
    played = d.key("2")
    assert played.action == "play" and played.move == asked.candidates[1]
    d.hear(TWO_KNIGHTS, ["springer felix drei"])
    assert d.key("Escape").action == "say" and not d.asking
    assert d.key("1").action == "ignore"


def test_nothing_is_played_on_a_guess():
    d = Dialogue("de")
    assert d.hear(START, ["bla bla"]).action == "say"
    assert d.hear(START, []).action == "ignore" and d.hear(START, ["[unk]"]).action == "ignore"
    # the best hypothesis is not understood, an alternative is a move: ask, do not play
    decision = d.hear(START, [Hypothesis("bla", 100.0), Hypothesis("eva vier", 99.0)])
    assert decision.action == "ask" and decision.move is None
    # an illegal move is explained, not played
    illegal = d.hear(START, ["dame hector fünf"])
    assert illegal.action in ("say", "ask") and illegal.move is None


def test_commands_go_to_the_session():
    d = Dialogue("de")
    decision = d.hear(START, ["wiederholen"])
    assert decision.action == "command" and decision.understanding.kind == "repeat"


def test_english_dialogue():
    d = Dialogue("en")
    decision = d.hear(START, [Hypothesis("knight felix three", 10.0), Hypothesis("knight hector three", 9.0)])
    assert decision.action == "ask" and decision.speech.startswith("Did you mean") and " or " in decision.speech


def test_hypotheses_from_a_vosk_result():
    result = {"text": "eva vier", "alternatives": [{"text": "eva vier", "confidence": 120.5},
                                                   {"text": "eva fünf", "confidence": 119.0}]}
    hyps = hypotheses_from_result(result)
    assert hyps == [Hypothesis("eva vier", 120.5), Hypothesis("eva fünf", 119.0)]
    assert hypotheses_from_result({"text": "ja", "alternatives": []}) == [Hypothesis("ja")]


class GrammarRecorder:
    """Stands in for vosk's recogniser (its model cannot be downloaded here): records the grammars set."""

    def __init__(self):
        self.grammars = []

    def update_grammar(self, phrases):
        from blindchess.adapters.speech.asr import normalise_phrases

        phrases = normalise_phrases(phrases)
        if self.grammars and self.grammars[-1] == phrases:
            return False
        self.grammars.append(phrases)
        return True


def test_grammar_follows_moves_and_questions():
    from blindchess.adapters.speech.voice_input import VoiceInput

    rec = GrammarRecorder()
    voice = VoiceInput(rec, Dialogue("de"), TWO_KNIGHTS)
    assert "springer gustav eins felix drei" in rec.grammars[-1] and len(rec.grammars) == 1
    asked = voice.heard({"text": "springer felix drei", "alternatives": [], "confidence": None})
    assert asked.action == "ask"
    assert len(rec.grammars) == 2 and "ja" in rec.grammars[-1] and "könig felix zwei" not in rec.grammars[-1]
    played = voice.key("1")
    assert played.action == "play" and len(rec.grammars) == 3 and rec.grammars[-1] == rec.grammars[0]
    board = TWO_KNIGHTS.copy()
    board.push(played.move)
    voice.position(board)
    assert len(rec.grammars) == 4 and rec.grammars[-1] == [p.lower() for p in phonetic.grammar(board, "de")]
    voice.position(board)                  # same position: no needless rebuild
    assert len(rec.grammars) == 4
