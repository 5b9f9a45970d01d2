"""Hand the terminal to another program and come back: ssh, k9s, database clients, editors.

:func:`hand_off` is the one mechanism. It prepares the launch (``tui.handoff.launch``: program
found, secret files written 0600 in a private folder), suspends the app (``App.suspend``), runs
the program in the terminal, and resumes: Textual redraws the same screen with its state, and
the secret files are removed whatever happened. A headless app (the pilot) cannot suspend: the
program then runs with no terminal (stdin closed, output captured), which is how tests drive the
whole path with fake programs: they set the app's ``handoff_runner`` (argv, env -> exit status,
see :class:`~screens.app_surface.AppSurface`) to :func:`captured_runner`; a headless app
without a runner refuses (no program runs blind).

:func:`run_handoff` is the flow of every spec action with ``screen="handoff"``: the action's
data says which program (``Action.handoff``) and what to fetch first (``Action.fetch``).
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App, SuspendNotSupported

from screens.app_surface import Runner, surface
from screens.dialogs.pick_one import PickOneModal
from tui.api.errors import CloudError
from tui.handoff.launch import HandoffError, Launch, prepared
from tui.handoff.settings import HandoffSettings
from tui.handoff.targets import (
    addresses,
    editor_launch,
    k9s_launch,
    mongosh_launch,
    mysql_launch,
    pick_address,
    ssh_launch,
)
from tui.kubeconfig import KubeconfigError, decode_kubeconfig, default_path, write_private
from tui.untrusted import shown

if TYPE_CHECKING:
    from screens.actions.context import ActionContext


@contextmanager
def _keyboard_signals_to_the_program() -> Iterator[None]:
    """Ctrl+C and Ctrl+\\ reach the whole foreground group: let them stop the program only.

    A handler that does nothing (not SIG_IGN, which a child would inherit) keeps cloudtui
    running; the program gets the default behaviour back when it starts.
    """
    previous: dict[signal.Signals, Any] = {}
    try:
        for sig in (signal.SIGINT, signal.SIGQUIT):
            previous[sig] = signal.signal(sig, lambda _signum, _frame: None)
    except ValueError:  # not the main thread: leave the signals alone
        pass
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def terminal_runner(argv: list[str], env: dict[str, str]) -> int:
    """Run in the terminal the app gave up; on failure, wait for enter so the output is read."""
    with _keyboard_signals_to_the_program():
        status = subprocess.run(argv, env=env, check=False).returncode
        if status != 0:
            print(f"\n[cloudtui] {argv[0]} exited with status {status}. Press enter to return.")
            with suppress(OSError, ValueError):
                sys.stdin.readline()
    return status


def captured_runner(argv: list[str], env: dict[str, str]) -> int:
    """Run without a terminal (headless app): stdin closed, output discarded."""
    return subprocess.run(
        argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, check=False
    ).returncode


@dataclass(frozen=True)
class HandoffOutcome:
    """How a hand-off ended.

    Attributes:
        status: The program's exit status.
        text: The file named by ``read_back``, read before it was removed (editors), else None.
    """

    status: int
    text: str | None = None


def _banner(launch: Launch, notice: str, hint: str) -> None:
    """What the terminal shows above the program: what runs, and how to come back."""
    print(f"[cloudtui] {notice or launch.title}")
    if hint:
        print(f"[cloudtui] {hint}")
    leave = "type exit" if notice else "leave it"
    print(f"[cloudtui] {leave} to come back to cloudtui.", flush=True)


def _suspension(app: App[Any]) -> tuple[AbstractContextManager[Any], Runner]:
    runner = surface(app).handoff_runner
    if app.is_headless:
        if runner is None:
            # No terminal to give: a real ssh or editor would run blind (and block the tests).
            raise HandoffError("there is no terminal to hand over (headless app)")
        return nullcontext(), runner
    return app.suspend(), runner or terminal_runner


def hand_off(app: App[Any], launch: Launch, read_back: str | None = None) -> HandoffOutcome | None:
    """Run ``launch`` with the terminal, then resume the app where it was.

    Args:
        app: The running app.
        launch: What to run.
        read_back: A file placeholder of the launch to read after the program ends (an editor's
            file), before the files are removed.

    Returns:
        The outcome, or None when the program could not be started (the user was told why).
    """
    try:
        suspension, runner = _suspension(app)
        with prepared(launch) as prep:
            if prep.notice:
                app.notify(prep.notice, title=launch.title, severity="warning", markup=False)
            failure: Exception | None = None
            status = -1
            with suspension:
                # Nothing may raise in here: Textual resumes the app only when the block ends
                # normally, so an exception would leave the terminal to nobody.
                try:
                    if not app.is_headless:
                        _banner(launch, prep.notice, prep.hint)
                    status = runner(prep.argv, prep.env)
                except Exception as error:  # re-raised once the app has the terminal back
                    failure = error
            if failure is not None:
                raise failure
            text = None
            if read_back is not None:
                text = Path(prep.files[read_back]).read_text(encoding="utf-8", errors="replace")
    except HandoffError as error:
        app.notify(
            shown(error), title=f"{launch.title}: not started", severity="error", markup=False
        )
        return None
    except SuspendNotSupported:
        app.notify(
            "This terminal cannot be handed over to another program.",
            title=f"{launch.title}: not started",
            severity="error",
        )
        return None
    except OSError as error:
        reason = shown(error.strerror or error)
        app.notify(reason, title=f"{launch.title}: failed", severity="error", markup=False)
        return None
    app.refresh(layout=True)
    return HandoffOutcome(status, text)


def edit_text(app: App[Any], text: str, file_name: str) -> str | None:
    """Let the user edit ``text`` in ``$VISUAL``/``$EDITOR`` (a 0600 file, removed afterwards).

    Returns:
        The edited text, or None when the editor could not run or failed.
    """
    settings = _settings(app)
    try:
        launch = editor_launch(text, file_name, settings.editor)
    except HandoffError as error:
        app.notify(shown(error), title="No editor", severity="error", markup=False)
        return None
    outcome = hand_off(app, launch, read_back="file")
    if outcome is None:
        return None
    if outcome.status != 0:
        app.notify(
            f"The editor exited with status {outcome.status}; nothing was changed.",
            title=launch.title,
            severity="warning",
            markup=False,
        )
        return None
    return outcome.text


def _settings(app: App[Any]) -> HandoffSettings:
    session = surface(app).state.session
    return session.settings.handoff if session is not None else HandoffSettings()


class AddressModal(PickOneModal):
    """Which of an instance's addresses to ssh to (public IPv4 first)."""

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        options = [(f"{address}  ({kind})", address) for kind, address in choices]
        super().__init__(title, options, "enter connect · esc cancel")
        self.choices = choices


