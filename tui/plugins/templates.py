"""A plugin's command templates: their ``{placeholders}``, and the argv filled from an item.

A placeholder is ``{name}`` or a dotted path into the item (``{specs.vcpus}``, ``{ipv4.0}``);
``{{`` and ``}}`` write a brace; a brace that starts no placeholder (``awk '{print $1}'``)
is text. Each argument of the command stays one argument: an item's value becomes part of
the argument its placeholder is in, and the filled text is never read again (a label
``{shell}`` stays those seven characters) nor handed to a shell. Two more rules keep a value
from changing what runs: a value that would begin an argument with ``-`` is refused unless an
earlier argument is ``--`` (it would be read as an option), and a value holding a NUL byte is
refused. A placeholder never names a secret field (:func:`secret_placeholders`).

The item's fields also reach the program as environment variables (:func:`item_environment`):
``CLOUDTUI_LABEL``, ``CLOUDTUI_IPV4`` ... for a shell script to read as data.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tui.resources.secret_keys import is_secret_key

_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*)\}")

ENV_PREFIX = "CLOUDTUI_"
STANDARD_NAMES = ("id", "label", "ipv4", "ipv6", "region")
"""Placeholders every plugin may expect (when the item has them), also set as variables."""


class PluginError(Exception):
    """A plugin cannot run on this item; the message says why (it never quotes a secret)."""


@dataclass(frozen=True)
class Part:
    """A piece of a template: text, or a placeholder (``name`` set)."""

    text: str = ""
    name: str | None = None


def parse_template(template: str) -> tuple[Part, ...]:
    """``template`` as text and placeholders, in order."""
    parts: list[Part] = []
    pos = 0
    for match in _TOKEN.finditer(template):
        if match.start() > pos:
            parts.append(Part(template[pos : match.start()]))
        token = match.group(0)
        if token in ("{{", "}}"):
            parts.append(Part(token[0]))
        else:
            parts.append(Part(name=match.group(1)))
        pos = match.end()
    if pos < len(template):
        parts.append(Part(template[pos:]))
    return tuple(parts)


def placeholders(template: str) -> tuple[str, ...]:
    """The names of the placeholders in ``template``, in order."""
    return tuple(p.name for p in parse_template(template) if p.name is not None)


def secret_placeholders(command: Iterable[str]) -> list[str]:
    """Placeholders of ``command`` naming a secret (any part of it: ``{creds.password}``)."""
    return [
        name
        for template in command
        for name in placeholders(template)
        if any(is_secret_key(part) for part in name.split("."))
    ]


# -- values of an item ----------------------------------------------------------------------

_PRIVATE = ("10.", "192.168.", *tuple(f"172.{n}." for n in range(16, 32)))


def _ipv4(item: Mapping[str, Any]) -> Any:
    """An instance's first public IPv4 (else its first one); a single address as it is."""
    value = item.get("ipv4")
    if isinstance(value, list):
        addresses = [str(a) for a in value if a]
        public = [a for a in addresses if not a.startswith(_PRIVATE)]
        first = public or addresses
        return first[0] if first else None
    return value


def _ipv6(item: Mapping[str, Any]) -> Any:
    """The IPv6 address without its prefix length (``2600:3c00::1`` from ``.../128``)."""
    value = item.get("ipv6")
    return value.split("/")[0] if isinstance(value, str) else value


DERIVED: Mapping[str, Callable[[Mapping[str, Any]], Any]] = {"ipv4": _ipv4, "ipv6": _ipv6}
"""Placeholders whose value is worked out from the item rather than read as it is."""


def _dig(item: Mapping[str, Any], name: str) -> Any:
    if name in DERIVED:
        return DERIVED[name](item)
    value: Any = item
    for part in name.split("."):
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def value_text(item: Mapping[str, Any], name: str, what: str = "item") -> str:
    """The text a placeholder ``name`` stands for on ``item``.

    Lists of plain values are joined with commas (tags); booleans are ``true``/``false``.

    Raises:
        PluginError: The item has no such value, it is an object, it holds a NUL byte, or
            the name is a secret's.
    """
    if any(is_secret_key(part) for part in name.split(".")):
        raise PluginError(f"{{{name}}} names a secret: a plugin never gets one")
    value = _dig(item, name)
    if value is None:
        raise PluginError(f"the {what} has no {name}")
    if isinstance(value, Mapping) or (
        isinstance(value, list) and any(isinstance(v, Mapping | list) for v in value)
    ):
        raise PluginError(f"{name} of the {what} is not one value: name one of its fields")
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, list):
        text = ",".join(str(v) for v in value)
    else:
        text = str(value)
    if "\0" in text:
        raise PluginError(f"{name} of the {what} holds a NUL byte")
    return text


def fill_command(command: Sequence[str], item: Mapping[str, Any], what: str = "item") -> list[str]:
    """The argv of ``command`` on ``item``: each template one argument, values filled once.

    Args:
        command: The plugin's argument templates.
        item: The selected item as the API gives it.
        what: The item's kind, for messages (``instance``).

    Raises:
        PluginError: A placeholder has no value on the item, or a value would start an
            argument with ``-`` before any ``--``.
    """
    argv: list[str] = []
    options_ended = False
    for template in command:
        parts = parse_template(template)
        if parts and parts[0].name is None and parts[0].text.startswith("~"):
            # The user's own ~ (``~/bin/tool``) is the home folder; a value's never is.
            parts = (Part(os.path.expanduser(parts[0].text)), *parts[1:])
        pieces = [p.text if p.name is None else value_text(item, p.name, what) for p in parts]
        arg = "".join(pieces)
        if parts and parts[0].name is not None and arg.startswith("-") and not options_ended:
            raise PluginError(
                f"{{{parts[0].name}}} of the {what} begins with '-' and would be read as an "
                'option: put "--" before it in the command'
            )
        options_ended = options_ended or template == "--"
        argv.append(arg)
    return argv


def env_name(name: str) -> str:
    """The environment variable of a field: ``CLOUDTUI_SPECS_VCPUS`` for ``specs.vcpus``."""
    return ENV_PREFIX + re.sub(r"[^A-Za-z0-9]+", "_", name).upper()


def item_environment(
    item: Mapping[str, Any], command: Iterable[str] = (), what: str = "item"
) -> dict[str, str]:
    """``CLOUDTUI_*`` variables: the standard names, the command's placeholders and every
    plain top-level field of the item (never a secret), for scripts to read as data."""
    names = [*STANDARD_NAMES, *(n for t in command for n in placeholders(t))]
    names += [
        str(k)
        for k, v in item.items()
        if isinstance(v, str | int | float | bool) and not is_secret_key(k)
    ]
    env: dict[str, str] = {}
    for name in dict.fromkeys(names):
        try:
            env[env_name(name)] = value_text(item, name, what)
        except PluginError:
            continue  # a field the item lacks (or an object) is simply not set
    return env
