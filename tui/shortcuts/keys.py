"""Key names as Textual's bindings spell them, so keys from the config file can be compared.

``?`` is ``question_mark``, ``:`` is ``colon``, ``F5`` is ``f5``, ``Ctrl+G`` is ``ctrl+g``; a
letter keeps its case (``P`` is shift+p). The rule is Textual's own (a character's Unicode name
in snake case, with a few short names), written here so headless checks need no Textual.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_SHORT_NAMES = {
    "solidus": "slash",
    "reverse_solidus": "backslash",
    "commercial_at": "at",
    "hyphen_minus": "minus",
    "plus_sign": "plus",
    "low_line": "underscore",
}
_MODIFIERS = ("ctrl", "alt", "shift", "meta", "super", "hyper")


def character_key(char: str) -> str:
    """The key name of one typed character (``?`` -> ``question_mark``)."""
    if char.isalnum():
        return char
    try:
        name = unicodedata.name(char).lower().replace("-", "_").replace(" ", "_")
    except ValueError:
        return char
    return _SHORT_NAMES.get(name, name)


def normalize_key(key: str) -> str:
    """``key`` as a binding names it: modifiers in lower case, the key itself by its name.

    Examples: ``"Ctrl+G"`` -> ``"ctrl+g"``, ``"?"`` -> ``"question_mark"``, ``"F5"`` ->
    ``"f5"``, ``"P"`` -> ``"P"``.
    """
    text = key.strip()
    if len(text) == 1:
        return character_key(text)
    parts = text.split("+")
    if len(parts) > 1 and parts[-1] == "" and parts[-2] == "":
        parts = [*parts[:-2], "+"]  # "ctrl++" is ctrl and the plus key
    *modifiers, last = parts
    mods = [m.strip().lower() for m in modifiers]
    if len(last) == 1:
        name = character_key(last)
        if mods and name.isalpha():
            name = name.lower()  # ctrl+G is ctrl+g to a terminal
    else:
        name = last.strip().lower()
    return "+".join([*mods, name])


def split_keys(keys: str) -> list[str]:
    """The keys of a binding's key list (``"up,k"``), normalised."""
    return [normalize_key(k) for k in re.split(r"\s*,\s*", keys.strip()) if k]


def is_one_key(key: str) -> bool:
    """True when ``key`` names one key (no list, no spaces, known modifiers only)."""
    text = key.strip()
    if not text or ("," in text and len(text) > 1) or " " in text:
        return False
    *modifiers, _last = normalize_key(text).split("+") if len(text) > 1 else [text]
    return all(m in _MODIFIERS for m in modifiers)


def key_set(keys: Iterable[str]) -> set[str]:
    """Normalised keys of several binding key lists."""
    return {k for keys_text in keys for k in split_keys(keys_text)}
