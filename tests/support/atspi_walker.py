"""The AT-SPI side of tests/ui/test_atspi.py: walks an application's accessibility tree and types keys through AT-SPI.

Runs under the system's Python (Debian's python3-pyatspi; the project's venv cannot
import it): ``/usr/bin/python3 tests/support/atspi_walker.py APP_NAME``. It answers one JSON
command per stdin line with one JSON line on stdout: ``{"ok": true, "result": …}`` or
``{"ok": false, "error": "…"}``. Commands:

``{"cmd": "windows"}``
    the application's showing top-level windows: ``[{"role", "name"}]`` (empty while it is not registered yet);
``{"cmd": "tree", "window": NAME}``
    the showing objects of that window (``null``: every window) as nested nodes
    ``{"role", "name", "description", "states", "text"?, "value"?, "table"?, "children"}``;
    a table gives ``{"rows", "columns"}`` and its cells are not listed as children;
``{"cmd": "table", "name": NAME}``
    the showing table called NAME: ``{"rows", "columns", "cells": [[row, column, name, description, states]],
    "row_headers", "column_headers"}``;
``{"cmd": "squares", "name": NAME}``
    the showing group called NAME (a board: 64 squares as list items, in reading order):
    ``{"role", "squares": [[name, description, states]]}``;
``{"cmd": "focused"}``
    the object with the keyboard focus (a node without children, plus ``"table"``: the name of the table
    it is a cell of, ``"row"``/``"column"``; ``"group"``: the name of the group — a board — it is an item
    of, ``"index"``), or ``null``;
``{"cmd": "keys", "keys": [...]}``
    keys typed through AT-SPI (the registry's device controller, XTest on X11): ``"ctrl+n"``,
    ``"shift+Tab"``, ``"Return"``, ``"e"``, ``"F1"``, or ``"text:Anna"`` for a string.

Stale objects (a window closing while it is read) are skipped, not reported.
"""

from __future__ import annotations

import json
import sys

import pyatspi

KEYSYMS = {
    "Tab": 0xFF09, "Return": 0xFF0D, "Escape": 0xFF1B, "space": 0x20, "BackSpace": 0xFF08,
    "Left": 0xFF51, "Up": 0xFF52, "Right": 0xFF53, "Down": 0xFF54, "Home": 0xFF50, "End": 0xFF57,
    "Page_Up": 0xFF55, "Page_Down": 0xFF56, "minus": 0x2D, "plus": 0x2B, "comma": 0x2C,
    **{f"F{n}": 0xFFBE + n - 1 for n in range(1, 13)},
}
MODIFIERS = {"shift": 1, "ctrl": 4, "alt": 8}
STATES = ("focused", "focusable", "selected", "selectable", "checked", "showing", "editable", "enabled")
MAX_NODES = 3000


def _app(name: str):
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == name:
            return app
    return None


def _states(node) -> list[str]:
    return [s for s in (pyatspi.stateToString(x) for x in node.getState().getStates()) if s in STATES]


def _node(node, *, children: bool, budget: list[int]) -> dict | None:
    budget[0] -= 1
    if budget[0] < 0:
        return None
    try:
        states = _states(node)
        role = node.getRoleName()
        entry: dict = {"role": role, "name": node.name or "", "description": node.description or "",
                       "states": states}
        interfaces = pyatspi.listInterfaces(node)
        if "Text" in interfaces:
            text = node.queryText()
            entry["text"] = text.getText(0, -1)
        if "Value" in interfaces:
            entry["value"] = node.queryValue().currentValue
        if role == "table":
            table = node.queryTable()
            entry["table"] = {"rows": table.nRows, "columns": table.nColumns}
            entry["children"] = []
            return entry
        if children:
            kids = []
            for child in node:
                if child is None:
                    continue
                try:
                    if not child.getState().contains(pyatspi.STATE_SHOWING) and child.getRoleName() != "dialog":
                        continue
                except Exception:  # noqa: BLE001 - a stale object of a closing window
                    continue
                sub = _node(child, children=True, budget=budget)
                if sub is not None:
                    kids.append(sub)
            entry["children"] = kids
        return entry
    except Exception:  # noqa: BLE001 - a stale object of a closing window
        return None


def _windows(app) -> list:
    return [w for w in app if w is not None] if app is not None else []


def _find(node, predicate):
    """The first showing object under ``node`` (tables' cells not searched) for which ``predicate`` holds."""
    stack = [node]
    while stack:
        current = stack.pop()
        try:
            if current is not node and not _showing(current):
                continue
            if predicate(current):
                return current
            if current.getRoleName() == "table":
                continue
            stack.extend(c for c in current if c is not None)
        except Exception:  # noqa: BLE001 - stale
            continue
    return None


def _showing(node) -> bool:
    return node.getState().contains(pyatspi.STATE_SHOWING)


