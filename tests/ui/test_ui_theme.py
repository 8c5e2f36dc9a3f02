"""Low vision: every text >= 4.5:1 and every mark >= 3:1 in every look, computed from the palette and
the stylesheet the application really has after ``theme.apply``, and from pixels actually drawn; the system's
dark and high-contrast settings are followed; Qt's own texts are German in the German interface."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QLineEdit, QMessageBox, QWidget

from blindchess.ui import qt_translations, theme
from blindchess.ui.panels import ClockPanel
from blindchess.ui.settings import Settings
from blindchess.ui.settings_dialog import SettingsDialog
from tests.support.ui_window import TestClock, open_window

LOOKS = tuple(theme.SCHEMES)
_GROUPS = {"": (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive), "disabled": (QPalette.ColorGroup.Disabled,)}


@pytest.fixture
def app(qtbot):
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    yield application
    theme.apply(application, "light", 1.0)


def _applied(app: QApplication, key: str, group: QPalette.ColorGroup) -> str:
    """The colour of ``key`` as the application has it now: palette roles from ``app.palette()``."""
    kind, _, name = key.rpartition(":")
    if kind in ("app", "board"):
        return theme.colour_of(theme.current(), key)
    role = getattr(QPalette.ColorRole, name)
    return app.palette().color(group if kind != "disabled" else QPalette.ColorGroup.Disabled, role).name()


@pytest.mark.parametrize("look", LOOKS)
def test_every_text_of_the_applied_palette_reaches_4_5_to_1(app, look):
    applied = theme.apply(app, look, 1.0)
    assert applied.name == look and theme.current() is applied
    low = []
    for what, fg, bg in theme.TEXT_ROLES:
        for group in _GROUPS["disabled" if fg.startswith("disabled:") else ""]:
            ratio = theme.contrast(_applied(app, fg, group), _applied(app, bg, group))
            if ratio < theme.TEXT_CONTRAST:
                low.append(f"{what} ({group.name}): {ratio:.2f}")
    assert low == []


@pytest.mark.parametrize("look", LOOKS)
def test_the_palette_applied_is_the_looks_data_and_every_text_role_is_checked(app, look):
    data = theme.apply(app, look, 1.0)
    palette = app.palette()
    for name, colour in data.palette.items():
        assert palette.color(QPalette.ColorGroup.Active, getattr(QPalette.ColorRole, name)).name() == colour, name
    text_roles = {name for name in data.palette if "Text" in name or name.startswith("Link")}
    checked = {fg.rpartition(":")[2] for _what, fg, _bg in theme.TEXT_ROLES}
    assert text_roles <= checked                      # a text colour added to a look is a colour that gets checked


def _stylesheet_pairs(sheet: str, app: QApplication):
    """(selector, text colour, background) for every rule of the applied stylesheet that sets a text colour."""
    palette = app.palette()
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", sheet):
        declarations = {name.strip().lower(): value.strip() for name, _, value in
                        (part.partition(":") for part in body.split(";")) if value}
        fg = declarations.get("color")
        if fg is None:
            continue
        bg = declarations.get("background-color") or declarations.get("background")
        group = QPalette.ColorGroup.Disabled if ":disabled" in selector else QPalette.ColorGroup.Active
        grounds = [bg] if bg else [palette.color(group, QPalette.ColorRole.Window).name(),
                                   palette.color(group, QPalette.ColorRole.Base).name()]
        for ground in grounds:
            yield selector.strip(), fg, ground


@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_every_text_colour_of_the_applied_stylesheet_reaches_4_5_to_1(app, look, scale):
    theme.apply(app, look, scale)
    pairs = list(_stylesheet_pairs(app.styleSheet(), app))
    assert any("problem" in selector for selector, _fg, _bg in pairs)
    low = [(selector, fg, bg, round(theme.contrast(fg, bg), 2)) for selector, fg, bg in pairs
           if theme.contrast(fg, bg) < theme.TEXT_CONTRAST]
    assert low == []


@pytest.mark.parametrize("look", LOOKS)
def test_every_mark_and_frame_reaches_3_to_1(app, look):
    data = theme.apply(app, look, 1.0)
    pairs = theme.mark_pairs(data)
    assert {p.what.split(" on ")[0] for p in pairs} >= {f"board {m}" for m in theme.BOARD_MARKS}
    assert [(p.what, round(p.ratio, 2)) for p in pairs if p.ratio < theme.MARK_CONTRAST] == []


def test_contrast_is_computed_as_wcag_says():
    assert theme.contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert theme.contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert theme.contrast("#b00000", "#000000") == pytest.approx(2.8, abs=0.05)   # the old low-time digits
    with pytest.raises(ValueError):
        theme.relative_luminance("red")


# ------------------------------------------------------------------------------------------- drawn pixels
def _text_contrast(widget: QWidget) -> tuple[str, str, float]:
    """(text colour, background, ratio) as drawn: background = commonest colour, text = commonest other one."""
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    counts: Counter[str] = Counter()
    for y in range(2, image.height() - 2):
        for x in range(2, image.width() - 2):
            counts[QColor(image.pixel(x, y)).name()] += 1
    (background, _n), *others = counts.most_common()
    text = max((c for c, _ in others[:40]), key=lambda c: theme.contrast(c, background))
    return text, background, theme.contrast(text, background)


def _label(text: str, name: str = "", *, enabled: bool = True, bold: bool = True) -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    label.setEnabled(enabled)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 2.5)
    font.setBold(bold)
    label.setFont(font)
    label.setAutoFillBackground(True)
    label.resize(label.sizeHint())
    return label


@pytest.mark.parametrize("look", LOOKS)
def test_texts_as_drawn_reach_4_5_to_1(app, qtbot, look):
    data = theme.apply(app, look, 1.0)
    widgets: list[tuple[str, QWidget, str]] = [
        ("label", _label("Weiß am Zug"), data.palette["WindowText"]),
        ("next step", _label("Nächster Schritt: Anna zieht", "next_step"), data.palette["WindowText"]),
        ("problem", _label("Die Bedenkzeit ist nicht lesbar", "problem"), data.app["problem"]),
        ("disabled", _label("nicht verfügbar", enabled=False), data.disabled["WindowText"]),
    ]
    field = QLineEdit("Vereinsmeisterschaft")
    font = field.font()
    font.setPointSizeF(font.pointSizeF() * 2.5)
    font.setBold(True)
    field.setFont(font)
    field.resize(field.sizeHint())
    widgets.append(("field", field, data.palette["Text"]))
    for what, widget, expected in widgets:
        qtbot.addWidget(widget)
        widget.show()
        text, background, ratio = _text_contrast(widget)
        assert ratio >= theme.TEXT_CONTRAST, (what, text, background)
        assert theme.contrast(text, expected) < 1.2, (what, text, expected)   # the look's colour was drawn


@pytest.mark.parametrize("look", LOOKS)
def test_low_time_clock_digits_are_readable(app, qtbot, look):
    """The low-time digits were #b00000 on black (2.8:1)."""
    theme.apply(app, look, 1.0)
    panel = ClockPanel(lang="de")
    qtbot.addWidget(panel)
    panel.set_state({True: 42.0, False: 3000.0}, True, {True: 30, False: 30})
    panel.show()
    face = panel.faces[True]
    colours = re.findall(r"color:\s*(#[0-9a-fA-F]{6})", face.text())
    assert colours, "low time is shown in a colour of its own"
    ground = app.palette().color(QPalette.ColorRole.Window).name()
    assert [round(theme.contrast(c, ground), 2) for c in colours if theme.contrast(c, ground) < theme.TEXT_CONTRAST] == []


