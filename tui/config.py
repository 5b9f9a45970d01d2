"""Settings: a TOML file in the platformdirs config folder (``CLOUDTUI_CONFIG`` overrides the path).

The file holds profiles (name and base URL), the default profile, the theme, refresh intervals,
page size, concurrency, timeouts and key remaps. It never holds a token. A broken file stops the
program with a message naming the file, the line and the problem; it is never overwritten.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

import tomli_w
from platformdirs import user_config_dir
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tui.handoff.settings import HandoffSettings

APP_NAME = "cloudtui"
CONFIG_ENV = "CLOUDTUI_CONFIG"


class ConfigError(Exception):
    """The configuration file cannot be used.

    Attributes:
        path: The file.
        line: 1-based line of the problem, when known.
        problem: What is wrong.
    """

    def __init__(self, path: Path, problem: str, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        where = f"{path}, line {line}" if line else str(path)
        super().__init__(f"{where}: {problem}")


# The settings are read before the first frame, and nothing shows their fields' descriptions:
# attribute docstrings are documentation here (pydantic's extraction of them, which tokenizes
# each class's source, was a third of this module's import).
_CONFIG = ConfigDict(extra="forbid")


AccountColor = Literal["red", "green", "yellow", "blue", "magenta", "cyan", "white"]
"""Colours a profile may mark its account with (terminal colours: they follow its palette)."""


class Profile(BaseModel):
    """One account to talk to."""

    model_config = _CONFIG

    base_url: str
    """API base URL ending in /v4 (https, or http to 127.0.0.1/localhost only)."""
    read_only: bool = False
    """Open every session of this profile read-only (nothing can be changed from the app)."""
    color: AccountColor | None = None
    """Colour of the account's name in the status bar and in confirmations (its name is
    always shown as text too), e.g. ``color = "red"`` for production."""


class RefreshSettings(BaseModel):
    """How often lists refresh themselves."""

    model_config = _CONFIG

    fast: float = Field(2.5, ge=0.5, le=60)
    """Seconds between refreshes while something visible is changing state."""
    slow: float = Field(30.0, ge=5, le=3600)
    """Seconds between refreshes when nothing is changing."""
    max_backoff: float = Field(300.0, ge=5, le=3600)
    """Upper bound of the delay after repeated errors or rate limiting."""


class Settings(BaseModel):
    """Everything the config file can say."""

    model_config = _CONFIG

    default_profile: str | None = None
    """Profile used when --profile is not given."""
    profiles: dict[str, Profile] = Field(default_factory=dict)
    """Accounts by name."""
    theme: str = "textual-dark"
    """Textual theme name (e.g. textual-dark, nord, gruvbox, ansi-dark)."""
    refresh: RefreshSettings = Field(default_factory=RefreshSettings)
    """Refresh intervals."""
    page_size: int = Field(100, ge=25, le=500)
    """Items requested per page (the API caps part of the collections at 100)."""
    max_concurrency: int = Field(24, ge=1, le=32)
    """Pages fetched at once when loading a whole collection (after page 1, which says how
    many there are: 24 lists 10,000 instances in one more round trip)."""
    bulk_concurrency: int = Field(4, ge=1, le=16)
    """Requests in flight at once when an action runs on the marked rows."""
    connect_timeout: float = Field(5.0, gt=0, le=120)
    """Seconds to establish a connection."""
    read_timeout: float = Field(30.0, gt=0, le=600)
    """Seconds to wait for an answer."""
    keymap: dict[str, str] = Field(default_factory=dict)
    """Binding id -> keys, e.g. {"app.quit" = "ctrl+q,f10"}."""
    start_area: str = "overview"
    """Area the app opens on (overview, instances, volumes, ...)."""
    handoff: HandoffSettings = Field(default_factory=HandoffSettings)
    """Programs run on resources: [handoff.ssh], [handoff.k9s], [handoff.mysql],
    [handoff.mongosh], [handoff.editor]."""

    @field_validator("profiles")
    @classmethod
    def _names(cls, value: dict[str, Profile]) -> dict[str, Profile]:
        for name in value:
            if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name):
                raise ValueError(f"profile name {name!r} may use letters, digits, . _ - only")
        return value


def config_path() -> Path:
    """Where the config file lives: ``$CLOUDTUI_CONFIG`` or the platform's config folder."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    return Path(user_config_dir(APP_NAME)) / "config.toml"


def config_dir() -> Path:
    """The folder of the config file (also holds the optional token file)."""
    return config_path().parent


def _line_of(text: str, loc: tuple[Any, ...]) -> int | None:
    """Best-effort line of the key named last in a validation location."""
    keys = [str(p) for p in loc if isinstance(p, str)]
    if not keys:
        return None
    lines = text.splitlines()
    # Prefer a table header naming the path, then a "key =" line.
    header = re.compile(r"^\s*\[\s*" + r"\s*\.\s*".join(re.escape(k) for k in keys) + r"\s*\]")
    for number, line in enumerate(lines, 1):
        if header.match(line):
            return number
    assignment = re.compile(r"^\s*\"?" + re.escape(keys[-1]) + r"\"?\s*=")
    for number, line in enumerate(lines, 1):
        if assignment.match(line):
            return number
    return None


def load_settings(path: Path | None = None) -> Settings:
    """Read the settings; a missing file gives the defaults.

    Args:
        path: File to read (defaults to :func:`config_path`).

    Returns:
        The settings.

    Raises:
        ConfigError: Unreadable file, TOML syntax error or invalid value, with file and line.
    """
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings()
    except OSError as exc:
        raise ConfigError(path, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(path, "not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column \d+\)", message)
        line = int(match.group(1)) if match else None
        problem = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        raise ConfigError(path, f"TOML syntax error: {problem}", line) from None
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        dotted = ".".join(str(p) for p in first["loc"])
        raise ConfigError(path, f"{dotted}: {first['msg']}", _line_of(text, first["loc"])) from None


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically (only ever called after a successful load).

    Args:
        settings: What to write.
        path: Target file (defaults to :func:`config_path`).

    Returns:
        The file written.
    """
    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = settings.model_dump(mode="json", exclude_none=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(tomli_w.dumps(data), encoding="utf-8")
    os.replace(tmp, path)
    return path
