"""The one event base and the one JSON codec (pure).

Every event of the program — the rules engine's (:mod:`blindchess.game.events`) and the
table's (:mod:`blindchess.table.events`) — is a frozen dataclass derived from
:class:`Event`: its time ``t`` (seconds, passed in), its JSON ``TYPE`` and its fields.
Each family writes its own line around the fields (the journal adds ``seq`` and
``derived``, the scenario report rounds ``t``), and both write and read the fields with
this one codec, driven by the fields' types (:func:`typing.get_type_hints`):

* :func:`encode_fields` — a dataclass's fields as JSON values, in declaration order:
  tuples become lists, mappings objects, a nested dataclass an object of its fields.
* :func:`decode_fields` — the JSON values back as the fields hold them, checked against
  their types: ``str`` and ``Literal`` names must be text (and one of the names),
  ``int`` a whole number, ``float`` a finite number, tuples and mappings element by
  element, a nested dataclass from an object (or by its own ``from_dict`` when it reads
  older forms leniently). ``bool`` takes any JSON value's truth and ``str | None`` any
  scalar's text, as every earlier version's reader did. Keys the class does not have
  are left out (older versions' ``message``, ``article``); a missing field takes its
  default. Raises TypeError / ValueError for a value of the wrong kind (a damaged or
  edited line) and KeyError for a missing field without a default.

:class:`Fact` is the base of the small typed records a layer keeps in the journal's
notes (``kind`` and fields): written with :func:`encode_fields`, read with
:func:`decode_fields`.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Union, get_args, get_origin

__all__ = ["Event", "Fact", "encode_fields", "decode_fields", "json_value"]

@dataclass(frozen=True)
class Event:
    """What happened, when: ``t`` (seconds, passed in by the front end) and the JSON ``TYPE``."""

    TYPE: ClassVar[str] = ""
    t: float


@dataclass(frozen=True)
class Fact:
    """A typed record kept in a journal note: ``KIND`` names it, its fields are the note's keys."""

    KIND: ClassVar[str] = ""


# ====================================================================== writing
def json_value(value: Any) -> Any:
    """``value`` as JSON: a dataclass as an object of its fields, tuples and lists as lists, mappings as
    objects (keys as text); anything else as it is."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return encode_fields(value)
    if isinstance(value, (tuple, list)):
        return [json_value(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): json_value(v) for k, v in value.items()}
    return value


def encode_fields(obj: Any, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The fields of the dataclass ``obj`` (but ``skip``) as JSON values, in declaration order."""
    return {f.name: json_value(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.name not in skip}


# ====================================================================== reading
_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    """The fields' types of ``cls``, resolved once."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def decode_fields(cls: type[Any], data: Mapping[str, Any], skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """The keyword arguments that build ``cls`` from ``data`` (see the module docstring): every field
    of ``cls`` (but ``skip``) found in ``data``, as its type holds it."""
    hints = _hints(cls)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in skip or not f.init or f.name not in data:
            continue
        out[f.name] = _value(hints[f.name], data[f.name], f"{cls.__name__}.{f.name}")
    return out


def _value(hint: Any, value: Any, where: str) -> Any:
    """``value`` read as ``hint`` holds it; TypeError/ValueError when it cannot be."""
    if hint is Any:
        return value
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        arms = [a for a in get_args(hint) if a is not type(None)]
        if value is None:
            if len(arms) < len(get_args(hint)):
                return None
            raise TypeError(f"{where}: {value!r}")
        if arms == [str]:
            return str(value)                    # as earlier versions read optional text
        problem: Exception | None = None
        for arm in arms:
            try:
                return _value(arm, value, where)
            except (TypeError, ValueError) as exc:
                problem = exc
        assert problem is not None
        raise problem
    if origin is Literal:
        if not isinstance(value, str):
            raise TypeError(f"{where}: {value!r}")
        if value not in get_args(hint):
            raise ValueError(f"{where}: {value!r}")
        return value
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{where}: {value!r}")
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(args[0], v, where) for v in value)
        if len(args) != len(value):
            raise ValueError(f"{where}: {value!r}")
        return tuple(_value(a, v, where) for a, v in zip(args, value, strict=True))
    if origin is list:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{where}: {value!r}")
        (arg,) = get_args(hint) or (Any,)
        return [_value(arg, v, where) for v in value]
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        if not isinstance(value, Mapping):
            raise TypeError(f"{where}: {value!r}")
        args = get_args(hint)
        item = args[1] if len(args) == 2 else Any
        return {str(k): _value(item, v, where) for k, v in value.items()}
    if hint is bool:
        return bool(value)
    if hint is str:
        if not isinstance(value, str):
            raise TypeError(f"{where}: {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{where}: {value!r}")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise TypeError(f"{where}: {value!r}")
        return float(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        reader = getattr(hint, "from_dict", None)
        if reader is not None:
            return reader(value)
        if not isinstance(value, Mapping):
            raise TypeError(f"{where}: {value!r}")
        return hint(**decode_fields(hint, value))
    return value
