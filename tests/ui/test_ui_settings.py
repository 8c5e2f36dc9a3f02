"""Settings persist across restarts (QSettings INI in the user data folder); the app's command line."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from PySide6.QtWidgets import QApplication

from blindchess.cli import main as cli_main
from blindchess.ui.settings import Settings, settings_path
from blindchess.ui.settings_dialog import SettingsDialog


def test_settings_survive_a_restart(qtbot, _isolated_home):
    QApplication.instance() or QApplication([])
    first = Settings.load()
    assert first.lang == "de" and first.theme == "normal" and first.font_scale == 1.0
    first.language, first.voice, first.rate, first.model = "en", "en-gb", 180, "/models/en"
    first.port, first.board_profile, first.theme, first.font_scale = "/dev/ttyUSB0", "dgt", "high-contrast", 1.6
    first.save()
    assert str(_isolated_home) in settings_path()
    again = Settings.load()
    assert again.lang == "en" and again == Settings(**{**first.__dict__, "lang": "en"})


def test_without_a_choice_the_language_follows_the_system(qtbot, monkeypatch):
    """The system's language is the default (FIDE texts come in German, Dutch, Russian): settings saved
    without a language chosen follow a later change of the system's language; a choice stays."""
    QApplication.instance() or QApplication([])
    monkeypatch.setenv("LANGUAGE", "nl")
    first = Settings.load()
    assert (first.lang, first.language) == ("nl", "")
    first.theme = "dark"
    first.save()
    monkeypatch.setenv("LANGUAGE", "ru")
    again = Settings.load()
    assert (again.lang, again.theme) == ("ru", "dark")
    again.language = "de"
    again.save()
    monkeypatch.setenv("LANGUAGE", "en")
    assert Settings.load().lang == "de"


def test_settings_dialog_writes_back(qtbot):
    settings = Settings()
    dialog = SettingsDialog(None, settings, lang="de")
    qtbot.addWidget(dialog)
    assert dialog.language.itemData(0) == "" and dialog.language.itemText(0).startswith("Wie das System")
    assert dialog.language.currentIndex() == 0                  # nothing chosen yet: the system's language
    dialog.language.setCurrentIndex(dialog.language.findData("en"))
    dialog.theme.setCurrentIndex(dialog.theme.findData("high-contrast"))
    dialog.font_scale.setValue(2.0)
    dialog.rate.setValue(200)
    dialog.port.setEditText("/dev/ttyACM3")
    dialog.store()
    settings.save()
    loaded = Settings.load()
    assert (loaded.lang, loaded.theme, loaded.font_scale, loaded.rate, loaded.port) == (
        "en", "high-contrast", 2.0, 200, "/dev/ttyACM3")


def test_a_hand_edited_bad_value_falls_back_to_the_default(qtbot):
    QApplication.instance() or QApplication([])
    with open(settings_path(), "w", encoding="utf-8") as f:
        f.write("[General]\nfont_scale=huge\ntheme=purple\nrate=fast\nlang=en\n")
    loaded = Settings.load()
    assert (loaded.font_scale, loaded.theme, loaded.rate, loaded.lang) == (1.0, "normal", 0, "en")


