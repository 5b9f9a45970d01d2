"""Run a plugin on an item: in the foreground through the hand-off, or in the background.

:func:`prepare` fills the command from the item (:mod:`tui.plugins.templates`) into a
:class:`PluginCall`. A foreground plugin is a hand-off like ssh: its :meth:`PluginCall.launch`
goes to ``screens.handoff.hand_off`` (the app is suspended, the program gets the terminal,
the app comes back). A background plugin runs with :func:`run_background`: no terminal
(stdin closed, its own session so the app's Ctrl+C does not reach it), its output captured
and handed out as it comes (untrusted text: show it through ``shown(lines=True)``).

Either way the program is found on ``PATH`` first (a missing one is named), the API token is
not in its environment, and the item's fields are there as ``CLOUDTUI_*`` variables.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import shlex
import signal
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tui.handoff.launch import Launch, prepared
from tui.plugins.settings import PluginSettings
from tui.plugins.templates import fill_command, item_environment
from tui.untrusted import shown

OUTPUT_LIMIT = 256 * 1024
"""Bytes of a background plugin's output kept (the last ones; the rest is counted)."""

READ_SIZE = 4096


@dataclass(frozen=True)
class PluginCall:
    """A plugin filled in for one item, ready to confirm and run.

    Attributes:
        plugin: The ``[[plugins]]`` entry.
        argv: The arguments, each value in its own argument.
        env: The ``CLOUDTUI_*`` variables of the item.
        label: The item's name (for titles).
    """

    plugin: PluginSettings
    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    label: str = ""

    @property
    def title(self) -> str:
        """``Ping: web-1``."""
        return f"{self.plugin.title}: {self.label}" if self.label else self.plugin.title

    def command_line(self) -> str:
        """The command as a shell would quote it, for the confirmation (show it through
        :func:`tui.untrusted.shown`: it holds the item's values)."""
        return shlex.join(self.argv)

    def launch(self) -> Launch:
        """The hand-off of this call (foreground plugins; the background run uses it too).

        Every argument and variable is a finished value: the launch's templates are only
        ``{argN}`` and ``{envN}``, filled once, so nothing in an item's value is read as a
        placeholder or has ``~`` expanded.
        """
        values = {f"arg{n}": arg for n, arg in enumerate(self.argv)}
        values.update({f"env{n}": value for n, value in enumerate(self.env.values())})
        return Launch(
            title=shown(self.title),
            config="plugins",
            command=tuple(f"{{arg{n}}}" for n in range(len(self.argv))),
            values=values,
            env={name: f"{{env{n}}}" for n, name in enumerate(self.env)},
        )


def prepare(
    plugin: PluginSettings, item: Mapping[str, Any], label: str = "", what: str = "item"
) -> PluginCall:
    """The call of ``plugin`` on ``item``.

    Args:
        plugin: The plugin.
        item: The selected item as the API gives it.
        label: The item's name.
        what: The item's kind for messages (``instance``).

    Raises:
        PluginError: The item lacks a value the command names, or a value would be read as
            an option.
    """
    argv = fill_command(plugin.command, item, what)
    env = item_environment(item, plugin.command, what)
    return PluginCall(plugin, tuple(argv), env, label)


@dataclass(frozen=True)
class BackgroundResult:
    """How a background plugin ended.

    Attributes:
        status: Its exit status (negative: ended by that signal).
        output: The last :data:`OUTPUT_LIMIT` bytes of its output (stdout and stderr), decoded.
        dropped: Bytes of earlier output not kept.
    """

    status: int
    output: str
    dropped: int = 0


def _stop(process: asyncio.subprocess.Process) -> None:
    """End the plugin and whatever it started (its own process group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)


async def run_background(
    call: PluginCall,
    *,
    on_output: Callable[[str], None] | None = None,
    base_env: Mapping[str, str] | None = None,
    limit: int = OUTPUT_LIMIT,
) -> BackgroundResult:
    """Run ``call`` without a terminal and collect its output.

    Args:
        call: The prepared call.
        on_output: Gets the output as it comes, decoded (untrusted text).
        base_env: The environment to start from (default: this process's, minus the token).
        limit: Bytes of output kept for the result.

    Raises:
        MissingProgram: The program is not installed.
        HandoffError: The launch cannot be prepared.
        OSError: The program cannot be started.

    Cancelling the task ends the program (and what it started).
    """
    kept = bytearray()
    dropped = 0
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    with prepared(call.launch(), base_env) as ready:
        process = await asyncio.create_subprocess_exec(
            *ready.argv,
            env=ready.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        assert process.stdout is not None
        try:
            while chunk := await process.stdout.read(READ_SIZE):
                kept.extend(chunk)
                if len(kept) > limit:
                    dropped += len(kept) - limit
                    del kept[: len(kept) - limit]
                text = decoder.decode(chunk)
                if on_output is not None and text:
                    on_output(text)
            status = await process.wait()
        except asyncio.CancelledError:
            _stop(process)
            await process.wait()
            raise
    tail = decoder.decode(b"", final=True)
    if on_output is not None and tail:
        on_output(tail)
    return BackgroundResult(status, kept.decode("utf-8", errors="replace"), dropped)