def table(app, name: str) -> dict | None:
    found = None
    for window in _windows(app):
        found = _find(window, lambda n: n.getRoleName() == "table" and n.name == name and _showing(n))
        if found is not None:
            break
    if found is None:
        return None
    t = found.queryTable()
    cells = []
    for row in range(t.nRows):
        for column in range(t.nColumns):
            cell = t.getAccessibleAt(row, column)
            cells.append([row, column, cell.name or "", cell.description or "", _states(cell)])
    row_headers = [(t.getRowHeader(r).name if t.getRowHeader(r) is not None else "") for r in range(t.nRows)]
    column_headers = [(t.getColumnHeader(c).name if t.getColumnHeader(c) is not None else "")
                      for c in range(t.nColumns)]
    return {"rows": t.nRows, "columns": t.nColumns, "cells": cells, "row_headers": row_headers,
            "column_headers": column_headers}


def squares(app, name: str) -> dict | None:
    """The group called ``name`` whose children are list items (a board): each item's name, description, states."""
    found = None
    for window in _windows(app):
        found = _find(window, lambda n: n.name == name and n.getRoleName() != "table" and n.childCount
                      and n[0] is not None and n[0].getRoleName() == "list item" and _showing(n))
        if found is not None:
            break
    if found is None:
        return None
    items = [[c.name or "", c.description or "", _states(c)] for c in found if c is not None]
    return {"role": found.getRoleName(), "squares": items}


def focused(app) -> dict | None:
    """The focused widget of the active window; for a table, its focused cell (the cursor) when it has one."""
    windows = sorted(_windows(app), key=lambda w: not w.getState().contains(pyatspi.STATE_ACTIVE))
    for window in windows:
        node = _find(window, lambda n: n.getState().contains(pyatspi.STATE_FOCUSED)
                     and n.getRoleName() not in ("frame", "dialog", "window"))
        if node is None:
            continue
        group = None
        # a group (the board): its focused item; not a text field, whose focused child is only its viewport
        if node.getRoleName() not in ("table", "text") and node.childCount:
            item = next((c for c in node if c is not None and c.getState().contains(pyatspi.STATE_FOCUSED)), None)
            if item is not None:
                group, node = node, item
        table_node = node if node.getRoleName() == "table" else None
        if table_node is not None:
            cell = next((c for c in table_node if c is not None and c.getState().contains(pyatspi.STATE_FOCUSED)),
                        None)
            node = cell if cell is not None else node
        entry = _node(node, children=False, budget=[1]) or {}
        if table_node is not None and node is not table_node:
            position = node.queryTableCell().position
            entry.update(table=table_node.name, row=position[1], column=position[2])
        elif table_node is not None:
            entry.update(table=table_node.name)
        if group is not None:
            entry.update(group=group.name, index=node.getIndexInParent())
        entry["window"] = window.name
        return entry
    return None


def keys(specs: list[str]) -> None:
    registry = pyatspi.Registry
    for spec in specs:
        if spec.startswith("text:"):
            registry.generateKeyboardEvent(0, spec[len("text:"):], pyatspi.KEY_STRING)
            continue
        *mods, key = spec.split("+") if spec != "+" else ["+"]
        mask = sum(MODIFIERS[m.lower()] for m in mods)
        keysym = KEYSYMS.get(key, ord(key) if len(key) == 1 else None)
        if keysym is None:
            raise ValueError(f"unknown key {key!r}")
        if mask:
            registry.generateKeyboardEvent(mask, None, pyatspi.KEY_LOCKMODIFIERS)
        registry.generateKeyboardEvent(keysym, None, pyatspi.KEY_SYM)
        if mask:
            registry.generateKeyboardEvent(mask, None, pyatspi.KEY_UNLOCKMODIFIERS)


def handle(name: str, command: dict):
    app = _app(name)
    cmd = command["cmd"]
    if cmd == "windows":
        return [{"role": w.getRoleName(), "name": w.name} for w in _windows(app) if _showing(w)]
    if app is None:
        raise LookupError(f"application {name!r} is not registered")
    if cmd == "tree":
        wanted = command.get("window")
        budget = [MAX_NODES]
        return [_node(w, children=True, budget=budget) for w in _windows(app) if wanted is None or w.name == wanted]
    if cmd == "table":
        return table(app, command["name"])
    if cmd == "squares":
        return squares(app, command["name"])
    if cmd == "focused":
        return focused(app)
    if cmd == "keys":
        keys(command["keys"])
        return None
    raise ValueError(f"unknown command {cmd!r}")


def main() -> None:
    name = sys.argv[1]
    pyatspi.Registry.getDesktop(0)   # starts the accessibility bus and the registry when they are not running
    print(json.dumps({"ok": True, "result": "started"}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            reply = {"ok": True, "result": handle(name, json.loads(line))}
        except Exception as exc:  # noqa: BLE001 - every failure goes back to the test as text
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