def test_the_app_starts_to_a_usable_window_in_a_real_process(_isolated_home):
    env = dict(os.environ, BLINDCHESS_EXIT_WHEN_READY="1", QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "blindchess"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ready ")
    done = subprocess.run([sys.executable, "-m", "blindchess", "app", "--lang", "en"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("ready ")


def test_a_missing_journal_is_a_clear_message_without_traceback(capsys, tmp_path):
    code = cli_main(["app", "--journal", str(tmp_path / "nope.jsonl")])
    err = capsys.readouterr().err
    assert code == 2
    assert "nope.jsonl" in err and "gibt es nicht" in err and "Traceback" not in err


def test_app_help_lists_its_options(capsys):
    with pytest.raises(SystemExit) as stop:
        cli_main(["app", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "--journal" in out and "--lang" in out


def test_without_a_display_the_app_says_so_instead_of_crashing(_isolated_home):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([sys.executable, "-m", "blindchess"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert "DISPLAY" in done.stderr and "Traceback" not in done.stderr


# --- the speech channel and earcons

def test_channel_and_earcons_survive_a_restart_and_bad_values_fall_back(qtbot):
    QApplication.instance() or QApplication([])
    first = Settings.load()
    assert (first.speech_channel, first.earcons) == ("auto", True)
    first.speech_channel, first.earcons = "both", False
    first.save()
    assert (Settings.load().speech_channel, Settings.load().earcons) == ("both", False)
    with open(settings_path(), "a", encoding="utf-8") as f:
        f.write("speech_channel=loudspeaker\n")
    assert Settings.load().speech_channel == "auto"


def test_the_channel_and_earcons_are_chosen_by_keyboard_and_named_for_the_screen_reader(qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel

    from blindchess.ui import a11y

    settings = Settings()
    dialog = SettingsDialog(None, settings, lang="de")
    qtbot.addWidget(dialog)
    dialog.show()
    assert a11y.missing_labels(dialog) == []
    assert dialog.channel.accessibleName() == "Sprachausgabe über"
    assert "Bildschirmleser" in dialog.channel.accessibleDescription()
    assert [dialog.channel.itemText(i) for i in range(dialog.channel.count())] == [
        "Automatisch: der Bildschirmleser, wenn einer läuft, sonst die Stimme des Programms",
        "Stimme des Programms", "Eigener Bildschirmleser", "Beides, ohne Doppelungen"]
    buddies = {label.buddy() for label in dialog.findChildren(QLabel)}
    assert dialog.channel in buddies and dialog.earcons in buddies       # Alt+letter on the captions
    chain, widget = [], dialog.language                                     # Tab reaches both, in form order
    widget.setFocus()
    for _ in range(40):
        chain.append(widget)
        widget = widget.nextInFocusChain()
    assert chain.index(dialog.warnings) < chain.index(dialog.channel) < chain.index(dialog.earcons)
    dialog.channel.setFocus()
    qtbot.keyClick(dialog.channel, Qt.Key.Key_Down)
    qtbot.keyClick(dialog.channel, Qt.Key.Key_Down)
    qtbot.keyClick(dialog.channel, Qt.Key.Key_Down)
    dialog.earcons.setFocus()
    qtbot.keyClick(dialog.earcons, Qt.Key.Key_Space)
    dialog.store()
    assert (settings.speech_channel, settings.earcons) == ("both", False)
    settings.save()
    assert (Settings.load().speech_channel, Settings.load().earcons) == ("both", False)


def test_new_settings_switch_the_channel_at_once(qtbot):
    from blindchess.adapters.speech.tts import Speaker
    from blindchess.ui.controller import GameController

    class Reader:
        name = "test reader"

        def say(self, text, priority="answer", about=None):
            return 0

        def cut(self, ident):
            pass

        def cancel(self):
            pass

        def set_language(self, lang):
            pass

        def close(self):
            pass

    with Speaker("de", engine="text") as speaker:
        controller = GameController(Settings(earcons=False), speaker=speaker, clock=lambda: 0.0, ticking=False)
        controller.voice.connect = lambda lang, ui_lang: Reader()
        controller.apply_settings(Settings(speech_channel="screenreader", earcons=False))
        assert controller.voice.channel == "screenreader" and not controller.voice.wants_readings
        assert controller.voice_name() == "Bildschirmleser: test reader"
        controller.apply_settings(Settings(speech_channel="app", earcons=False))
        assert controller.voice.channel == "app" and controller.voice.screen_reader is None
        controller.voice.detect = lambda: "Orca"                   # "auto" with a screen reader running
        controller.apply_settings(Settings(speech_channel="auto", earcons=False))
        assert controller.voice.channel == "screenreader" and controller.voice.problem == ""
        controller.voice.detect = lambda: None                     # "auto" without one: the program's voice
        controller.apply_settings(Settings(speech_channel="auto", earcons=False))
        assert controller.voice.channel == "app" and controller.voice.screen_reader is None
        controller.shutdown()


def test_a_screen_reader_is_found_in_this_session_only(tmp_path):
    """Linux: an Orca process of this user counts when it runs in our D-Bus session, not in another one."""
    import os

    from blindchess.adapters.speech import screenreader

    ours = {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus", "DISPLAY": ":0"}
    for pid, comm, bus in (("101", "bash", ours["DBUS_SESSION_BUS_ADDRESS"]), ("102", "orca", "unix:path=/other")):
        (tmp_path / pid).mkdir()
        (tmp_path / pid / "comm").write_text(comm + "\n")
        (tmp_path / pid / "environ").write_bytes(f"DBUS_SESSION_BUS_ADDRESS={bus}\0HOME=/x\0".encode())
    assert screenreader.running(platform="linux", proc=tmp_path, environ=ours) is None
    (tmp_path / "103").mkdir()
    (tmp_path / "103" / "comm").write_text("orca\n")
    (tmp_path / "103" / "environ").write_bytes(f"DISPLAY=:0\0DBUS_SESSION_BUS_ADDRESS={ours['DBUS_SESSION_BUS_ADDRESS']}\0".encode())
    assert screenreader.running(platform="linux", proc=tmp_path, environ=ours) == "Orca"
    assert screenreader.running(platform="linux", proc=tmp_path, environ={}) is None   # no session: none of ours
    assert os.getuid() == (tmp_path / "103").stat().st_uid
