"""The spoken move language (FIDE Laws Appendix D.2.1), as a spec.

Each test names the form a player uses and what blindchess makes of it.
"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from blindchess.language import phonetic
from blindchess.language.phonetic import (
    LANGS,
    announce,
    describe_pieces,
    describe_position,
    describe_square,
    piece_name,
    square_name,
    understand,
)


def board(fen: str = chess.STARTING_FEN, chess960: bool = False) -> chess.Board:
    return chess.Board(fen, chess960=chess960)


def uci(text: str) -> chess.Move:
    return chess.Move.from_uci(text)


def after(*moves: str) -> chess.Board:
    b = chess.Board()
    for m in moves:
        b.push_san(m)
    return b


# ------------------------------------------------------------------ vocabulary


def test_shipped_voices_load_german_first():
    assert LANGS[0] == "de" and {"de", "en"} <= set(LANGS)
    for lang in LANGS:
        v = phonetic.voice(lang)
        assert len(v.squares) == 64 and all(v.squares)


def test_d21_file_names_and_german_rank_words():
    assert [square_name(chess.square(f, 0)).split()[0] for f in range(8)] == \
        ["Anna", "Bella", "Cäsar", "David", "Eva", "Felix", "Gustav", "Hector"]
    assert [square_name(chess.square(0, r)).split()[1] for r in range(8)] == \
        ["eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht"]
    assert square_name(chess.E4) == "Eva vier"


def test_fide_english_spells_cesar():
    assert square_name(chess.C3, "en") == "Cesar three"


def test_d21_piece_names():
    assert [piece_name(pt) for pt in (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)] \
        == ["König", "Dame", "Turm", "Läufer", "Springer", "Bauer"]
    assert piece_name(chess.KNIGHT, "en") == "Knight"
    assert piece_name(chess.KNIGHT, "nl") == "Paard"
    assert piece_name(chess.KNIGHT, "ru") == "Конь"


def test_every_voice_cites_its_sources():
    for lang in LANGS:
        text = (phonetic.voices_dir() / f"{lang}.toml").read_text(encoding="utf-8")
        assert "# Sources" in text, lang


def test_unknown_language_falls_back_to_english():
    assert square_name(chess.E4, "fr") == "Eva four"


# -------------------------------------------------------------------- announce


@pytest.mark.parametrize("position, move, phrase", [
    (chess.STARTING_FEN, "e2e4", "Eva vier"),                                    # pawn: target only
    (chess.STARTING_FEN, "g1f3", "Springer Felix drei"),                         # piece + target
    ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", "Eva schlägt David fünf"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", "Eva schlägt David sechs en passant"),
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2", "Springer Bella David zwei"),   # file added
    ("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "f1d2", "Springer Felix David zwei"),
    ("7k/R7/8/8/8/8/8/R3K3 w - - 0 1", "a1a4", "Turm eins Anna vier"),          # rank added
    ("2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1", "Dame Hector vier Eva eins"),   # square added
    ("3r1n2/4P3/8/8/8/k7/8/4K3 w - - 0 1", "e7e8q", "Eva acht wird Dame"),       # promotion
    ("3r1n2/4P3/8/8/8/k7/8/4K3 w - - 0 1", "e7d8n", "Eva schlägt David acht wird Springer"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "Kurze Rochade"),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "Lange Rochade"),
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "h1h8", "Turm Hector acht Schach"),
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Turm Anna acht matt"),
])
def test_announce_d21_forms(position, move, phrase):
    assert announce(board(position), uci(move)) == phrase


def test_announce_in_every_language():
    b = after("e4", "d5")
    move = uci("e4d5")
    assert announce(b, move, "en") == "Eva takes David five"
    assert announce(b, move, "nl") == "Eva slaat David vijf"
    assert announce(b, move, "ru") == "Ева бьёт Дэвид пять"
    promo = board("8/4P3/8/8/8/k7/8/4K3 w - - 0 1")
    assert announce(promo, uci("e7e8r"), "en") == "Eva eight promotes to Rook"
    assert announce(promo, uci("e7e8q"), "ru") == "Ева восемь превращается в ферзя"
    castle = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert announce(castle, uci("e1c1"), "en") == "long castling"
    assert announce(castle, uci("e1g1"), "nl") == "korte rokade"
    assert announce(castle, uci("e1g1"), "ru") == "короткая рокировка"


def test_chess960_castling_is_still_kurze_lange_rochade():
    # Chess960 (FIDE Laws Guidelines II, Chess960): king b1, rooks a1 and h1; python-chess writes castling as king-takes-rook
    b = board("1k6/8/8/8/8/8/8/RK5R w HA - 0 1", chess960=True)
    assert announce(b, uci("b1h1")) == "Kurze Rochade"
    assert announce(b, uci("b1a1")) == "Lange Rochade"


def test_announce_rejects_an_illegal_move():
    with pytest.raises(ValueError):
        announce(chess.Board(), uci("e2e5"))
    pinned = board("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")  # the knight is pinned
    with pytest.raises(ValueError):
        announce(pinned, uci("e2f4"))


def test_announce_leaves_the_board_unchanged():
    b = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    fen = b.fen()
    announce(b, uci("a1a8"))
    assert b.fen() == fen and not b.move_stack


# ----------------------------------------------------------- understand: moves


def move_of(text: str, b: chess.Board | None = None, lang: str = "de") -> chess.Move | None:
    u = understand(b or chess.Board(), text, lang)
    return u.move if u.certain else None


@pytest.mark.parametrize("text, move", [
    ("Springer Felix drei", "g1f3"),                 # short form
    ("Springer Gustav eins Felix drei", "g1f3"),     # long form with the piece
    ("Gustav eins Felix drei", "g1f3"),              # long form, squares only
    ("Eva vier", "e2e4"),                            # pawn: target only
    ("Eva zwei Eva vier", "e2e4"),
    ("Bauer Eva vier", "e2e4"),
    ("Bauer Eva vier", "e2e4"),
])
def test_understand_long_and_short_forms(text, move):
    assert move_of(text) == uci(move)


def test_understand_capture_named_by_piece_when_only_one_fits():
    b = board("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1")
    assert move_of("Springer schlägt", b) == uci("c3d5")
    assert move_of("Springer schlägt Bauer", b) == uci("c3d5")
    b2 = board("4k3/8/8/8/4p3/8/8/1Q2K3 w - - 0 1")
    assert move_of("Dame schlägt Eva vier", b2) == uci("b1e4")


def test_understand_pawn_captures_and_en_passant():
    b = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert move_of("Eva schlägt David sechs en passant", b) == uci("e5d6")
    assert move_of("Eva schlägt David sechs", b) == uci("e5d6")
    assert move_of("Eva schlägt", b) == uci("e5d6")


def test_understand_promotion_phrasings():
    b = board("3r1n2/4P3/8/8/8/k7/8/4K3 w - - 0 1")
    for text in ("Eva acht wird Dame", "Eva acht Umwandlung in Dame", "Eva acht Dame", "Bauer Eva acht wird zur Dame",
                 "e8 Dame"):
        assert move_of(text, b) == uci("e7e8q"), text
    assert move_of("Eva schlägt Felix acht wird Springer", b) == uci("e7f8n")


def test_promotion_without_the_piece_asks_which():
    b = board("8/4P3/8/8/8/k7/8/4K3 w - - 0 1")
    u = understand(b, "Eva acht")
    assert u.move is None and not u.certain
    assert set(u.candidates) == {uci("e7e8q"), uci("e7e8r"), u.candidates[2], u.candidates[3]}
    assert u.candidates[0] == uci("e7e8q")  # queen first
    assert u.message.startswith("Meinten Sie Eva acht wird Dame, Eva acht wird Turm")


def test_castling_forms():
    b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for text in ("Kurze Rochade", "kurze rochade", "0-0", "O-O", "König Eva eins Gustav eins", "König Gustav eins"):
        assert move_of(text, b) == uci("e1g1"), text
    for text in ("Lange Rochade", "0-0-0", "o-o-o", "große Rochade"):
        assert move_of(text, b) == uci("e1c1"), text


def test_check_and_mate_words_are_accepted_and_checked():
    b = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert move_of("Turm Anna acht matt", b) == uci("a1a8")
    assert move_of("Turm Anna acht Schach", b) == uci("a1a8")  # mate is a check
    u = understand(b, "Turm Anna sieben Schach")  # no check: fits only if "Schach" is misheard: asks
    assert u.move is None and not u.certain
    assert u.candidates == [uci("a1a7")] and u.message == "Meinten Sie Turm Anna sieben?"


def test_spelling_variants():
    b = board("4k3/8/8/8/8/8/8/R1B1K2R w - - 0 1")
    assert move_of("Läufer Cäsar eins Hector sechs", b) == move_of("Laeufer Caesar eins Hektor sechs", b) == uci("c1h6")
    assert move_of("Läufer Zäsar eins Hektor sechs", b) == uci("c1h6")
    assert move_of("Eva fuenf", after("e4", "d5")) == uci("e4e5")
    assert move_of("Eva funf", after("e4", "d5")) == uci("e4e5")
    assert move_of("Springer Cesar drei") == move_of("Springer Cäsar drei") == uci("b1c3")


def test_filler_words_are_ignored():
    assert move_of("äh, ich spiele Springer nach Felix drei, bitte") == uci("g1f3")
    assert move_of("ähm also Eva vier") == uci("e2e4")
    assert move_of("uh I play Knight to Felix three please", lang="en") == uci("g1f3")


def test_imperfect_recogniser_text():
    assert move_of("springer felix drei") == uci("g1f3")          # lowercase
    assert move_of("SPRINGER FELIX DREI") == uci("g1f3")
    assert move_of("eva vier") == uci("e2e4")
    assert move_of("evavier") == uci("e2e4")                       # merged words
    assert move_of("spring er felix drei") == uci("g1f3")          # split word
    assert move_of("Springer f3") == uci("g1f3")                   # digits and letters
    assert move_of("Eva 4") == uci("e2e4")
    assert move_of("e4") == uci("e2e4")
    assert move_of("e2 e4") == uci("e2e4")
    assert move_of("Springer Felix 3") == uci("g1f3")


def test_a_corrected_misspelling_is_never_certain():
    u = understand(chess.Board(), "Sprimger Felix drei")
    assert u.move is None and not u.certain and u.candidates == [uci("g1f3")]
    assert u.message == "Meinten Sie Springer Felix drei?"


def test_unknown_words_make_a_move_uncertain():
    u = understand(chess.Board(), "Springer quatsch Felix drei")
    assert u.move is None and not u.certain and u.candidates == [uci("g1f3")]


def test_missing_capture_word_fits_but_asks():
    b = after("e4", "d5")
    u = understand(b, "Eva David fünf")
    assert u.move is None and not u.certain and u.candidates == [uci("e4d5")]
    assert u.message == "Meinten Sie Eva schlägt David fünf?"


def test_written_notation_is_delegated_to_notation():
    pytest.importorskip("blindchess.language.notation")
    assert move_of("Sf3") == uci("g1f3")
    assert move_of("Nf3", lang="en") == uci("g1f3")
    b = after("e4", "d5")
    assert move_of("exd5", b) == uci("e4d5")
    assert move_of("De2", after("e4", "e5")) == uci("d1e2")     # German letters: D is the queen
    assert move_of("Bc4", after("e4", "e5"), "en") == uci("f1c4")


def test_illegal_written_move_is_explained_with_spoken_suggestions():
    pytest.importorskip("blindchess.language.notation")
    u = understand(after("e4", "e5"), "Sf4")
    assert u.move is None and not u.certain
    assert u.message.startswith("„Sf4“ ist kein regelgemäßer Zug. Möglich: Springer Felix drei")


# ------------------------------------------------ several fit / none fits


def test_several_moves_fit_ranked_question_no_guess():
    b = board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    u = understand(b, "Springer David zwei")
    assert u.kind == "move" and u.move is None and not u.certain
    assert set(u.candidates) == {uci("b1d2"), uci("f1d2")}
    assert u.message == "Meinten Sie Springer Bella David zwei oder Springer Felix David zwei?"
    assert understand(b, "Springer Bella David zwei").move == uci("b1d2")


def test_question_in_english():
    b = board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    u = understand(b, "Knight David two", "en")
    assert u.message == "Did you mean Knight Bella David two or Knight Felix David two?"


def test_no_knight_can_go_there_says_why():
    u = understand(chess.Board(), "Springer Felix vier")
    assert u.move is None and not u.certain
    assert u.message.startswith("Kein Springer kann nach Felix vier ziehen.")
    u = understand(chess.Board(), "Dame Hector fünf")
    assert u.message.startswith("Keine Dame kann nach Hector fünf ziehen.")


def test_no_pawn_can_go_there_says_why_and_suggests():
    u = understand(chess.Board(), "Eva fünf")
    assert u.move is None and u.message.startswith("Eva fünf: kein Bauer kann dorthin ziehen.")
    u = understand(chess.Board(), "Felix drei")  # a pawn move to f3 exists
    assert u.move == uci("f2f3")
    b = board("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1")
    u = understand(b, "Felix drei")  # no pawn: the knight is suggested, not taken
    assert u.move is None and u.candidates[0] == uci("g1f3")
    assert "Möglich: Springer Felix drei." in u.message


def test_messages_in_the_users_language():
    assert understand(chess.Board(), "Knight Felix four", "en").message.startswith("No Knight can move to Felix four.")
    assert understand(chess.Board(), "Paard Felix vier", "nl").message.startswith("Geen paard kan naar Felix vier.")
    assert understand(chess.Board(), "Конь Феликс четыре", "ru").message.startswith(
        "Ни один конь не может пойти на Феликс четыре.")


def test_impossible_castling_is_explained():
    u = understand(chess.Board(), "Kurze Rochade")
    assert u.move is None and u.message == "Kurze Rochade ist jetzt nicht möglich."


# ------------------------------------------------------------ commands (D.2.8)


@pytest.mark.parametrize("text", ["Korrektur", "Versprecher", "nein, ich meine", "Korrektur!"])
def test_bare_correction(text):
    u = understand(chess.Board(), text)
    assert u.kind == "correction" and u.move is None


@pytest.mark.parametrize("text", ["Korrektur: Springer Felix drei", "Versprecher, Springer Felix drei",
                                  "nein, ich meine Springer Felix drei", "nein Springer Felix drei"])
def test_correction_naming_the_move(text):
    u = understand(chess.Board(), text)
    assert u.kind == "correction" and u.move == uci("g1f3") and u.certain


def test_correction_in_english():
    u = understand(chess.Board(), "correction, Knight Felix three", "en")
    assert u.kind == "correction" and u.move == uci("g1f3")


@pytest.mark.parametrize("text, kind", [
    ("Remis", "draw_offer"), ("Ich biete Remis an", "draw_offer"),
    ("Ich gebe auf", "resign"),
    ("j'adoube", "adjust"), ("Ich korrigiere", "adjust"),
    ("Ich werde rochieren", "castle_intent"),                         # FIDE Laws Guidelines II (Chess960)
    ("ja", "yes"), ("nein", "no"), ("wiederholen", "repeat"), ("wie bitte", "repeat"),
    ("blubb", "unknown"), ("", "unknown"),
])
def test_command_kinds(text, kind):
    assert understand(chess.Board(), text).kind == kind


def test_draw_offer_with_the_move():
    u = understand(chess.Board(), "Springer Felix drei, ich biete Remis an")
    assert u.kind == "draw_offer" and u.move == uci("g1f3")


def test_adjust_names_the_square():
    u = understand(chess.Board(), "j'adoube Eva zwei")
    assert u.kind == "adjust" and u.square == chess.E2


@pytest.mark.parametrize("lang, text, kind", [
    ("en", "I resign", "resign"), ("en", "I offer a draw", "draw_offer"), ("en", "j'adoube", "adjust"),
    ("en", "I am going to castle", "castle_intent"), ("en", "yes", "yes"), ("en", "repeat", "repeat"),
    ("nl", "ik geef op", "resign"), ("nl", "remise", "draw_offer"), ("nl", "correctie", "correction"),
    ("ru", "сдаюсь", "resign"), ("ru", "предлагаю ничью", "draw_offer"), ("ru", "поправка", "correction"),
    ("ru", "да", "yes"), ("ru", "нет", "no"),
])
def test_commands_in_other_languages(lang, text, kind):
    assert understand(chess.Board(), text, lang).kind == kind



@pytest.mark.parametrize("lang, text, claim", [
    ("de", "Zeitüberschreitung", "time"), ("de", "Blättchen gefallen", "time"),
    ("de", "seine Zeit ist abgelaufen", "time"), ("de", "dreimalige Stellungswiederholung", "threefold"),
    ("de", "Remis durch Stellungswiederholung", "threefold"), ("de", "fünfzig Züge", "fifty"),
    ("de", "50-Züge-Regel", "fifty"), ("de", "regelwidriger Zug", "illegal"),
    ("en", "his flag fell", "time"), ("en", "threefold repetition", "threefold"),
    ("en", "fifty move rule", "fifty"), ("en", "illegal move", "illegal"),
    ("nl", "vlag gevallen", "time"), ("nl", "zetherhaling", "threefold"),
    ("nl", "vijftigzettenregel", "fifty"), ("nl", "onreglementaire zet", "illegal"),
    ("ru", "флажок упал", "time"), ("ru", "троекратное повторение", "threefold"),
    ("ru", "правило пятидесяти ходов", "fifty"), ("ru", "невозможный ход", "illegal"),
])
def test_claims_in_every_language(lang, text, claim):
    """Art. 6.8, 9.2, 9.3, A.4/B.3: a claim said is a claim — not a draw offer, a request or a repetition."""
    u = understand(chess.Board(), text, lang)
    assert (u.kind, u.claim, u.certain) == ("claim", claim, True)


@pytest.mark.parametrize("lang, text, kind", [
    ("de", "Zeit", "request"), ("de", "Züge", "request"), ("de", "Wiederholung", "repeat"), ("de", "Remis", "draw_offer"),
    ("en", "time", "request"), ("en", "repeat", "repeat"), ("nl", "tijd", "request"), ("ru", "время", "request"),
])
def test_words_inside_claims_keep_their_own_meaning(lang, text, kind):
    u = understand(chess.Board(), text, lang)
    assert u.kind == kind and u.claim is None


def test_a_claim_names_the_move_he_will_make():
    """Art. 9.2.1.1: the claim with the move that repeats the position."""
    u = understand(chess.Board(), "Stellungswiederholung, Springer Felix drei")
    assert (u.kind, u.claim, u.move) == ("claim", "threefold", uci("g1f3"))

def test_not_understood_message():
    u = understand(chess.Board(), "blubb")
    assert u.kind == "unknown" and u.message == "Nicht verstanden. Bitte wiederholen."


# ------------------------------------------------------ requests (D.2.10 d)


@pytest.mark.parametrize("text, wanted", [
    ("Zeit", "time"), ("Bedenkzeit", "time"), ("wie viel Zeit", "time"),
    ("wie viele Züge", "moves"), ("wie viele Zuege", "moves"),
    ("letzter Zug", "last_move"),
    ("Stellung vorlesen", "position"),
])
def test_requests(text, wanted):
    u = understand(chess.Board(), text)
    assert u.kind == "request" and u.request == wanted and u.certain



@pytest.mark.parametrize("lang, text, wanted", [
    ("de", "wie viel Zeit habe ich", "time"), ("de", "Wie viel Zeit habe ich noch?", "time"),
    ("de", "wieviel Zeit habe ich", "time"), ("de", "äh wie viel Zeit habe ich", "time"),
    ("en", "how much time do I have", "time"), ("en", "How much time do I have left?", "time"),
    ("nl", "hoeveel tijd heb ik", "time"), ("ru", "сколько у меня времени", "time"),
])
def test_natural_time_requests_are_certain(lang, text, wanted):
    # D.2.10 d: the blind player asks for his time; every word is understood, so it is certain
    u = understand(chess.Board(), text, lang)
    assert u.kind == "request" and u.request == wanted and u.certain, u


@pytest.mark.parametrize("lang", ("de", "en", "nl", "ru"))
def test_every_request_phrase_of_a_voice_is_certain(lang):
    # a fully recognised request is certain; "square" needs its square (see below)
    import tomllib

    from blindchess.base.resources import voices_dir

    data = tomllib.loads((Path(voices_dir()) / f"{lang}.toml").read_text(encoding="utf-8"))
    for name, phrases in data["requests"].items():
        for phrase in phrases:
            text = phrase if name != "square" else f"{phrase} {square_name(chess.E4, lang)}"
            u = understand(chess.Board(), text, lang)
            assert (u.kind, u.request, u.certain) == ("request", name, True), (lang, text, u)


def test_a_request_with_a_word_not_understood_stays_uncertain():
    u = understand(chess.Board(), "wie viel Zeit habe ich blubb")
    assert u.kind == "request" and u.request == "time" and not u.certain

def test_square_request_names_the_square():
    u = understand(chess.Board(), "was steht auf Eva vier")
    assert (u.kind, u.request, u.square) == ("request", "square", chess.E4)
    u = understand(chess.Board(), "was steht auf")
    assert u.square is None and not u.certain and u.message == "Welches Feld?"


def test_pieces_request_names_kind_and_colour():
    u = understand(chess.Board(), "wo stehen meine Springer")
    assert (u.request, u.piece_type, u.owner, u.color) == ("pieces", chess.KNIGHT, "own", None)
    u = understand(chess.Board(), "wo stehen die schwarzen Türme")
    assert (u.request, u.piece_type, u.color) == ("pieces", chess.ROOK, chess.BLACK)
    u = understand(chess.Board(), "where are my knights", "en")
    assert (u.request, u.piece_type, u.owner) == ("pieces", chess.KNIGHT, "own")
    u = understand(chess.Board(), "что стоит на Ева четыре", "ru")
    assert (u.request, u.square) == ("square", chess.E4)


# ------------------------------------------------------------- descriptions


def test_describe_square():
    assert describe_square(chess.Board(), chess.E2) == "Eva zwei, weißer Bauer"
    assert describe_square(chess.Board(), chess.D8) == "David acht, schwarze Dame"
    assert describe_square(chess.Board(), chess.E4) == "Eva vier, leer"
    assert describe_square(chess.Board(), chess.G8, "en") == "Gustav eight, black knight"
    assert describe_square(chess.Board(), chess.G1, "nl") == "Gustav een, wit paard"
    assert describe_square(chess.Board(), chess.A8, "ru") == "Анна восемь, чёрная ладья"


def test_describe_pieces():
    b = chess.Board()
    assert describe_pieces(b, chess.KNIGHT, chess.WHITE) == "Weiße Springer: Bella eins und Gustav eins."
    assert describe_pieces(b, chess.QUEEN, chess.BLACK) == "Schwarze Dame: David acht."
    assert describe_pieces(board("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), chess.KNIGHT, chess.WHITE) == \
        "Weiße Springer: keine."
    both = describe_pieces(b, chess.KING, None, "en")
    assert both == "White king: Eva one; Black king: Eva eight."


def test_describe_position():
    b = board("4k3/8/8/8/8/8/4P3/R3K2R w - - 0 1")
    assert describe_position(b) == ("Weiß: König Eva eins, Türme Anna eins und Hector eins, Bauer Eva zwei; "
                                    "Schwarz: König Eva acht. Weiß am Zug.")
    assert describe_position(b, "en").endswith("Black: King Eva eight. White to move.")


@pytest.mark.parametrize("lang, text, asked, square", [
    ("de", "Schlagzüge von Eva vier", "captures", chess.E4), ("de", "was steht um Eva vier", "around", chess.E4),
    ("de", "wer ist mein Gegner", "opponent", None), ("de", "letzter Schlagzug", "last_capture", None),
    ("de", "alle Züge", "move_list", None),
    ("en", "captures from Eva four", "captures", chess.E4), ("en", "what is around Eva four", "around", chess.E4),
    ("en", "who is my opponent", "opponent", None), ("en", "last capture", "last_capture", None),
    ("en", "all moves", "move_list", None),
    ("nl", "slagzetten van Eva vier", "captures", chess.E4), ("nl", "wat staat rond Eva vier", "around", chess.E4),
    ("nl", "wie is mijn tegenstander", "opponent", None), ("nl", "alle zetten", "move_list", None),
    ("ru", "взятия с Ева четыре", "captures", chess.E4), ("ru", "кто мой соперник", "opponent", None),
    ("ru", "последнее взятие", "last_capture", None), ("ru", "все ходы", "move_list", None),
])
def test_the_window_lookups_can_be_asked_by_voice(lang, text, asked, square):
    u = understand(chess.Board(), text, lang)
    assert (u.kind, u.request, u.square) == ("request", asked, square)
