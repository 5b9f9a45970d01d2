"""Choices read from this machine instead of the API, by name (headless).

A :class:`~tui.resources.forms.ChoiceSource` names one of these in its ``local``: its items are
offered after the listing's (the public keys in ``~/.ssh`` beside the profile's), or alone for a
source without a listing (the time zones and country codes of the system's time zone
database, the media types Python knows).
"""

from __future__ import annotations

import mimetypes
import zoneinfo
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tui.resources.local_keys import local_public_keys


def time_zones() -> list[dict[str, Any]]:
    """The IANA time zones of this machine's database (none without tzdata: typed then)."""
    return [{"name": name} for name in sorted(zoneinfo.available_timezones())]


def countries() -> list[dict[str, Any]]:
    """The ISO 3166 country codes with their names, from the time zone database's
    ``iso3166.tab`` (none without tzdata: the code is typed then)."""
    for folder in zoneinfo.TZPATH:
        try:
            text = (Path(folder) / "iso3166.tab").read_text(encoding="utf-8")
        except OSError:
            continue
        rows = (line.split("\t", 1) for line in text.splitlines() if not line.startswith("#"))
        return [{"code": code, "name": name.strip()} for code, name in rows if len(code) == 2]
    return []


def media_types() -> list[dict[str, Any]]:
    """The media types Python's table maps file extensions to (``text/html``)."""
    if not mimetypes.inited:  # read the system's tables once, as mimetypes itself does
        mimetypes.init()
    known = {*mimetypes.types_map.values(), *mimetypes.common_types.values()}
    return [{"type": kind} for kind in sorted(known)]


LOCAL_CHOICES: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "ssh_public_keys": local_public_keys,
    "time_zones": time_zones,
    "media_types": media_types,
    "countries": countries,
}
"""Name (``ChoiceSource.local``) -> the reader of its items."""
