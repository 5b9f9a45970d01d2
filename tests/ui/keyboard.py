"""Keyboard-safety instrumentation for pilot tests: typing at full speed, and a probe that
records who handled each key, who opened each screen, and who authorised each change.

Everything here is test-only: it wraps methods of one app *instance* (and, through pytest's
``monkeypatch``, two dialog methods) and never changes app code.

What the probe observes, and why each observation is exact rather than timed:

* **Keys at full speed.** :func:`type_fast` posts every key event to the app's queue at once,
  the way a terminal delivers a burst read in one go; nothing waits for workers between keys.
  (``Pilot.press`` waits for the CPU to go idle after each key, which lets a dialog's worker
  finish between keys and hides the races this module is about.)
* **Who acted on which screen.** Every binding action goes through ``App.run_action``; the probe
  records the key being dispatched, the action, the screen of the node that owns the binding
  and the screen on top.
* **Who opened which screen.** ``App.push_screen`` is wrapped: when a worker pushes a screen,
  :func:`textual.worker.get_current_worker` names the worker and so the screen it belongs to.
* **Who authorised a change.** ``ConfirmModal.action_confirm`` and ``RequestModal.action_submit``
  are wrapped (whatever called them: a binding, a button, an input's submit, an option list);
  the record says whether that dialog was on top with the focus inside it, and which endpoint
  its request line names. No spec action sends on a bare key (a unit test keeps it so).
* **Settling without sleeping.** :meth:`KeyProbe.settle` waits for every worker except those
  blocked on a dialog that is still open (they wait for the user), so a step ends when the app
  has nothing left to do.
"""

from __future__ import annotations

import asyncio
import contextlib
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest
from textual import events
from textual.dom import DOMNode
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.worker import NoActiveWorker, Worker, get_current_worker

from screens.actions.form import RequestModal
from screens.dialogs.confirm import ConfirmModal
from screens.dialogs.error import ErrorScreen
from screens.frame import ShellScreen
from screens.lists.pane import RefreshingPane
from tests.waits import WAIT_LIMIT, Deadline
from tui.api.endpoints import REGISTRY
from tui.api.errors import CloudError
from widgets.detail_panel import DetailPanel
from widgets.sidebar import Sidebar

SETTLE_LIMIT = WAIT_LIMIT
"""Seconds :meth:`KeyProbe.settle` waits for keys and workers: a hang fails the test, never the
suite."""


def key_of(char: str) -> str:
    """The Textual key name of one typed character (``-`` -> ``minus``, ``a`` -> ``a``)."""
    return char if char.isalnum() else _character_to_key(char)


def character_of(key: str) -> str | None:
    """The character a key types (``colon`` -> ``:``), as Textual's own pilot works it out."""
    if len(key) == 1:
        return key
    try:
        # Pilot looks some keys up under their Unicode name (``slash`` is SOLIDUS); without it
        # ``/``, ``-``, ``_``, ``+``, ``@`` and ``\\`` typed nothing.
        return unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        return None


