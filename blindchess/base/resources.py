"""Where the shipped data lives: ``voices/``, ``boards/`` and the user guide ``docs/user/``.

In a checkout they are the top-level folders; in an installed wheel they are
the packages ``blindchess._voices``, ``blindchess._boards`` and ``blindchess._guide``.
They are found from any working directory.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]    # blindchess/
_CHECKOUT = _PACKAGE.parent


def _data_dir(name: str, package: str) -> Path:
    local = _CHECKOUT.joinpath(*name.split("/"))
    if local.is_dir() and (_CHECKOUT / "pyproject.toml").is_file():
        return local
    return _PACKAGE / package.rpartition(".")[2]


def voices_dir() -> Path:
    """The folder with the spoken vocabularies, ``<lang>.toml``."""
    return _data_dir("voices", "blindchess._voices")


def boards_dir() -> Path:
    """The folder with board profiles, protocol notes and firmware."""
    return _data_dir("boards", "blindchess._boards")


def guide_dir() -> Path:
    """The folder with the user guide, one folder of Markdown pages per language (``en/index.md`` …)."""
    return _data_dir("docs/user", "blindchess._guide")


def locale_dir() -> Path:
    """The folder with the user-interface message catalogues."""
    return Path(__file__).resolve().parent / "locale"