async def _ssh(ctx: ActionContext, settings: HandoffSettings, answers: Mapping[str, Any]) -> Launch:
    item = ctx.item or {}
    ask = ctx.action.handoff == "ssh_choose"
    address = None if ask and addresses(item) else pick_address(item, settings.ssh)
    if address is None:
        label = ctx.spec.label_of(item)
        address = await ctx.app.push_screen_wait(
            AddressModal(f"ssh {settings.ssh.user}@ which address of {label}?", addresses(item))
        )
        if address is None:
            raise _Cancelled
    return ssh_launch(item, address, settings.ssh)


async def _k9s(ctx: ActionContext, settings: HandoffSettings, answers: Mapping[str, Any]) -> Launch:
    cluster = answers.get("cluster")  # a pool's cluster (else the item is the cluster)
    item = cluster if isinstance(cluster, dict) else (ctx.item or {})
    answer = answers.get("kubeconfig") or {}
    try:
        text = decode_kubeconfig(answer.get("kubeconfig") if isinstance(answer, dict) else None)
    except KubeconfigError as error:
        raise HandoffError(str(error)) from None
    label = str(item.get("label") or ctx.params.get("clusterId") or "cluster")
    saved = write_private(default_path(label), text, overwrite=True)
    return k9s_launch(item, str(saved), settings.k9s)


async def _mysql(
    ctx: ActionContext, settings: HandoffSettings, answers: Mapping[str, Any]
) -> Launch:
    return mysql_launch(ctx.item or {}, answers.get("credentials") or {}, settings.mysql)


async def _mongosh(
    ctx: ActionContext, settings: HandoffSettings, answers: Mapping[str, Any]
) -> Launch:
    ssl = answers.get("ssl") or {}
    ca = ssl.get("ca_certificate") if isinstance(ssl, dict) else None
    return mongosh_launch(ctx.item or {}, answers.get("credentials") or {}, ca, settings.mongosh)


class _Cancelled(Exception):
    """The user backed out of a choice before the program started."""


BUILDERS = {"ssh": _ssh, "ssh_choose": _ssh, "k9s": _k9s, "mysql": _mysql, "mongosh": _mongosh}
"""``Action.handoff`` -> what builds its launch from the item and the fetched answers."""


async def _engine_client(ctx: ActionContext) -> bool:
    """A database row of the all-engines list: the client action of its engine's spec."""
    from screens.actions.context import ActionContext as Context
    from tui.resources.areas import SPECS

    engine = str((ctx.item or {}).get("engine") or "")
    spec = SPECS.get(f"databases.{engine}")
    action = spec.action(f"databases.{engine}.client") if spec else None
    if spec is None or action is None or ctx.item is None:
        ctx.app.notify(f"No client for the engine {engine!r}.", severity="error", markup=False)
        return False
    params = spec.params_for(ctx.item)
    return await run_handoff(Context(ctx.host, spec, action, ctx.item, params))


async def run_handoff(ctx: ActionContext) -> bool:
    """The flow of a hand-off action: fetch what it needs, run the program, come back.

    Returns:
        True when the program ran (the screen refreshes: the user may have changed things).
    """
    kind = ctx.action.handoff or ""
    if kind == "database":
        return await _engine_client(ctx)
    build = BUILDERS.get(kind)
    if build is None:
        ctx.app.notify(f"Unknown hand-off {kind!r}.", severity="error", markup=False)
        return False
    answers: dict[str, Any] = {}
    try:
        for name, endpoint in ctx.action.fetch.items():
            answers[name] = await ctx.call(endpoint=endpoint)
    except CloudError as error:
        ctx.failed(error)
        return False
    try:
        launch: Launch = await build(ctx, _settings(ctx.app), answers)
    except _Cancelled:
        return False
    except (HandoffError, OSError) as error:
        reason = shown(
            error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        )
        ctx.app.notify(
            reason, title=f"{ctx.action.label}: not started", severity="error", markup=False
        )
        return False
    outcome = hand_off(ctx.app, launch)
    if outcome is None:
        return False
    if outcome.status != 0:
        ctx.app.notify(
            f"{launch.title} exited with status {outcome.status}.",
            title=ctx.action.label,
            severity="warning",
            markup=False,
        )
    return True
