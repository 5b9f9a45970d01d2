"""Where per-profile state lives: the platformdirs data folder (``CLOUDTUI_DATA`` overrides it).

Bookmarks and the activity log are kept per profile under ``<data>/profiles/<name>/``. The
folder is private to the user (0700) and never holds a token or any other secret. The demo
keeps its state apart, in a fresh folder per run (see :func:`demo_dir`).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from platformdirs import user_data_dir

from tui.session.config import APP_NAME

DATA_ENV = "CLOUDTUI_DATA"


def data_dir() -> Path:
    """The data folder: ``$CLOUDTUI_DATA`` or the platform's data folder for cloudtui."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override).expanduser()
    return Path(user_data_dir(APP_NAME))


_DEMO_DIRS: list[tempfile.TemporaryDirectory[str]] = []
"""The demo folders of this process, removed when it exits (by TemporaryDirectory)."""


def _safe_name(name: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "default"
    return safe.replace(".", "_") if safe in (".", "..") else safe


def demo_dir(user: str) -> Path:
    """A new private folder (0700) for one demo run's bookmarks and activity log.

    The demo's simulator is seeded anew on every run, so state kept from an earlier demo, or
    from another demo user, would name objects this one does not have; nothing of it goes to
    the data folder of the real profiles. The folder is removed when the program exits.

    Args:
        user: The demo user (``unrestricted``, ``restricted``, ``readonly``).
    """
    holder = tempfile.TemporaryDirectory(prefix=f"cloudtui-demo-{_safe_name(user)}-")
    _DEMO_DIRS.append(holder)
    return Path(holder.name)


def remove_demo_dirs() -> None:
    """Remove the demo folders of this process now (when it cannot wait for its normal exit)."""
    for holder in _DEMO_DIRS:
        holder.cleanup()


def profile_dir(profile: str, *, create: bool = True) -> Path:
    """The folder of one profile's state (created 0700 when ``create``).

    Args:
        profile: Profile name (``DEMO`` in demo mode); characters outside ``[A-Za-z0-9_.-]``
            are replaced so a name can never leave the folder.
        create: Create the folder when missing.
    """
    path = data_dir() / "profiles" / _safe_name(profile)
    if create:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def write_private(path: Path, text: str) -> None:
    """Write ``text`` atomically to a file readable only by the user (0600)."""
    tmp = path.with_name(f".{path.name}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)
