"""Qt's own texts in the interface language (German, Dutch, Russian; English is Qt's own).

Qt's file dialogs, message boxes and the standard buttons of a
``QDialogButtonBox`` ("Save", "Cancel", "Open") are translated by Qt's
``qtbase_<lang>.qm`` catalogues, shipped with Qt in
``QLibraryInfo.path(TranslationsPath)`` (``qtbase_de``, ``qtbase_nl``, ``qtbase_ru``). :func:`install` loads the one for the
interface language and makes it the default locale too (number and date
formats of spin boxes and date fields). English needs no catalogue.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

_installed: list[QTranslator] = []


def translations_path() -> str:
    """Where Qt keeps its own catalogues."""
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


def install(app: QCoreApplication, lang: str) -> bool:
    """Use Qt's ``qtbase_<lang>`` texts and ``lang``'s locale in ``app``; replaces an earlier call's catalogue.

    Returns True when a catalogue was loaded (False for English, which is Qt's own language, and for a
    language Qt has no catalogue for — then Qt's English texts stay; nothing is raised).
    """
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    QLocale.setDefault(QLocale(lang))
    if lang.startswith("en"):
        return False
    translator = QTranslator(app)
    if not translator.load(f"qtbase_{lang}", translations_path()):
        return False
    app.installTranslator(translator)
    _installed.append(translator)
    return True