def type_fast(app: Any, keys: Iterable[str]) -> None:
    """Post ``keys`` (key names) to the app in one go, as a terminal burst arrives.

    The app handles them in order with no pause in between: a worker started by the first key
    gets the event loop only when the app yields, exactly as with a fast typist.
    """
    for key in keys:
        event = events.Key(key, character_of(key))
        event.set_sender(app)
        app.post_message(event)


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Type ``text`` as one burst of key events (see :func:`type_fast`) and return once the app
    is idle again.

    For a test about what typed text does rather than how each key is handled: ``Pilot.press``
    waits for the process to look idle after every key (40 ms or more a key, seconds for a
    path), while the keys and the handling are the same here.

    Args:
        pilot: The running app's pilot; the widget that should get the text has the focus.
        text: Characters to type (no key names: ``enter`` would type five letters).
    """
    type_fast(pilot.app, [key_of(char) for char in text])
    await pilot.pause()


def screen_of(node: Any) -> Screen[Any] | None:
    """The screen a DOM node belongs to (None for the app or a detached node)."""
    if isinstance(node, Screen):
        return node
    if isinstance(node, Widget):
        with contextlib.suppress(Exception):
            return node.screen
    return None


def shown(widget: Widget) -> bool:
    """True when ``widget`` and every ancestor are displayed (not on a hidden tab)."""
    return all(n.display for n in (widget, *widget.ancestors) if isinstance(n, Widget))


SIGNING_ONLY = frozenset({"object_storage.objects.url"})
"""POSTs that change nothing: signing a pre-signed URL keeps no state (a download or a view
asks for one). Uploads and deletes through such URLs are confirmed by their own dialogs."""


def is_mutating(endpoint_name: str) -> bool:
    """True for an endpoint that changes something (any method but GET, signing aside)."""
    endpoint = REGISTRY.get(endpoint_name)
    return endpoint is not None and endpoint.method != "GET" and endpoint_name not in SIGNING_ONLY


def shown_footer_bindings(app: Any) -> list[tuple[str, str, bool]]:
    """``(key, action, enabled)`` of every key the footer shows, as ``ActionFooter`` picks them."""
    out: list[tuple[str, str, bool]] = []
    seen: set[str] = set()
    for key, active in app.screen.active_bindings.items():
        binding = active.binding
        if binding.show and binding.action not in seen:
            seen.add(binding.action)
            out.append((key, binding.action, bool(active.enabled)))
    return out


def screen_text(app: Any) -> str:
    """What the terminal shows now, as text (cheap: the compositor's strips)."""
    with contextlib.suppress(Exception):
        strips = app.screen._compositor.render_strips()
        return "\n".join(strip.text for strip in strips)
    return ""


@dataclass
class Authorisation:
    """One run of a dialog's confirm/send action (or of a direct action key)."""

    seq: int
    what: str
    valid: bool
    endpoint: str | None
    """Endpoint its request line names; None when unknown (then any endpoint is covered)."""
    why: str = ""


@dataclass
class ActionRun:
    """One binding action run by a key."""

    seq: int
    key: str | None
    action: str
    owner: Screen[Any] | None
    top: Screen[Any]
    pending: list[Worker[Any]]
    """Action workers of ``owner`` that had not opened their dialog yet when this ran."""


@dataclass
class Push:
    """One screen pushed."""

    seq: int
    screen: Screen[Any]
    top: Screen[Any] | None
    worker: Worker[Any] | None
    opener: Screen[Any] | None
    """Screen of the node whose worker pushed it (None: pushed outside a worker)."""


@dataclass
class KeyProbe:
    """Records, for one app, what keys did, what opened screens and what authorised changes.

    Create with :meth:`install` before ``run_test``.
    """

    app: Any
    seq: int = 0
    current_key: str | None = None
    runs: list[ActionRun] = field(default_factory=list)
    pushes: list[Push] = field(default_factory=list)
    auths: list[Authorisation] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    """Unexpected (non-API) errors the app reported."""
    exits: int = 0
    first_push: dict[Worker[Any], int] = field(default_factory=dict)
    waiting: dict[Worker[Any], Screen[Any]] = field(default_factory=dict)
    """Workers blocked on a dialog (push_screen_wait), with that dialog."""
    pushed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set whenever a screen is pushed (wakes :meth:`settle`)."""

    # -- installation -----------------------------------------------------------------------

    @classmethod
    def install(cls, app: Any, monkeypatch: pytest.MonkeyPatch) -> KeyProbe:
        """Wrap ``app``'s methods (instance only) and the two dialog actions (restored by
        ``monkeypatch`` after the test)."""
        probe = cls(app)
        probe._wrap_app()
        probe._wrap_dialogs(monkeypatch)
        return probe

    def _tick(self) -> int:
        self.seq += 1
        return self.seq

    def _wrap_app(self) -> None:
        app = self.app
        original_check = app._check_bindings
        original_run_action = app.run_action
        original_push = app.push_screen
        original_show_failure = app.show_failure

        async def check_bindings(key: str, priority: bool = False) -> bool:
            self.current_key = key
            return bool(await original_check(key, priority))

        async def run_action(action: Any, default_namespace: Any = None) -> bool:
            if isinstance(action, str):
                self._record_run(action, default_namespace)
            return bool(await original_run_action(action, default_namespace))

        def push_screen(screen: Any, *args: Any, **kwargs: Any) -> Any:
            self._record_push(screen, kwargs.get("wait_for_dismiss") or (len(args) > 1 and args[1]))
            return original_push(screen, *args, **kwargs)

        def show_failure(error: BaseException, where: str = "") -> None:
            if not isinstance(error, CloudError):
                self.failures.append(f"{where or 'a task'}: {type(error).__name__}: {error}")
            original_show_failure(error, where)

        def exit_(*_args: Any, **_kwargs: Any) -> None:
            # ``:q`` typed in the command line would end the run; quitting is not under test.
            self.exits += 1

        app._check_bindings = check_bindings
        app.run_action = run_action
        app.push_screen = push_screen
        app.show_failure = show_failure
        app.exit = exit_

    def _wrap_dialogs(self, monkeypatch: pytest.MonkeyPatch) -> None:
        probe = self
        confirm = ConfirmModal.action_confirm
        submit = RequestModal.action_submit

        def action_confirm(dialog: ConfirmModal) -> None:
            if dialog.app is probe.app:
                probe._record_auth(dialog, dialog.preview.split("\n", 1)[0])
            confirm(dialog)

        def action_submit(dialog: RequestModal) -> None:
            if dialog.app is probe.app:
                probe._record_auth(dialog, dialog.request_line)
            submit(dialog)

        monkeypatch.setattr(ConfirmModal, "action_confirm", action_confirm)
        monkeypatch.setattr(RequestModal, "action_submit", action_submit)

    # -- recording --------------------------------------------------------------------------

    def _record_run(self, action: str, namespace: Any) -> None:
        owner = screen_of(namespace) if isinstance(namespace, DOMNode) else None
        top = self.app.screen
        pending = [
            w
            for w in self.app.workers
            if w.group == "action"
            and not w.is_finished
            and w not in self.first_push
            and screen_of(w.node) is owner
        ]
        seq = self._tick()
        self.runs.append(ActionRun(seq, self.current_key, action, owner, top, pending))

    def _record_push(self, screen: Any, wait: Any) -> None:
        worker: Worker[Any] | None
        try:
            worker = get_current_worker()
        except NoActiveWorker:
            worker = None
        seq = self._tick()
        opener = screen_of(worker.node) if worker is not None else None
        if isinstance(screen, Screen):
            top = self.app.screen if self.app.screen_stack else None
            self.pushes.append(Push(seq, screen, top, worker, opener))
            self.pushed.set()
            if worker is not None:
                self.first_push.setdefault(worker, seq)
                if wait:
                    self.waiting[worker] = screen

    def _record_auth(self, dialog: Screen[Any], request_line: str) -> None:
        app = self.app
        on_top = app.screen is dialog
        focused = dialog.focused is not None
        why = (
            ""
            if on_top and focused
            else (
                f"it was not on top ({app.screen!r} was)"
                if not on_top
                else "nothing in it had focus"
            )
        )
        self.auths.append(
            Authorisation(
                self._tick(),
                f"{type(dialog).__name__} (key {self.current_key!r})",
                on_top and focused,
                self._endpoint_of(request_line),
                why,
            )
        )

    def _endpoint_of(self, request_line: str) -> str | None:
        """The endpoint a dialog's ``METHOD /path`` line names (None when it cannot tell)."""
        simulator = getattr(self.app.state.session, "simulator", None)
        method, _, path = request_line.strip().partition(" ")
        if simulator is None or not path.startswith("/"):
            return None
        with contextlib.suppress(Exception):
            endpoint, _params, _known = simulator.router.match(method.upper(), path)
            if endpoint is not None:
                return str(endpoint.name)
        return None

    # -- settling ---------------------------------------------------------------------------

    def _open_screens(self) -> set[Screen[Any]]:
        stacks = getattr(self.app, "_screen_stacks", {})
        return {s for stack in stacks.values() for s in stack}

    def busy_workers(self) -> list[Worker[Any]]:
        """Unfinished workers, except those waiting for a dialog that is still open."""
        open_screens = self._open_screens()
        return [
            w
            for w in self.app.workers
            if not w.is_finished and not (w in self.waiting and self.waiting[w] in open_screens)
        ]

    async def settle(self, pilot: Pilot[Any]) -> None:
        """Let every key, worker and repaint finish (workers start workers: loop until quiet).

        Raises:
            AssertionError: A worker still runs, or typed keys are still on their way, after
                :data:`SETTLE_LIMIT` seconds.
        """
        quiet = 0
        deadline = Deadline(SETTLE_LIMIT)
        while quiet < 2:
            if deadline.passed:
                raise AssertionError(
                    f"typed keys never dealt with in {SETTLE_LIMIT:g} s: {self.app.key_gate}"
                )
            busy = self.busy_workers()
            if busy:
                quiet = 0
                # Wake when any busy worker ends or a screen is pushed (a worker that opened
                # its dialog now waits for the user and no longer counts as busy).
                self.pushed.clear()
                futures = {asyncio.ensure_future(_finished(w)) for w in busy}
                futures.add(asyncio.ensure_future(self.pushed.wait()))
                done, pending = await asyncio.wait(
                    futures, timeout=deadline.left, return_when=asyncio.FIRST_COMPLETED
                )
                for future in pending:
                    future.cancel()
                if not done:
                    names = [w.name or repr(w) for w in busy]
                    raise AssertionError(
                        f"workers still running after {SETTLE_LIMIT:.0f} s: {names}; "
                        f"stack {self.app.screen_stack}; pushes {self.pushes}"
                    )
            elif not getattr(self.app, "key_gate", None) or self.app.key_gate.idle:
                quiet += 1
            else:
                quiet = 0  # typed keys are still on their way (the app's key gate)
            await pilot.pause()


