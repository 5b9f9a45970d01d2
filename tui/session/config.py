"""Settings: a TOML file in the platformdirs config folder (``CLOUDTUI_CONFIG`` overrides the path).

The file holds profiles (name and base URL), the default profile, the theme, refresh intervals,
page size, concurrency, timeouts, key remaps, plugins, aliases and hotkeys. It never holds a
token. A broken file stops the program with a message naming the file and every problem with
its line (a bad base URL and an unknown theme included, see :mod:`tui.session.config_checks`);
it is never overwritten.
Unknown keys are ignored and named (with the nearest valid one) by the app and ``doctor``.
Saving edits the file in place (comments, order and unknown keys stay).
"""

from __future__ import annotations

import os
import re
import shutil
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from platformdirs import user_config_dir
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from tui.handoff.settings import HandoffSettings
from tui.plugins.settings import PluginSettings
from tui.session.config_checks import value_problems
from tui.session.config_keys import UnknownKey, dotted, line_of, split_unknown

APP_NAME = "cloudtui"
CONFIG_ENV = "CLOUDTUI_CONFIG"


@dataclass(frozen=True)
class ConfigProblem:
    """One bad value of the config file.

    Attributes:
        line: 1-based line, when known.
        problem: What is wrong (``refresh.fast: Input should be ...``).
    """

    line: int | None
    problem: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.problem}" if self.line else self.problem


class ConfigError(Exception):
    """The configuration file cannot be used.

    Attributes:
        path: The file.
        line: 1-based line of the first problem, when known.
        problem: What is wrong (every problem, in file order, when there are several).
        problems: Each problem with its line, in file order.
        unknown_keys: Keys of the file that would be ignored, said in the same run.
    """

    def __init__(self, path: Path, problem: str, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        self.problems = [ConfigProblem(line, problem)]
        self.unknown_keys: list[UnknownKey] = []
        where = f"{path}, line {line}" if line else str(path)
        super().__init__(f"{where}: {problem}")

    @classmethod
    def of(cls, path: Path, problems: list[ConfigProblem]) -> ConfigError:
        """One error for several problems, sorted by line (those without a line last)."""
        ordered = sorted(problems, key=lambda p: (p.line is None, p.line or 0))
        if len(ordered) == 1:
            return cls(path, ordered[0].problem, ordered[0].line)
        error = cls(path, "; ".join(str(p) for p in ordered), ordered[0].line)
        error.problems = ordered
        error.args = (f"{path}: {len(ordered)} problems: {error.problem}",)
        return error

    def lines(self) -> list[str]:
        """The problems one per line, for a terminal."""
        return [str(p) for p in self.problems]


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


class CheckSettings(BaseModel):
    """What the account check (``cloudtui check``) reads."""

    model_config = _CONFIG

    important_tags: list[str] = Field(default_factory=lambda: ["production"])
    """Tags that mark an instance as important: one carrying any of them without backups is a
    finding, e.g. ``important_tags = ["production", "billing"]`` (``[]`` turns the rule off)."""


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
    check: CheckSettings = Field(default_factory=CheckSettings)
    """The account check: [check] important_tags."""
    plugins: list[PluginSettings] = Field(default_factory=list)
    """Your own commands on the selected item: ``[[plugins]]`` tables (key, areas, title,
    command, confirm, mode); see :mod:`tui.plugins.settings`."""
    aliases: dict[str, str] = Field(default_factory=dict)
    """Your own ``:`` words -> the command they stand for, e.g. {db = "databases"}."""
    hotkeys: dict[str, str] = Field(default_factory=dict)
    """Key -> a ``:`` command it runs, e.g. {"ctrl+1" = ":fanout instances"}."""

    _unknown_keys: list[UnknownKey] = PrivateAttr(default_factory=list)
    _as_loaded: dict[str, Any] | None = PrivateAttr(default=None)
    """The settings as read from (or last written to) the file: what a save compares with."""

    @property
    def unknown_keys(self) -> list[UnknownKey]:
        """Keys of the file this model does not know, in file order (they are ignored)."""
        return self._unknown_keys

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


def load_settings(path: Path | None = None) -> Settings:
    """Read the settings; a missing file gives the defaults.

    Keys the settings model does not know are left out and listed in the result's
    :attr:`Settings.unknown_keys` (the app and ``doctor`` name them); every bad value is
    reported at once, in the order of the file.

    Args:
        path: File to read (defaults to :func:`config_path`).

    Returns:
        The settings.

    Raises:
        ConfigError: Unreadable file, TOML syntax error or invalid values, with file and lines.
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
    return settings_from_text(text, path)


def settings_from_text(text: str, path: Path) -> Settings:
    """Validate a config file's text (see :func:`load_settings`).

    Raises:
        ConfigError: TOML syntax error or invalid values.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column \d+\)", message)
        line = int(match.group(1)) if match else None
        problem = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        raise ConfigError(path, f"TOML syntax error: {problem}", line) from None
    lines = text.splitlines()
    known, unknown = split_unknown(data, Settings)
    # Every problem at once: the model's, and those of the values it cannot judge by type.
    problems = [
        ConfigProblem(line_of(lines, loc), f"{dotted(loc)}: {problem}")
        for loc, problem in value_problems(known)
    ]
    try:
        settings = Settings.model_validate(known)
    except ValidationError as exc:
        problems += [
            ConfigProblem(
                line_of(lines, error["loc"]),
                f"{dotted(error['loc'])}: {error['msg'].removeprefix('Value error, ')}",
            )
            for error in exc.errors()
        ]
    unknown_keys = sorted(
        (replace(key, line=line_of(lines, key.loc)) for key in unknown),
        key=lambda key: key.line or 0,
    )
    if problems:
        error = ConfigError.of(path, problems)
        error.unknown_keys = unknown_keys
        raise error from None
    settings._unknown_keys = unknown_keys
    settings._as_loaded = _as_data(settings)
    return settings


