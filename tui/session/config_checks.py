"""Checks of config values that the settings model's types do not say, read from one table.

A profile's base URL must pass the client's own rule (https, or plain http to this machine;
ending in ``/v4``), and the theme must be one the app has. They are checked on the file's data
beside the model's validation, so one run of the program names every problem of the file,
these included, each on its line (rather than the first profile used, or a notice in the app).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from tui.session.config_keys import Loc, nearest

THEMES: frozenset[str] = frozenset(
    {
        "ansi-dark",
        "ansi-light",
        "atom-one-dark",
        "atom-one-light",
        "catppuccin-frappe",
        "catppuccin-latte",
        "catppuccin-macchiato",
        "catppuccin-mocha",
        "dracula",
        "flexoki",
        "gruvbox",
        "monokai",
        "nord",
        "rose-pine",
        "rose-pine-dawn",
        "rose-pine-moon",
        "solarized-dark",
        "solarized-light",
        "textual-dark",
        "textual-light",
        "tokyo-night",
    }
)
"""The themes the app offers: Textual's built-in ones (named here, as this headless module
cannot ask Textual; a UI test keeps the two equal)."""

ValueCheck = Callable[[Any], "str | None"]
"""What is wrong with one value (None: nothing). A value of the wrong type passes: the model
says what is wrong with it."""


def base_url_problem(value: Any) -> str | None:
    """Why a profile's base URL would be refused when the profile is used."""
    if not isinstance(value, str):
        return None
    from tui.api.base_url import InsecureBaseUrl, validate_base_url

    try:
        validate_base_url(value)
    except InsecureBaseUrl as exc:
        return str(exc)
    return None


def theme_problem(value: Any) -> str | None:
    """Why a theme's name is not one the app has (with the nearest one, or all of them)."""
    if not isinstance(value, str) or value in THEMES:
        return None
    close = nearest(value, THEMES)
    hint = f"did you mean {close}?" if close else f"the themes are {', '.join(sorted(THEMES))}"
    return f"{value!r} is not a theme; {hint}"


VALUE_CHECKS: tuple[tuple[Loc, ValueCheck], ...] = (
    (("profiles", "*", "base_url"), base_url_problem),
    (("theme",), theme_problem),
)
"""Where a value is in the file (``*``: any key) -> its check."""


def value_problems(data: Mapping[str, Any]) -> list[tuple[Loc, str]]:
    """Every value of ``data`` (the parsed file) that a check of :data:`VALUE_CHECKS` refuses.

    Returns:
        ``(where, what is wrong)`` pairs.
    """
    found: list[tuple[Loc, str]] = []
    for pattern, check in VALUE_CHECKS:
        for loc, value in _values_at(data, pattern):
            problem = check(value)
            if problem is not None:
                found.append((loc, problem))
    return found


def _values_at(node: Any, pattern: Loc, loc: Loc = ()) -> Iterator[tuple[Loc, Any]]:
    """The values of ``node`` at the places ``pattern`` names, with where each is."""
    if not pattern:
        yield loc, node
        return
    if not isinstance(node, Mapping):
        return
    head, rest = pattern[0], pattern[1:]
    keys = list(node) if head == "*" else [head] if head in node else []
    for key in keys:
        yield from _values_at(node[key], rest, (*loc, key))
