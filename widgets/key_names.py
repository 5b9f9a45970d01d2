"""Keys as the user presses them, after the user's keymap: one way to write a key everywhere.

Bindings name keys by Textual's names (``number_sign``, ``question_mark``, ``ctrl+r``); the
footer, ``?`` help, the command palette and a detail's Actions table show them through
:func:`key_label` (``#``, ``?``, ``ctrl+r``; ``^r`` where room is short), and find the key an
action has after ``[keymap]`` remaps with :func:`bound_keys`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.keys import format_key

from tui.untrusted import Shown, shown


def _one_key(key: str, compact: bool) -> str:
    """One key (``ctrl+number_sign``) as pressed (``ctrl+#``; ``^#`` when ``compact``)."""
    *modifiers, name = key.strip().split("+")
    written = format_key(name)
    if compact and "ctrl" in modifiers:
        modifiers.remove("ctrl")
        written = f"^{written}"
    return "+".join([*modifiers, written])


def key_label(keys: str, *, compact: bool = False) -> Shown:
    """``keys`` (one key or a comma-separated list, Textual's names) as the user presses them.

    Args:
        keys: ``number_sign``, ``ctrl+r``, ``up,k`` ...
        compact: Write ctrl as ``^`` (the footer, where room is short).

    Returns:
        ``#``, ``ctrl+r`` (``^r`` when compact), ``↑, k``; empty for no key.
    """
    # Keys can come from the user's [keymap]: display text like any other value of a file.
    return shown(", ".join(_one_key(key, compact) for key in keys.split(",") if key.strip()))


def bound_keys(app: Any, binding_id: str, default: str) -> str:
    """The keys of the binding ``binding_id`` after the user's keymap (else ``default``).

    Args:
        app: The running app (its keymap, as :meth:`App.set_keymap` set it).
        binding_id: The binding's id (a spec action's id).
        default: The keys the binding declares.
    """
    keymap: Mapping[str, str] = getattr(app, "_keymap", None) or {}
    return keymap.get(binding_id, default)


def action_key_label(app: Any, action: Any) -> Shown:
    """The key of a spec action as pressed, remaps included; empty when it has none."""
    return key_label(bound_keys(app, action.id, action.key or ""))
