"""blindchess: over-the-board chess between a visually impaired and a sighted
player under the FIDE Laws of Chess, Appendix D.

The core modules (notation, phonetic, session, ruling, clock, pegboard.tracker,
...) use python-chess only; Qt, pyttsx3, vosk and pyserial live in adapters
(blindchess.ui, blindchess.adapters.speech, blindchess.adapters.devices.link).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    #: The installed version, from the package metadata (pyproject.toml is its one source).
    __version__ = version("blindchess")
except PackageNotFoundError:   # a source tree that was never installed
    __version__ = "0+unknown"
del PackageNotFoundError, version
