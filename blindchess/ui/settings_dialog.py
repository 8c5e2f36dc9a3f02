"""The settings dialog (Ctrl+,): language, voice, speech rate, recognition model, port, board profile, theme, font size,
spoken clock warnings, the speech channel, earcons, the live broadcast of the game, how much the blind player hears
(verbosity) and whether the keyboard comes back to the move line after the opponent's move. Everything takes effect
when OK is pressed — the language too, said in the new language (the voice and the recognition model at the next
start).

Every row is a labelled form row (Alt+letter on its caption, a name and a
description for the screen reader); Tab walks the rows in order.
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..base import LANG_NAMES, models_dir, tr
from ..table import VERBOSITIES
from . import a11y, theme
from .new_game import board_profiles, serial_ports
from .settings import CHANNELS, Settings, system_ui_lang
from .text import UI_LANGS, h, t

W = TypeVar("W", bound=QWidget)


def installed_models() -> list[str]:
    """Speech-recognition model folders installed in the user's model folder."""
    try:
        return sorted(str(p) for p in models_dir().iterdir() if p.is_dir())
    except OSError:
        return []


class SettingsDialog(QDialog):
    """Edit a :class:`Settings`; :meth:`store` writes the values back into it."""

    def __init__(self, parent: QWidget | None, settings: Settings, *, lang: str = "de") -> None:
        super().__init__(parent)
        self.settings = settings
        self.lang = lang
        self.setWindowTitle(t("settings.title", lang))
        a11y.label(self, t("settings.title", lang), t("settings.description", lang))
        form = QFormLayout()

        def row(widget: W, key: str) -> W:
            a11y.form_row(form, widget, t(key, lang), t(f"{key}_description", lang))
            return widget

        self.language = row(QComboBox(self), "settings.language")
        system = system_ui_lang()
        self.language.addItem(t("settings.language_system", lang, language=LANG_NAMES[system]), "")
        for code in UI_LANGS:
            self.language.addItem(LANG_NAMES[code], code)   # each language named in its own language
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        self.voice = row(QComboBox(self), "settings.voice")
        self.voice.setEditable(True)
        self.voice.addItem(t("settings.default", lang), "")
        if settings.voice:
            self.voice.addItem(settings.voice, settings.voice)
            self.voice.setCurrentIndex(1)
        self.rate = row(QSpinBox(self), "settings.rate")
        self.rate.setRange(0, 450)
        self.rate.setSpecialValueText(t("settings.default", lang))
        self.rate.setValue(settings.rate)
        self.model = row(QComboBox(self), "settings.model")
        self.model.setEditable(True)
        self.model.addItem(t("settings.by_language", lang), "")
        for model in installed_models():
            self.model.addItem(model, model)
        if settings.model:
            index = self.model.findData(settings.model)
            if index < 0:
                self.model.addItem(settings.model, settings.model)
                index = self.model.count() - 1
            self.model.setCurrentIndex(index)
        self.port = row(QComboBox(self), "settings.port")
        self.port.setEditable(True)
        self.port.addItem(t("settings.no_port", lang), "")
        for device, description in serial_ports():
            self.port.addItem(f"{device} – {description}", device)
        if settings.port:
            index = self.port.findData(settings.port)
            if index < 0:
                self.port.addItem(settings.port, settings.port)
                index = self.port.count() - 1
            self.port.setCurrentIndex(index)
        self.profile = row(QComboBox(self), "settings.profile")
        self.profile.addItem(t("settings.simulator", lang), "simulator")
        for name, title in board_profiles():
            self.profile.addItem(title, name)
        self.profile.setCurrentIndex(max(0, self.profile.findData(settings.board_profile or "simulator")))
        self.theme = row(QComboBox(self), "settings.theme")
        for name in theme.CHOICES:   # "normal" follows the system's dark / high-contrast setting
            self.theme.addItem(t(f"theme.{name}", lang), name)
        self.theme.setCurrentIndex(max(0, self.theme.findData(settings.theme)))
        self.font_scale = row(QDoubleSpinBox(self), "settings.font_scale")
        self.font_scale.setRange(0.8, 3.0)
        self.font_scale.setSingleStep(0.1)
        self.font_scale.setDecimals(1)
        self.font_scale.setValue(settings.font_scale)
        self.warnings = row(QCheckBox(t("settings.warnings_box", lang), self), "settings.warnings")
        self.warnings.setChecked(settings.spoken_clock_warnings)
        self.channel = row(QComboBox(self), "settings.channel")
        for name in CHANNELS:
            self.channel.addItem(tr(f"voice.channel_{name}", lang), name)
        self.channel.setCurrentIndex(max(0, self.channel.findData(settings.speech_channel)))
        self.earcons = row(QCheckBox(t("settings.earcons_box", lang), self), "settings.earcons")
        self.earcons.setChecked(settings.earcons)
        self.verbosity = QComboBox(self)        # how much the blind player hears (table.speech's plan)
        a11y.form_row(form, self.verbosity, h("verbosity", lang), h("verbosity_description", lang))
        for name in VERBOSITIES:
            self.verbosity.addItem(h(f"verbosity_{name}", lang), name)
        self.verbosity.setCurrentIndex(max(0, self.verbosity.findData(settings.verbosity)))
        self.keep_line_focus = QCheckBox(h("keep_line_box", lang), self)
        a11y.form_row(form, self.keep_line_focus, h("keep_line", lang), h("keep_line_description", lang))
        self.keep_line_focus.setChecked(settings.keep_line_focus)
        self.broadcast = QCheckBox(tr("broadcast.setting_box", lang), self)   # off by default (blindchess.broadcast)
        a11y.form_row(form, self.broadcast, tr("broadcast.setting", lang), tr("broadcast.setting_description", lang))
        self.broadcast.setChecked(settings.broadcast)
        self.broadcast_port = QSpinBox(self)
        a11y.form_row(form, self.broadcast_port, tr("broadcast.setting_port", lang),
                      tr("broadcast.setting_port_description", lang))
        self.broadcast_port.setRange(1, 65535)
        self.broadcast_port.setValue(settings.broadcast_port)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        a11y.label(buttons, t("settings.buttons", lang), t("settings.buttons_description", lang))
        for which, key in ((QDialogButtonBox.StandardButton.Ok, "ok"), (QDialogButtonBox.StandardButton.Cancel, "cancel")):
            button = buttons.button(which)
            button.setText(t(key, lang))
            a11y.label(button, t(key, lang), t(f"settings.{key}_description", lang))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def _value(self, combo: QComboBox) -> str:
        """The chosen entry's data, or the text typed into an editable combo box."""
        index = combo.findText(combo.currentText())
        if index >= 0:
            return combo.itemData(index) or ""
        return combo.currentText().strip()

    def store(self) -> None:
        s = self.settings
        s.language = self.language.currentData() or ""     # "": the system's language, followed
        s.lang = s.language or system_ui_lang()
        s.voice = self._value(self.voice)
        s.rate = self.rate.value()
        s.model = self._value(self.model)
        s.port = self._value(self.port)
        s.board_profile = self.profile.currentData() or ""
        s.theme = self.theme.currentData() or "normal"
        s.font_scale = round(self.font_scale.value(), 1)
        s.spoken_clock_warnings = self.warnings.isChecked()
        s.speech_channel = self.channel.currentData() or "auto"
        s.earcons = self.earcons.isChecked()
        s.broadcast = self.broadcast.isChecked()
        s.broadcast_port = self.broadcast_port.value()
        s.verbosity = self.verbosity.currentData() or "normal"
        s.keep_line_focus = self.keep_line_focus.isChecked()
