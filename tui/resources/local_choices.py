"""Choices read from this machine instead of the API, by name (headless).

A :class:`~tui.resources.forms.ChoiceSource` names one of these in its ``local``: its items are
offered after the listing's (the public keys in ``~/.ssh`` beside the profile's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui.resources.local_keys import local_public_keys

LOCAL_CHOICES: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "ssh_public_keys": local_public_keys,
}
"""Name (``ChoiceSource.local``) -> the reader of its items."""
