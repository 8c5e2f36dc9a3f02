"""The window in every language: chosen from the system, BLINDCHESS_LANG, the setting or --lang; the
language choosers offer Deutsch, English, Nederlands, Русский; Qt's own words in Dutch and Russian."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from blindchess.base import i18n
from blindchess.ui import qt_translations
from blindchess.ui.app import app_lang, parse_args
from blindchess.ui.new_game import NewGameDialog
from blindchess.ui.settings import Settings, system_ui_lang

OWN_NAMES = ["Deutsch", "English", "Nederlands", "Русский"]


@pytest.mark.parametrize("lang", i18n.UI_LANGS)
def test_the_new_game_dialog_offers_all_four_each_named_in_its_own_language(qtbot, lang):
    dlg = NewGameDialog(None, lang=lang)
    qtbot.addWidget(dlg)
    combo = dlg.language
    assert [combo.itemText(i) for i in range(combo.count())] == OWN_NAMES
    assert [combo.itemData(i) for i in range(combo.count())] == list(i18n.UI_LANGS)
    assert dlg.windowTitle() == i18n.tr("ui.new.title", lang)


@pytest.mark.parametrize(("lang", "cancel", "save"), [("nl", "Annuleren", "Opslaan"), ("ru", "Отмена", "Сохранить")])
def test_qts_own_buttons_speak_dutch_and_russian(qtbot, lang, cancel, save):
    app = QApplication.instance()
    try:
        assert qt_translations.install(app, lang)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        qtbot.addWidget(box)
        texts = [box.button(b).text().replace("&", "") for b in (QDialogButtonBox.StandardButton.Cancel,
                                                                 QDialogButtonBox.StandardButton.Save)]
        assert texts == [cancel, save]
    finally:
        qt_translations.install(app, "en")


def test_app_lang_accepts_every_language_and_refuses_others(monkeypatch, capsys):
    assert parse_args(["--lang", "nl"]).lang == "nl" and parse_args(["--lang", "ru"]).lang == "ru"
    with pytest.raises(SystemExit) as stop:
        parse_args(["--lang", "fr"])
    assert stop.value.code == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1
    monkeypatch.setenv("BLINDCHESS_LANG", "ru_RU.UTF-8")
    assert app_lang(None) == "ru"
    assert app_lang("nl") == "nl"
    monkeypatch.setenv("BLINDCHESS_LANG", "fr")
    assert app_lang(None) is None          # not a language of the program: the saved setting decides
    i18n.use_lang("nl")                    # blindchess --lang nl (the whole command line's language)
    try:
        assert app_lang(None) == "nl"
    finally:
        i18n.use_lang(None)


@pytest.mark.parametrize(("env", "lang"), [("nl_NL.UTF-8", "nl"), ("ru_RU.UTF-8", "ru"), ("en_US.UTF-8", "en")])
def test_without_a_saved_setting_the_window_takes_the_systems_language(monkeypatch, env, lang):
    monkeypatch.setenv("LANG", env)
    assert system_ui_lang() == lang
    assert Settings.load().lang == lang
    saved = Settings.load()
    saved.language = "de"
    saved.save()
    assert Settings.load().lang == "de"    # a language chosen in the settings is kept
