"""The local folder the last download went to, kept per profile so the next one starts there.

Plain text in the profile's data folder (``<data>/profiles/<name>/last_download_folder``); a
folder that no longer exists is forgotten and the current directory offered instead.
"""

from __future__ import annotations

from pathlib import Path

from tui.session.datadir import profile_dir, write_private

FILE_NAME = "last_download_folder"


def last_download_folder(profile: str, *, folder: Path | None = None) -> Path:
    """Where the next download dialog starts: the last folder used, else the current one.

    Args:
        profile: The profile name (``DEMO`` in demo mode).
        folder: The profile's data folder (tests); the usual one when None.
    """
    path = (folder or profile_dir(profile, create=False)) / FILE_NAME
    try:
        remembered = Path(path.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return Path.cwd()
    return remembered if remembered.is_absolute() and remembered.is_dir() else Path.cwd()


def remember_download_folder(profile: str, chosen: Path, *, folder: Path | None = None) -> None:
    """Keep ``chosen`` (made absolute) as the folder the next download dialog starts in.

    A data folder that cannot be written is not worth an error: the dialog then starts in the
    current directory, as it would the first time.
    """
    try:
        write_private((folder or profile_dir(profile)) / FILE_NAME, str(chosen.resolve()))
    except OSError:
        return