async def _finished(worker: Worker[Any]) -> None:
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await worker.wait()


# -- invariants -----------------------------------------------------------------------------


def focus_problem(app: Any, *, arrived: bool = True) -> str | None:
    """Why the focus is wrong now, or None.

    On a list, detail or statistics screen the keys must belong to what the user looks at: the
    focused widget exists, is displayed, lives on the top screen, and is the sidebar or inside a
    pane/detail panel (a focused tab strip shows only the screen's keys, so the shown pane's
    keys, e.g. the Stats tab's ``c t m < >``, are unreachable). On a dialog, whatever has focus
    must be displayed and inside it.

    Args:
        app: The app.
        arrived: The focus moved during the step; a focus outside any pane is reported only
            then (once), not again on every later step while it stays there.
    """
    top = app.screen
    focused = app.focused
    if focused is None:
        if isinstance(top, ShellScreen):
            return f"nothing has focus on {top!r}: keys reach no list or pane"
        return None
    if screen_of(focused) is not top or not focused.is_attached:
        return f"focused {focused!r} is not on the top screen {top!r}"
    if not shown(focused):
        return f"focused {focused!r} is hidden (display: none) on {top!r}"
    if arrived and isinstance(top, ShellScreen) and not isinstance(focused, Sidebar):
        inside = any(
            isinstance(n, RefreshingPane | DetailPanel) for n in (focused, *focused.ancestors)
        )
        # A home screen (the check) holds its table itself: only a screen of panes is judged.
        has_panes = bool(top.query(RefreshingPane)) or bool(top.query(DetailPanel))
        if not inside and has_panes:
            return (
                f"focused {focused!r} on {top!r} is not in a pane: the shown pane's keys "
                "(its table, chart or panel) do not work"
            )
    return None