def _as_data(settings: Settings) -> dict[str, Any]:
    return settings.model_dump(mode="json", exclude_none=True)


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write what changed in ``settings`` into the file, atomically, keeping everything else.

    The file is edited, not rewritten: comments, order, unknown keys and keys left at their
    defaults stay as they are; only the values changed since the settings were loaded (or, for
    settings made in code, that differ from the file's) are written (see
    :mod:`tui.session.config_write`).

    Args:
        settings: What to write.
        path: Target file (defaults to :func:`config_path`).

    Returns:
        The file written.

    Raises:
        ConfigError: The file changed since it was loaded and can no longer be read.
    """
    from tui.session.config_write import edit_document

    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    current = settings_from_text(text, path)  # a file broken meanwhile is not touched
    # What changed since these settings were read: a key someone else changed in the file
    # since then (say, a profile added by hand while the app ran) is left as it is.
    before = settings._as_loaded if settings._as_loaded is not None else current._as_loaded
    after = _as_data(settings)
    edited = edit_document(
        text,
        before=before or {},
        after=after,
        lean=settings.model_dump(mode="json", exclude_none=True, exclude_defaults=True),
    )
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(edited, encoding="utf-8")
    if text:
        shutil.copymode(path, tmp)  # a file the user made private stays private
    os.replace(tmp, path)
    settings._as_loaded = after
    return path


def remember_profile(settings: Settings, name: str, base_url: str) -> None:
    """Record a signed-in profile's base URL (its other fields stay); the first is the default.

    Args:
        settings: Settings to change (save them afterwards).
        name: Profile name.
        base_url: Its validated base URL.
    """
    existing = settings.profiles.get(name)
    if existing is None:
        settings.profiles[name] = Profile(base_url=base_url)
    else:
        settings.profiles[name] = existing.model_copy(update={"base_url": base_url})
    if settings.default_profile is None:
        settings.default_profile = name
