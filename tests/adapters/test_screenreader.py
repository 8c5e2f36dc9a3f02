"""The screen-reader channel with a real speech-dispatcher: each announcement reaches the user once.

A private ``speech-dispatcher`` (Debian's, with its dummy output module; see
``speechd_server.py``) is started for each test; its log at level 5 lists every
text handed to the synthesiser — what the screen-reader user hears. Whole
scenario games are played through the real window (:class:`AppFront`, on the
script's clock) with the channel set to "screenreader" and "both", the program's
voice a text-only :class:`Speaker` whose texts are recorded. The texts must
reach each output exactly as often as they are distinct messages of the table,
and never both outputs.

Skipped with a reason where speech-dispatcher or its Python binding
(python3-speechd) is not installed; the platform choice and the fallback are
tested everywhere.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import Counter

import pytest

from blindchess.adapters.speech import screenreader
from blindchess.adapters.speech.screenreader import ScreenReaderLost, ScreenReaderUnavailable, SpeechDispatcher
from blindchess.adapters.speech.tts import Speaker
from blindchess.scenario import play, read_script
from blindchess.table.events import Refused, Said, Shown, Speak
from blindchess.table.speech import blind_hears, spoken, worded
from blindchess.ui.controller import GameController
from blindchess.ui.scenario_front import AppFront
from blindchess.ui.settings import Settings
from blindchess.ui.voice import TableVoice
from tests.support.paths import SCENARIOS
from tests.support.speechd_server import BINARY, SpeechDispatcherServer
from tests.support.waiting import wait_for

# The binding's reader thread ends with sys.exit() when its socket closes (client closed, server gone):
# Python ignores that in threads, pytest reports it.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Exception in thread SSIP client communication thread:pytest.PytestUnhandledThreadExceptionWarning")


def _binding_missing() -> str | None:
    try:
        screenreader.load_speechd("en")
    except ScreenReaderUnavailable as exc:
        return exc.message
    return None


MISSING = ("speech-dispatcher is not installed (Debian: apt install speech-dispatcher)" if BINARY is None
           else f"no speechd binding: {_binding_missing()}" if _binding_missing() is not None else None)
needs_speechd = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
needs_binding = pytest.mark.skipif(_binding_missing() is not None, reason=f"no speechd binding: {_binding_missing()}")


@pytest.fixture
def server(tmp_path):
    with SpeechDispatcherServer(tmp_path / "speechd") as running:
        yield running


@pytest.fixture
def speaker():
    with Speaker("de", engine="text") as spoken_by_app:   # no sound device here: texts are reported, not played
        yield spoken_by_app


def _app_texts(speaker: Speaker) -> list[str]:
    texts: list[str] = []
    speaker.on_event(lambda e: texts.append(e.text) if e.kind == "text" else None)
    return texts


class Paced:
    """The real speech-dispatcher client, speaking in step with the table: each text is in the synthesiser
    before the next one is sent (as a screen reader keeps up with a game played in real time — the script's
    clock runs faster than any voice)."""

    def __init__(self, reader: SpeechDispatcher, server: SpeechDispatcherServer) -> None:
        self.reader, self.server = reader, server
        self.name = reader.name
        self.cancels = 0
        self.cuts = 0

    def say(self, text: str, priority: str = "answer", about: str | None = None) -> int:
        before = len(self.server.delivered())
        ident = self.reader.say(text, priority, about)
        assert wait_for(lambda: len(self.server.delivered()) > before, 10), f"not delivered: {text!r}"
        return ident

    def cut(self, ident: int) -> None:
        self.cuts += 1
        self.reader.cut(ident)

    def cancel(self) -> None:
        self.cancels += 1
        self.reader.cancel()

    def set_language(self, lang: str) -> None:
        self.reader.set_language(lang)

    def close(self) -> None:
        self.reader.close()


# --------------------------------------------------------------------------- the binding, the client


@needs_binding
def test_the_binding_is_loaded_alone_from_the_system():
    module = screenreader.load_speechd("de")
    assert hasattr(module, "SSIPClient") and sys.modules["speechd"] is module
    if importlib.util.find_spec("chess") is not None:     # the venv's packages stay the venv's
        assert not any(p.rstrip("/").endswith("dist-packages") and p.startswith("/usr/lib") for p in sys.path)


@needs_speechd
def test_each_text_reaches_speech_dispatcher_once_in_order(server):
    reader = SpeechDispatcher("de", address=server.address)
    texts = ["Zug ausgeführt: Springer Felix drei.", "Meinten Sie Eva vier?", "Turm & Dame <schlagen> „Cäsar“"]
    try:
        for text, priority in zip(texts, ("move", "question", "answer")):
            reader.say(text, priority)
        assert wait_for(lambda: len(server.delivered()) >= 3, 10)
        assert server.delivered() == texts
        reader.cancel()
        assert wait_for(lambda: server.received("CANCEL self") == 1, 10)
        assert server.received("SET self PRIORITY message") == 1     # what Orca's focus speech cannot cut
        assert server.received("SET self LANGUAGE de") == 1
    finally:
        reader.close()
    assert server.delivered() == texts


@needs_binding
def test_no_server_means_no_screen_reader_with_the_reason(tmp_path):
    with pytest.raises(ScreenReaderUnavailable) as caught:
        screenreader.connect("de", address=f"unix_socket:{tmp_path / 'none.sock'}", platform="linux")
    assert "speech-dispatcher läuft nicht" in caught.value.message


def test_each_platform_has_its_adapter_and_says_what_is_missing(monkeypatch):
    monkeypatch.setattr(screenreader.shutil, "which", lambda name: None)
    with pytest.raises(ScreenReaderUnavailable) as windows:    # accessible_output2 is not installed on Linux
        screenreader.connect("en", platform="win32")
    assert "accessible_output2" in windows.value.message
    with pytest.raises(ScreenReaderUnavailable) as mac:
        screenreader.connect("en", platform="darwin")
    assert "osascript" in mac.value.message
    with pytest.raises(ScreenReaderUnavailable) as other:
        screenreader.connect("de", platform="sunos5")
    assert "sunos5" in other.value.message


def test_the_binding_missing_is_said_in_the_users_language(tmp_path, monkeypatch):
    monkeypatch.delitem(sys.modules, "speechd", raising=False)
    monkeypatch.setattr(screenreader.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ScreenReaderUnavailable) as caught:
        screenreader.load_speechd("de", folders=(str(tmp_path),))
    assert "python3-speechd" in caught.value.message


# --------------------------------------------------------------------------- whole games through the window


def _messages(events: list) -> Counter:
    """How often each text is a distinct message of the table: a refusal the table also says is one message."""
    speaks = Counter(spoken(e.text) for e in events if isinstance(e, Speak) and e.priority != "reading")
    refusals = Counter(spoken(e.text) for e in events if isinstance(e, Refused))
    return Counter({text: max(speaks[text], refusals[text]) for text in speaks | refusals})


GAMES = ["d4_mirror_not_made.scn", "d2_unclear_announcement.scn", "d8_short_texts.scn", "game_whole.scn"]


@needs_speechd
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("channel", ["screenreader", "both"])
def test_a_whole_game_reaches_each_person_once(qtbot, tmp_path, server, speaker, name, channel):
    app_texts = _app_texts(speaker)
    front = AppFront(lang="de", speaker=speaker)
    qtbot.addWidget(front.window)
    reader = Paced(SpeechDispatcher("de", address=server.address), server)
    front.controller.voice.use(channel, lang="de", screen_reader=reader)
    events: list = []
    front.controller.tableEvent.connect(events.append)
    script = read_script(SCENARIOS / name, "de")
    play(script, front, tmp_path / "game.jsonl")
    front.controller.voice.close()

    delivered = Counter(server.spoken_by("blindchess:table"))    # everything the screen reader got (Paced: each)
    said_by_app = Counter(spoken(t) for t in app_texts)
    heard = Counter(worded(spoken(e.text), "de") for e in events        # the plan: what the blind player hears
                    if isinstance(e, Speak) and blind_hears("normal", e.to, e.priority)
                    and (channel == "screenreader" or e.to == "blind"))
    to_table = Counter(worded(spoken(e.text), "de") for e in events
                       if isinstance(e, Speak) and e.to != "blind" and e.priority != "reading")
    answers = delivered - heard                  # the window's answers to actions at the keyboard
    assert delivered & heard == heard            # every text for his ears once
    assert not set(answers) & set(to_table)      # the window never says again what the table said
    if channel == "screenreader":
        assert said_by_app == Counter()          # the program's voice is silent
    else:
        assert said_by_app == to_table           # the table's words to everyone from the loudspeaker, once
        assert not set(delivered) & set(said_by_app)
    assert any(isinstance(e, Speak) and e.priority == "move" for e in events)
    assert front.readings == set()               # the board's squares are left to the screen reader
    cut = [e for e in events if isinstance(e, Said) and e.cut and worded(spoken(e.text), "de") in heard]
    assert reader.cuts == len(cut) and reader.cancels == 0     # each cut carried out on that text alone
    assert server.received("CANCEL self", "blindchess:table") <= len(cut)
    to_sighted = {worded(spoken(e.text), "de") for e in events if isinstance(e, Shown)} | \
        {worded(spoken(e.text), "de") for e in events if isinstance(e, Speak) and e.to == "sighted"}
    assert not (to_sighted - set(heard)) & set(delivered)      # texts for the sighted side never reach his ears
    assert not any(re.search(r"\b[KQRBNSTLD]?[a-h]?x?[a-h][1-8]\b|0-0", text) for text in delivered), delivered


@needs_speechd
def test_the_windows_messages_are_said_once_and_its_copies_of_table_events_not_again(server, speaker):
    voice = TableVoice(speaker)
    reader = Paced(SpeechDispatcher("de", address=server.address), server)
    voice.use("screenreader", lang="de", screen_reader=reader)
    voice.message("Gespeichert: partie.pgn")                           # the window's own message
    voice.table_event(Refused(1.0, "move", "e2e5 ist kein regelgemäßer Zug (FIDE Art. 3.7)."))
    voice.message("e2e5 ist kein regelgemäßer Zug (FIDE Art. 3.7).")   # the message line's copy of it
    voice.message("e2e5 ist kein regelgemäßer Zug (FIDE Art. 3.7).")   # … and the log's
    voice.table_event(Speak(1.0, "blind", "e2e5 ist kein regelgemäßer Zug.", "answer", False))  # the table says it too
    voice.table_event(Shown(2.0, "Weiß: e4"))                          # for the sighted side's eyes
    voice.message("Weiß: e4")
    voice.close()
    assert server.delivered() == ["Gespeichert: partie.pgn", "Eva zwei Eva fünf ist kein regelgemäßer Zug."]  # in words


@needs_speechd
def test_texts_queue_by_priority_and_only_the_same_request_is_cancelled(server):
    """One text at a time is with speech-dispatcher; the next goes when it ends, the highest priority first; a text
    is cancelled only by the one that replaces the same request."""
    reader = SpeechDispatcher("de", address=server.address)
    try:
        first = reader.say("Weiß ist am Zug: Zug auf dem Tastbrett setzen und ansagen.", "notice", "step")
        reader.say("Suche nach einem Brett.", "notice", "board")
        reader.say("Kein Brett gefunden.", "notice", "board")          # replaces the one waiting about the board
        reader.say("Springer Cäsar sechs", "move")
        assert wait_for(lambda: len(server.delivered()) >= 3, 10), server.delivered()
        assert server.delivered() == ["Weiß ist am Zug: Zug auf dem Tastbrett setzen und ansagen.",
                                      "Springer Cäsar sechs", "Kein Brett gefunden."]
        assert server.received("CANCEL self") == 0        # nothing that was being said was cut
        assert first > 0
        reader.cancel()                                   # the listener's stop: the one command that cuts all
        assert wait_for(lambda: server.received("CANCEL self") == 1, 10)
    finally:
        reader.close()


# --------------------------------------------------------------------------- fallback


def _failing(lang: str, ui_lang: str):
    raise ScreenReaderUnavailable(screenreader.tr("voice.no_speechd", ui_lang, error="kein Socket"))


def test_without_a_screen_reader_the_app_voice_speaks_and_says_so_once(qtbot, tmp_path, speaker):
    app_texts = _app_texts(speaker)
    controller = GameController(Settings(lang="de", speech_channel="screenreader", earcons=False), speaker=speaker,
                                clock=lambda: 0.0, ticking=False)
    controller.voice.connect = _failing
    status: list[str] = []
    controller.info.connect(status.append)
    controller.start_devices()
    try:
        assert controller.voice.chosen == "screenreader" and controller.voice.channel == "app"
        notice = "Kein Bildschirmleser erreichbar (speech-dispatcher läuft nicht (kein Socket)). " \
                 "Die Stimme des Programms spricht."
        assert status.count(notice) == 1 and app_texts.count(notice) == 1
        assert controller.voice_name() is None          # a text-only speaker: nothing really speaks
        script = read_script(SCENARIOS / "d1_confirmation_not_cut.scn", "de")
        front_events: list = []
        controller.tableEvent.connect(front_events.append)
        assert controller.start(script.setup, tmp_path / "g.jsonl")
        said = [e.text for e in front_events if isinstance(e, Speak)]
        assert said and all(text in app_texts for text in said)   # the program's voice took over
        assert status.count(notice) == 1 and app_texts.count(notice) == 1
    finally:
        controller.shutdown()


@needs_speechd
def test_a_screen_reader_that_goes_away_hands_over_once_and_loses_no_message(server, speaker):
    app_texts = _app_texts(speaker)
    status: list[str] = []
    voice = TableVoice(speaker)
    reader = SpeechDispatcher("de", address=server.address)
    voice.use("screenreader", lang="de", screen_reader=reader, on_status=status.append)
    voice.table_event(Speak(0.0, "blind", "Zug ausgeführt: Eva vier.", "move", False))
    assert wait_for(lambda: server.delivered() == ["Zug ausgeführt: Eva vier."], 10)
    server.stop()
    assert wait_for(lambda: not reader.connected, 10)      # the server is gone before the next move is said
    voice.table_event(Speak(5.0, "blind", "Eva fünf", "move", False))
    voice.table_event(Speak(9.0, "blind", "Springer Felix drei", "move", False))
    assert voice.channel == "app" and len(status) == 1 and "antwortet nicht mehr" in status[0]
    assert app_texts == [status[0], "Eva fünf", "Springer Felix drei"]
    assert voice.screen_reader is None and voice.name("de") is None   # the status: no screen reader any more


def test_the_lost_error_is_a_user_error_with_a_message():
    error = ScreenReaderLost("speech-dispatcher: weg")
    assert error.message == "speech-dispatcher: weg"