# ------------------------------------------------------------------------------------------- the system's setting
@pytest.mark.parametrize(("system", "look"), [
    (theme.SystemLook(), "light"), (theme.SystemLook(dark=True), "dark"),
    (theme.SystemLook(high_contrast=True), "high-contrast"), (theme.SystemLook(dark=True, high_contrast=True), "high-contrast"),
])
def test_normal_follows_the_system(system, look):
    assert theme.resolve("normal", system) == look
    assert theme.resolve("high-contrast", theme.SystemLook()) == "high-contrast"   # the app's own option
    assert theme.resolve("light", theme.SystemLook(dark=True)) == "light"
    with pytest.raises(ValueError):
        theme.resolve("purple", system)


def test_a_dark_colour_scheme_of_the_system_gives_the_dark_look_live(app, monkeypatch):
    hints = app.styleHints()
    theme.apply(app, "normal", 1.0)
    monkeypatch.setattr(theme, "system_look", lambda _app: theme.SystemLook(dark=True))
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert theme.current().name == "dark" and app.palette().color(QPalette.ColorRole.Window).name() == "#1e1e1e"
    monkeypatch.setattr(theme, "system_look", lambda _app: theme.SystemLook(dark=True, high_contrast=True))
    hints.accessibility().contrastPreferenceChanged.emit(Qt.ContrastPreference.HighContrast)
    assert theme.current().name == "high-contrast" and app.palette().color(QPalette.ColorRole.Window).name() == "#000000"
    theme.apply(app, "light", 1.0)                        # a fixed choice ignores the system
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert theme.current().name == "light"


