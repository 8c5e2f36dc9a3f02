"""The new-game dialog: who plays, who is visually impaired, the clock, the start position, the tactile board.

The dialog only collects a :class:`GameSetup`; the window turns it into a
session (``Session.new``). Time controls are checked by ``clock.TimeControl.parse``
and Chess960 numbers by ``chess960.check_number`` — their messages are shown in
the dialog, nothing is created until everything is valid.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from . import a11y
from .text import UI_LANGS, t

#: Time controls offered (PGN TimeControl-like, as ``clock.TimeControl.parse`` reads them).
TIME_CONTROLS = ("40/5400+30:1800+30", "90+30", "60+30", "25+10", "15+10", "5+3", "")


@dataclass
class GameSetup:
    """Everything needed to start a game."""

    white: str = ""
    black: str = ""
    white_impaired: bool = True
    black_impaired: bool = False
    assistant: str = ""
    time_control: str = "90+30"
    chess960: int | None = None         # None = standard chess
    tactile: str = "simulator"          # "none" | "simulator" | "profile" (port found by the profile) | "serial"
    port: str = ""                      # for "serial"
    profile: str = ""                   # boards/<profile>.toml for "profile" and "serial"
    lang: str = "de"
    notes: list[str] = field(default_factory=list)


def serial_ports() -> list[tuple[str, str]]:
    """(device, description) of the serial ports present now (pyserial's detection)."""
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    try:
        return [(p.device, p.description or p.device) for p in list_ports.comports()]
    except OSError:
        return []


def board_profiles() -> list[tuple[str, str]]:
    """(name, title) of the tactile-board profiles shipped in ``boards/`` except the simulator."""
    try:
        from ..pegboard.profiles import available_profiles, load_profile
    except ImportError:
        return []
    found = []
    for name in available_profiles():
        if name == "simulator":
            continue
        try:
            found.append((name, load_profile(name).title))
        except Exception:  # noqa: BLE001 - a broken profile file is simply not offered
            continue
    return found


def check_time_control(text: str, lang: str) -> str | None:
    """None when ``text`` is a valid time control (or empty = no clock), else the message."""
    if not text.strip():
        return None
    try:
        from ..clock import TimeControl
    except ImportError:
        return None  # the clock module is not there yet: accepted as written
    try:
        TimeControl.parse(text.strip())
    except Exception as exc:  # noqa: BLE001 - the parser's own message (UserError/ValueError)
        return t("new.bad_time_control", lang, text=text, error=exc)
    return None


class NewGameDialog(QDialog):
    """Ask for a :class:`GameSetup`; ``setup()`` returns it after ``accept``."""

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de", initial: GameSetup | None = None) -> None:
        super().__init__(parent)
        self.lang = lang
        self.chosen: GameSetup | None = None
        init = initial or GameSetup(lang=lang)
        self.setWindowTitle(t("new.title", lang))
        a11y.label(self, t("new.title", lang), t("new.description", lang))
        form = QFormLayout()

        def field_(widget: QWidget, key: str) -> QWidget:
            return a11y.form_row(form, widget, t(key, lang), t(f"{key}_description", lang))

        self.white = field_(QLineEdit(init.white, self), "new.white")
        self.white.setPlaceholderText(t("white", lang))
        self.black = field_(QLineEdit(init.black, self), "new.black")
        self.black.setPlaceholderText(t("black", lang))
        self.swap = field_(QPushButton(t("new.swap", lang), self), "new.swap_button")
        self.swap.clicked.connect(self._swap)
        self.white_impaired = field_(QCheckBox(t("new.impaired_box", lang), self), "new.white_impaired")
        self.white_impaired.setChecked(init.white_impaired)
        self.black_impaired = field_(QCheckBox(t("new.impaired_box", lang), self), "new.black_impaired")
        self.black_impaired.setChecked(init.black_impaired)
        self.assistant = field_(QLineEdit(init.assistant, self), "new.assistant")

        self.time_control = field_(QComboBox(self), "new.time_control")
        self.time_control.setEditable(True)
        for tc in TIME_CONTROLS:
            self.time_control.addItem(tc or t("new.no_clock", lang), tc)
        self.time_control.setCurrentText(init.time_control or t("new.no_clock", lang))
        a11y.label(self.time_control.lineEdit(), t("new.time_control", lang), t("new.time_control_description", lang))

        start = QWidget(self)
        row = QHBoxLayout(start)
        row.setContentsMargins(0, 0, 0, 0)
        self.standard = QRadioButton(t("new.standard", lang), start)
        self.fischer = QRadioButton(t("new.chess960", lang), start)
        self.number = QSpinBox(start)
        self.number.setRange(0, 959)
        self.number.setValue(init.chess960 if init.chess960 is not None else 518)
        self.random = QCheckBox(t("new.random", lang), start)
        for widget, key in ((self.standard, "new.standard"), (self.fischer, "new.chess960"),
                            (self.number, "new.number"), (self.random, "new.random")):
            a11y.label(widget, t(key, lang), t(f"{key}_description", lang))
            row.addWidget(widget)
        (self.fischer if init.chess960 is not None else self.standard).setChecked(True)
        self.fischer.toggled.connect(self._update_enabled)
        self.random.toggled.connect(self._update_enabled)
        caption = QLabel(t("new.start", lang), self)
        a11y.label(caption, t("new.start", lang), t("new.start_description", lang))
        caption.setBuddy(self.standard)
        form.addRow(caption, start)

        self.tactile = field_(QComboBox(self), "new.tactile")
        self.tactile.addItem(t("new.tactile_none", lang), ("none", ""))
        self.tactile.addItem(t("new.tactile_simulator", lang), ("simulator", ""))
        profiles = board_profiles()
        for name, title in profiles:
            self.tactile.addItem(t("new.tactile_profile", lang, title=title), ("profile", name))
        for device, description in serial_ports():
            self.tactile.addItem(t("new.tactile_port", lang, port=device, description=description), ("serial", device))
        wanted = (init.tactile, init.profile if init.tactile == "profile" else init.port)
        index = self.tactile.findData(wanted)
        self.tactile.setCurrentIndex(index if index >= 0 else (1 if init.tactile == "simulator" else 0))
        self.profile = field_(QComboBox(self), "new.profile")
        for name, title in profiles:
            self.profile.addItem(title, name)
        if init.profile:
            self.profile.setCurrentIndex(max(0, self.profile.findData(init.profile)))
        self.tactile.currentIndexChanged.connect(self._update_enabled)

        self.language = field_(QComboBox(self), "new.language")
        for code in UI_LANGS:
            self.language.addItem(t(f"lang.{code}", lang), code)
        self.language.setCurrentIndex(max(0, self.language.findData(init.lang)))

        self.problem = QLabel("", self)
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00000; font-weight: bold;")
        a11y.label(self.problem, t("new.problem", lang), t("new.problem_description", lang))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        a11y.label(buttons, t("new.buttons", lang), t("new.buttons_description", lang))
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(t("new.start_game", lang))
        a11y.label(ok, t("new.start_game", lang), t("new.start_game_description", lang))
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setText(t("cancel", lang))
        a11y.label(cancel, t("cancel", lang), t("new.cancel_description", lang))
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self._update_enabled()
        self.white.setFocus(Qt.FocusReason.OtherFocusReason)

    def _swap(self) -> None:
        white, black = self.white.text(), self.black.text()
        self.white.setText(black)
        self.black.setText(white)
        wi, bi = self.white_impaired.isChecked(), self.black_impaired.isChecked()
        self.white_impaired.setChecked(bi)
        self.black_impaired.setChecked(wi)

    def _update_enabled(self) -> None:
        self.number.setEnabled(self.fischer.isChecked() and not self.random.isChecked())
        self.random.setEnabled(self.fischer.isChecked())
        self.profile.setEnabled(self.tactile.currentData()[0] == "serial")

    def _time_control_text(self) -> str:
        index = self.time_control.findText(self.time_control.currentText())
        if index >= 0:
            return self.time_control.itemData(index) or ""
        return self.time_control.currentText().strip()

    def setup(self) -> GameSetup:
        """The game as entered (a random Chess960 number is drawn here, once)."""
        chess960 = None
        if self.fischer.isChecked():
            if self.random.isChecked():
                from .. import chess960 as c960
                chess960 = c960.random_number()
            else:
                chess960 = self.number.value()
        kind, port = self.tactile.currentData()
        profile = ""
        if kind == "profile":
            profile, port = port, ""
        elif kind == "serial":
            profile = self.profile.currentData() or ""
        return GameSetup(
            white=self.white.text().strip() or t("white", self.lang),
            black=self.black.text().strip() or t("black", self.lang),
            white_impaired=self.white_impaired.isChecked(), black_impaired=self.black_impaired.isChecked(),
            assistant=self.assistant.text().strip(), time_control=self._time_control_text(),
            chess960=chess960, tactile=kind, port=port, profile=profile,
            lang=self.language.currentData() or self.lang,
        )

    def _accept(self) -> None:
        problem = check_time_control(self._time_control_text(), self.lang)
        if problem is None and not (self.white_impaired.isChecked() or self.black_impaired.isChecked()):
            problem = t("new.nobody_impaired", self.lang)
        if problem:
            self.problem.setText(problem)
            a11y.announce(self.problem, problem, assertive=True)
            return
        self.chosen = self.setup()
        self.accept()
