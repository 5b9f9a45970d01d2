"""``[[plugins]]`` in the config file: the user's own commands on the selected item.

```toml
[[plugins]]
key = "P"
areas = ["instances"]
title = "Ping"
command = ["ping", "-c", "1", "{ipv4}"]
confirm = false
mode = "foreground"      # or "background": output in a panel

[[plugins]]
key = "ctrl+l"
areas = ["instances"]
title = "Log the label"
command = ["sh", "-c", 'echo "$1" >> ~/labels.txt', "sh", "{label}"]
mode = "background"
```

A plugin whose command could run an item's value as code, that names a secret, or whose
program is a placeholder is refused when the file is read, like any other bad value (see
:func:`command_problems`). Read with the settings before the first frame: this module imports
only the template and shell rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from tui.plugins.shell_guard import spliced_values
from tui.plugins.templates import placeholders, secret_placeholders
from tui.shortcuts.keys import is_one_key

ANY_AREA = "*"
"""An ``areas`` entry that makes a plugin available everywhere an item is selected."""


def command_problems(command: Sequence[str]) -> list[str]:
    """Why a plugin's command is refused (empty: it is not).

    * The program (``command[0]``) is fixed: an item's value never chooses what runs.
    * No placeholder names a secret (``{root_pass}``): plugins never get one.
    * No placeholder sits in an argument a program runs as code (``sh -c`` 's script).
    """
    problems: list[str] = []
    if command and placeholders(command[0]):
        problems.append(
            "command[0] is the program to run and may not hold a placeholder: "
            "an item's value never chooses what runs"
        )
    secrets = secret_placeholders(command)
    if secrets:
        names = ", ".join("{" + name + "}" for name in dict.fromkeys(secrets))
        problems.append(f"{names} names a secret: a plugin never gets one")
    problems.extend(spliced_values(command))
    return problems


class PluginSettings(BaseModel):
    """One ``[[plugins]]`` entry."""

    # Nothing shows these fields' descriptions; the docstrings below are documentation (see
    # tui.handoff.settings: extracting them costs start-up time).
    model_config = ConfigDict(extra="forbid")

    key: str = Field(min_length=1)
    """The key that runs it on the selected item, as the keymap writes keys (``P``,
    ``ctrl+g``, ``f5``)."""
    areas: list[str] = Field(min_length=1)
    """The areas it is offered in (``instances``, ``volumes`` ...), or ``"*"`` for all."""
    title: str = Field(min_length=1, max_length=48)
    """What the footer, the help and the confirmation call it."""
    command: list[str] = Field(min_length=1)
    """Arguments (never a shell line), with ``{id}``, ``{label}``, ``{ipv4}``, ``{region}`` or
    any dotted path of the item (``{specs.vcpus}``); ``{{`` and ``}}`` are braces."""
    confirm: bool = True
    """Ask before running (the confirmation shows the command)."""
    mode: Literal["foreground", "background"] = "foreground"
    """``foreground``: the program gets the terminal (the app is suspended, as for ssh);
    ``background``: it runs without one, its output shown in a panel."""

    @field_validator("key")
    @classmethod
    def _one_key(cls, value: str) -> str:
        if not is_one_key(value):
            raise PydanticCustomError(
                "plugin_key",
                'one key, such as "P", "ctrl+g" or "f5", not "{value}"',
                {"value": value},
            )
        return value

    @field_validator("command")
    @classmethod
    def _safe(cls, value: list[str]) -> list[str]:
        problems = command_problems(value)
        if problems:
            raise PydanticCustomError("plugin_command", "{reason}", {"reason": "; ".join(problems)})
        return value
