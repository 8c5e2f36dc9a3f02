"""blindchess: over-the-board chess between a visually impaired and a sighted
player under the FIDE Laws of Chess, Appendix D.

The core modules (notation, phonetic, session, ruling, clock, pegboard.tracker,
...) use python-chess only; Qt, pyttsx3, vosk and pyserial live in adapters
(blindchess.ui, blindchess.speech, blindchess.pegboard.link).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    #: The installed version, from the package metadata (pyproject.toml is its one source).
    __version__ = version("blindchess")
except PackageNotFoundError:   # a source tree that was never installed
    __version__ = "0+unknown"
del PackageNotFoundError, version

#: Languages whose notation letters blindchess reads and writes (FIDE Laws, Appendix C).
NOTATION_LANGS = ("de", "en", "fr", "it", "nl", "ru")
#: The language when neither ``--lang``, ``BLINDCHESS_LANG``, the saved setting nor the system
#: names one of de, en, nl, ru (German, the language of the phonetic alphabet's numbers, FIDE Laws D.2.1).
DEFAULT_LANG = "de"
