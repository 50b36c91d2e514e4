"""A small declarative schema for JSON read from outside (a pack's manifest): each check takes a value
and where it is ("generation.num_beams") and returns the value to keep (records keep only their
declared keys, with defaults filled in) or raises Invalid naming the place and the problem.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import limits

Check = Callable[[Any, str], Any]


class Invalid(Exception):
    """A value that does not pass its check; the message says where and why."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where} {problem}" if where else problem)


def show(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def integer(low: int, high: int) -> Check:
    def check(value: Any, where: str) -> int:
        if type(value) is not int or not low <= value <= high:
            raise Invalid(where, f"must be a whole number from {low} to {high}, not {show(value)}")
        return value

    return check


def number(low: float, high: float) -> Check:
    def check(value: Any, where: str) -> float:
        if type(value) not in (int, float) or not math.isfinite(value) or not low <= value <= high:
            raise Invalid(where, f"must be a number from {low} to {high}, not {show(value)}")
        return float(value)

    return check


def text(pattern: str = r".+", max_chars: int = limits.MAX_MANIFEST_TEXT, what: str = "") -> Check:
    """A string of printable characters (no control, format or lone surrogate characters) matching pattern."""
    compiled = re.compile(pattern, re.DOTALL)
    what = what or f"printable text of at most {max_chars} characters of the form {pattern}"

    def check(value: Any, where: str) -> str:
        if not (
            isinstance(value, str) and len(value) <= max_chars and value.isprintable() and compiled.fullmatch(value)
        ):
            raise Invalid(where, f"must be {what}, not {show(value)}")
        return value

    return check


def one_of(*choices: Any) -> Check:
    def check(value: Any, where: str) -> Any:
        # by type too: JSON's true is not 1
        if not any(type(value) is type(c) and value == c for c in choices):
            raise Invalid(where, f"must be one of {', '.join(map(json.dumps, choices))}, not {show(value)}")
        return value

    return check


def either(what: str, *checks: Check) -> Check:
    def check(value: Any, where: str) -> Any:
        for candidate in checks:
            try:
                return candidate(value, where)
            except Invalid:
                pass
        raise Invalid(where, f"must be {what}, not {show(value)}")

    return check


def list_of(item: Check, min_items: int, max_items: int) -> Check:
    def check(value: Any, where: str) -> list[Any]:
        if not isinstance(value, list) or not min_items <= len(value) <= max_items:
            raise Invalid(where, f"must be a list of {min_items} to {max_items} items, not {show(value)}")
        return [item(v, f"{where}[{i}]") for i, v in enumerate(value)]

    return check


def map_of(key: Check, value: Check, max_items: int) -> Check:
    def check(raw: Any, where: str) -> dict[str, Any]:
        if not isinstance(raw, dict) or len(raw) > max_items:
            raise Invalid(where, f"must be an object of at most {max_items} entries, not {show(raw)}")
        return {key(k, f"a name in {where}"): value(v, f"{where}.{k}") for k, v in raw.items()}

    return check


def pair(first: Check, second: Check) -> Check:
    """A two-item list, e.g. a language's [token, id]; kept as a tuple."""

    def check(value: Any, where: str) -> tuple[Any, Any]:
        if not isinstance(value, list) or len(value) != 2:
            raise Invalid(where, f"must be a list of two items, not {show(value)}")
        return first(value[0], f"{where}[0]"), second(value[1], f"{where}[1]")

    return check


@dataclass(frozen=True)
class _Optional:
    check: Check
    default: Any


def optional(check: Check, default: Any = None) -> _Optional:
    """A record field that may be missing or null; then `default`, itself passed through the check."""
    return _Optional(check, default)


def record(fields: dict[str, Check | _Optional]) -> Check:
    def check(raw: Any, where: str) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise Invalid(where, f"must be an object, not {show(raw)}")
        out = {}
        for name, spec in fields.items():
            inner = f"{where}.{name}" if where else name
            value = raw.get(name)
            if isinstance(spec, _Optional):
                if value is None:
                    value = spec.default
                out[name] = None if value is None else spec.check(value, inner)
            elif name not in raw:
                raise Invalid(inner, "is missing")
            else:
                out[name] = spec(value, inner)
        return out

    return check


def tagged(key: str, variants: dict[str, Check]) -> Check:
    """An object whose `key` says which record checks it (a pack's architecture, by its family's name)."""

    def check(raw: Any, where: str) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise Invalid(where, f"must be an object, not {show(raw)}")
        kind = raw.get(key)
        if type(kind) is not str or kind not in variants:
            inner = f"{where}.{key}" if where else key
            raise Invalid(inner, f"must be one of {', '.join(map(json.dumps, variants))}, not {show(kind)}")
        return {key: kind, **variants[kind](raw, where)}

    return check


BOOLEAN = one_of(True, False)