def test_the_systems_setting_is_read_from_qt(app):
    hints = app.styleHints()
    look = theme.system_look(app)
    assert look.dark == (hints.colorScheme() == Qt.ColorScheme.Dark)
    assert look.high_contrast == (hints.accessibility().contrastPreference() == Qt.ContrastPreference.HighContrast)
    hints.setColorScheme(Qt.ColorScheme.Dark)             # Qt 6.8+: the app asks for a scheme; offscreen may ignore it
    try:
        assert theme.system_look(app).dark == (hints.colorScheme() == Qt.ColorScheme.Dark)
    finally:
        hints.unsetColorScheme()


# ------------------------------------------------------------------------------------------- Qt's own texts
def test_qt_standard_buttons_and_dialogs_speak_the_interface_language(app, qtbot):
    try:
        assert qt_translations.install(app, "de")
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
                               | QDialogButtonBox.StandardButton.Open)
        qtbot.addWidget(box)
        texts = [box.button(b).text().replace("&", "") for b in (QDialogButtonBox.StandardButton.Save,
                 QDialogButtonBox.StandardButton.Cancel, QDialogButtonBox.StandardButton.Open)]
        assert texts == ["Speichern", "Abbrechen", "Öffnen"]
        message = QMessageBox(QMessageBox.Icon.Question, "Frage", "Wirklich?",
                              QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        qtbot.addWidget(message)
        assert message.button(QMessageBox.StandardButton.Yes).text().replace("&", "") == "Ja"
        assert message.button(QMessageBox.StandardButton.No).text().replace("&", "") == "Nein"
        assert qt_translations.install(app, "de")         # a second call replaces, it does not stack
    finally:
        assert not qt_translations.install(app, "en")     # English: Qt's own words, no catalogue
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Save)
    qtbot.addWidget(box)
    assert box.button(QDialogButtonBox.StandardButton.Save).text().replace("&", "") == "Save"


def test_the_app_loads_qts_texts_for_its_language(qtbot):
    """The Save dialog and the standard buttons are German in the German window."""
    try:
        with open_window(qtbot, "de", clock=TestClock()):
            box = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Discard)
            qtbot.addWidget(box)
            assert box.button(QDialogButtonBox.StandardButton.Save).text().replace("&", "") == "Speichern"
            assert box.button(QDialogButtonBox.StandardButton.Discard).text().replace("&", "") == "Verwerfen"
    finally:
        qt_translations.install(QApplication.instance(), "en")


@pytest.mark.parametrize("choice", theme.CHOICES)
def test_every_look_can_be_chosen_in_the_settings_and_survives_a_restart(qtbot, choice):
    dialog = SettingsDialog(None, Settings(), lang="de")
    qtbot.addWidget(dialog)
    offered = [dialog.theme.itemData(i) for i in range(dialog.theme.count())]
    assert offered == list(theme.CHOICES)
    dialog.theme.setCurrentIndex(dialog.theme.findData(choice))
    dialog.store()
    dialog.settings.save()
    assert Settings.load().theme == choice
