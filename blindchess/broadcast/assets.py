"""The broadcast's own files: the pages' script (``/live.js``), shipped inside the package."""

from __future__ import annotations

from importlib import resources

from .pages import Page

__all__ = ["LIVE_JS", "JS_TYPE"]

JS_TYPE = "text/javascript; charset=utf-8"

#: The script that keeps the pages up to date (:mod:`.pages`), as served.
LIVE_JS = Page.of(resources.files(__package__).joinpath("live.js").read_bytes(), JS_TYPE)