def fingerprint(app: Any) -> tuple[Any, ...]:
    """Everything a key can observably change: screens, focus, notifications, requests sent,
    the clipboard and what the terminal shows."""
    stacks = getattr(app, "_screen_stacks", {})
    simulator = getattr(app.state.session, "simulator", None)
    return (
        app.current_mode,
        tuple((mode, tuple(id(s) for s in stack)) for mode, stack in stacks.items()),
        id(app.focused),
        len(app.notification_log),
        len(simulator.request_log) if simulator is not None else 0,
        app.last_copied,
        screen_text(app),
    )


def is_dialog(screen: Screen[Any] | None) -> bool:
    """True for a modal dialog (confirmation, form ...)."""
    return isinstance(screen, ModalScreen)


@dataclass
class Mark:
    """Where a step started in the probe's records and the simulator's log."""

    seq: int
    requests: int
    failures: int


def mark(probe: KeyProbe) -> Mark:
    """Remember where the records stand before a step."""
    simulator = getattr(probe.app.state.session, "simulator", None)
    log = simulator.request_log if simulator is not None else []
    return Mark(probe.seq, len(log), len(probe.failures))


def safety_violations(probe: KeyProbe, since: Mark) -> list[str]:
    """Keyboard-safety problems since ``since``: errors, keys that reached a screen beneath a
    dialog being opened, dialogs opened over another screen, unauthorised changes."""
    app = probe.app
    problems: list[str] = []
    problems += [f"unexpected error: {f}" for f in probe.failures[since.failures :]]
    if getattr(app, "_exception", None) is not None:
        problems.append(f"the app crashed: {app._exception!r}")
    pushes = [p for p in probe.pushes if p.seq > since.seq]
    for push in pushes:
        if isinstance(push.screen, ErrorScreen):
            problems.append(
                f"the error screen opened: {push.screen.error_title!r}: {push.screen.error!r}"
            )
        if push.opener is not None and push.top is not None and push.top is not push.opener:
            problems.append(
                f"{push.opener!r}'s action opened {push.screen!r} on top of {push.top!r}: "
                "keys typed meanwhile went to a screen the user could not see"
            )
    for run in (r for r in probe.runs if r.seq > since.seq):
        for worker in run.pending:
            opened = probe.first_push.get(worker)
            if opened is not None and opened > run.seq:
                problems.append(
                    f"key {run.key!r} ran {run.action!r} on {run.owner!r} while a dialog an "
                    "earlier key asked for was not shown yet (it reached the screen beneath)"
                )
    simulator = getattr(app.state.session, "simulator", None)
    if simulator is not None:
        auths = [a for a in probe.auths if a.seq > since.seq]
        for name in simulator.request_log[since.requests :]:
            if not is_mutating(name):
                continue
            if any(a.valid and a.endpoint in (None, name) for a in auths):
                continue
            detail = "; ".join(
                f"{a.what} {'ok' if a.valid else 'INVALID: ' + a.why} for {a.endpoint}"
                for a in auths
            )
            problems.append(
                f"{REGISTRY[name].method} {name} was sent without the top dialog's confirm/send"
                f" ({detail or 'no dialog confirmed anything'})"
            )
    return problems


__all__ = [
    "ActionRun",
    "Authorisation",
    "ErrorScreen",
    "KeyProbe",
    "Mark",
    "Push",
    "fingerprint",
    "focus_problem",
    "is_dialog",
    "is_mutating",
    "key_of",
    "mark",
    "safety_violations",
    "screen_of",
    "screen_text",
    "shown",
    "shown_footer_bindings",
    "type_fast",
]
