"""Run one of the user's ``[[plugins]]`` on the selected item.

The command is filled from the item one argument each (:func:`tui.plugins.run.prepare`: never
through a shell, never a secret); with ``confirm = true`` the usual confirmation shows the exact
command first. A foreground plugin gets the terminal through the one hand-off
(:func:`screens.editors.handoff.hand_off`: the app is suspended and comes back). A background
plugin runs without a terminal (:func:`tui.plugins.run.run_background`) as a task of the app,
so it goes on when its panel is closed; its output is shown as it comes in
:class:`PluginOutputModal` (another program's text: through ``shown(lines=True)``), and its end
is announced.

Bindings of the output panel:

| Key | Id | Description |
| :- | :- | :- |
| escape | plugin_output.close | Close the panel (the plugin keeps running) |
| x | plugin_output.stop | Stop the plugin |
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import Worker

from screens.dialogs.scrolling import ScrollingModal
from screens.editors.handoff import hand_off
from tui.handoff.launch import HandoffError
from tui.plugins.run import PluginCall, prepare, run_background
from tui.plugins.settings import PluginSettings
from tui.plugins.templates import PluginError
from tui.resources.spec import ResourceSpec
from tui.untrusted import Shown, shown

OUTPUT_SHOWN = 64 * 1024
"""Characters of a background plugin's output the panel keeps (the last ones)."""


@dataclass
class BackgroundRun:
    """A background plugin's run: its output so far and how it ended.

    Attributes:
        call: What runs.
        output: Its output so far (the last :data:`OUTPUT_SHOWN` characters; untrusted).
        status: Its exit status once it ended (None while it runs).
        problem: Why it could not run ('' when it did).
        listeners: Told when something changed (the open panel).
    """

    call: PluginCall
    output: str = ""
    status: int | None = None
    problem: str = ""
    worker: Worker[None] | None = None
    listeners: list[Callable[[], None]] = field(default_factory=list)

    def add(self, text: str) -> None:
        """More output."""
        self.output = (self.output + text)[-OUTPUT_SHOWN:]
        self._tell()

    def ended(self, status: int | None, problem: str = "") -> None:
        """The run is over (``status`` None: it did not start, or was stopped)."""
        self.status, self.problem = status, problem
        self._tell()

    @property
    def running(self) -> bool:
        """True while the program runs."""
        return self.status is None and not self.problem

    def state(self) -> Shown:
        """``running``, ``exited with status 0`` or why it did not run."""
        if self.problem:
            return shown(self.problem)
        if self.status is None:
            return "running"
        return f"exited with status {self.status}"

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()


class PluginOutputModal(ScrollingModal):
    """A background plugin's output, as it comes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="plugin_output.close"),
        Binding("x", "stop", "Stop", id="plugin_output.stop"),
    ]

    DEFAULT_CSS = """
    PluginOutputModal { align: center middle; }
    PluginOutputModal > Vertical {
        width: 90%; height: 80%; border: round $primary; background: $surface; padding: 0 1;
    }
    PluginOutputModal #plugin-title { text-style: bold; height: 1; }
    PluginOutputModal #plugin-command { color: $text-muted; height: auto; }
    PluginOutputModal VerticalScroll { height: 1fr; border-left: blank; }
    PluginOutputModal VerticalScroll:focus { border-left: outer $accent; }
    PluginOutputModal #plugin-hint { color: $text-muted; height: auto; }
    """

    def __init__(self, run: BackgroundRun) -> None:
        super().__init__()
        self.run = run

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="plugin-title")
            yield Static(Text(shown(f"$ {self.run.call.command_line()}")), id="plugin-command")
            with VerticalScroll(id="plugin-scroll"):
                yield Static(id="plugin-output")
            yield Static(id="plugin-hint")

    def on_mount(self) -> None:
        self.run.listeners.append(self.show)
        self.show()
        self.query_one(VerticalScroll).focus()

    def on_unmount(self) -> None:
        if self.show in self.run.listeners:
            self.run.listeners.remove(self.show)

    def text(self) -> Shown:
        """The output as shown."""
        return shown(self.run.output, lines=True)

    def show(self) -> None:
        """Draw the run as it is now."""
        title = f"{shown(self.run.call.title)}: {self.run.state()}"
        self.query_one("#plugin-title", Static).update(
            Text(title, no_wrap=True, overflow="ellipsis")
        )
        output: Shown = self.text() or "(no output yet)"
        self.query_one("#plugin-output", Static).update(Text(output))
        stop = "x stop · " if self.run.running else ""
        hint = f"{stop}esc close" + (" (it keeps running)" if self.run.running else "")
        self.query_one("#plugin-hint", Static).update(Text(hint))
        self.query_one(VerticalScroll).scroll_end(animate=False)

    def action_stop(self) -> None:
        """Stop the plugin (and what it started)."""
        if self.run.running and self.run.worker is not None:
            self.run.worker.cancel()
        else:
            self.app.bell()

    def action_close(self) -> None:
        """Close the panel; the plugin goes on."""
        self.dismiss(None)


def start_background(app: App[Any], call: PluginCall) -> BackgroundRun:
    """Run ``call`` as a task of the app and open its panel."""
    run = BackgroundRun(call)

    async def work() -> None:
        try:
            result = await run_background(call, on_output=run.add)
        except (HandoffError, OSError) as error:  # a missing program, a launch refused
            reason = error.strerror if isinstance(error, OSError) else None
            run.ended(None, reason or str(error))
        except asyncio.CancelledError:
            run.ended(None, "stopped")
            raise
        else:
            run.ended(result.status)
        severity: SeverityLevel = "information" if run.status == 0 else "warning"
        app.notify(run.state(), title=shown(call.title), severity=severity, markup=False)

    run.worker = app.run_worker(work(), group="plugins", exit_on_error=False)
    app.push_screen(PluginOutputModal(run))
    return run


async def _confirmed(app: App[Any], call: PluginCall) -> bool:
    from screens.dialogs.confirm import ConfirmModal

    where = "in the background" if call.plugin.mode == "background" else "with the terminal"
    modal = ConfirmModal(
        f"Run {shown(call.title)}?",
        f"Runs this command {where}; each of the item's values is one argument:",
        shown(call.command_line()),
        confirm_label="Run",
    )
    answer: bool = await app.push_screen_wait(modal)
    return bool(answer)


async def run_plugin(
    host: Screen[Any], spec: ResourceSpec, item: dict[str, Any], plugin: PluginSettings
) -> None:
    """The flow of a plugin's key on ``item`` (see the module)."""
    app = host.app
    try:
        call = prepare(plugin, item, spec.label_of(item), spec.singular)
    except PluginError as error:
        app.notify(shown(error), title=shown(plugin.title), severity="warning", markup=False)
        return
    if plugin.confirm and not await _confirmed(app, call):
        return
    if plugin.mode == "background":
        start_background(app, call)
        return
    outcome = hand_off(app, call.launch())
    if outcome is not None and outcome.status != 0:
        app.notify(
            f"{shown(call.title)} exited with status {outcome.status}.",
            title=shown(plugin.title),
            severity="warning",
            markup=False,
        )
