"""The desktop app (PySide6): the only package that imports Qt widgets.

Other packages import this face, never its modules."""

from __future__ import annotations

from .app import add_arguments, main
from .broadcasting import use

__all__ = [
    "add_arguments", "main", "use",
]
