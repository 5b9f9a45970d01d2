"""Shared helpers of the UI tests: a demo app on a virtual clock, and waiting for it to settle.

Every wait here ends when what it waits for has happened, or fails at a deadline in seconds
(:data:`tests.waits.WAIT_LIMIT`), never after a count of pauses: a count that suffices on an
idle machine runs out beside busy neighbours. ``rounds`` arguments are still accepted (older
callers pass them) and ignored, but by :func:`settle`, where they count generations of workers.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from textual.pilot import Pilot
from textual.worker import WorkerCancelled, WorkerFailed

from tests.waits import WAIT_LIMIT, Deadline
from tui.api.errors import ApiError
from tui.api.retry import RetryPolicy
from tui.session.config import RefreshSettings, Settings
from tui.session.runtime import Session
from tui.simulator import VirtualClock


async def no_sleep(_seconds: float) -> None:
    await asyncio.sleep(0)


def demo_session(
    user: str = "unrestricted", *, clock: VirtualClock | None = None, **settings: Any
) -> Session:
    """A demo session on a virtual clock whose retries do not wait.

    Refresh timers are long by default so nothing refreshes behind a test's back; tests call
    the screens' refresh methods.
    """
    settings.setdefault("refresh", RefreshSettings(fast=60, slow=3600, max_backoff=3600))
    # Most tests start where the user works (a list); the overview's own tests ask for it.
    settings.setdefault("start_area", "instances")
    return Session.for_demo(
        Settings(**settings),
        user,
        clock=clock or VirtualClock(),
        retry=RetryPolicy(sleep=no_sleep),
    )


def make_app(session: Session | None = None, **kwargs: Any) -> Any:
    from tui.app import CloudApp

    session = session or demo_session()
    app = CloudApp(session.settings, session, **kwargs)
    # Scrolls and other animations end at once: a test waits for no frames, and what it
    # checks after a key is where things end up.
    app.animation_level = "none"
    return app


@contextlib.asynccontextmanager
async def started(
    app: Any | None = None, size: tuple[int, int] = (100, 40), *, handoffs: bool = False
) -> AsyncIterator[Pilot[Any]]:
    """``app`` (a new demo app when None) running headless at ``size``, settled once started.

    Args:
        app: The app, made beforehand when a test prepares its state first.
        size: Terminal columns and rows.
        handoffs: Run a hand-off's program without suspending the app (the headless pilot
            has no terminal to give away; the tmux tests cover the real suspension).
    """
    from screens.editors.handoff import captured_runner

    app = app if app is not None else make_app()
    if handoffs:
        app.handoff_runner = captured_runner
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        yield pilot


SETTLE_LIMIT = WAIT_LIMIT
"""Seconds a test waits for workers before failing: a dialog left open (its worker waits for
it) must fail the test with a message, never hang the suite."""


async def settle(pilot: Pilot[Any], rounds: int = 3) -> None:
    """Let workers finish and the screen repaint, ``rounds`` times (workers start workers),
    within :data:`SETTLE_LIMIT` seconds in all."""
    deadline = Deadline(SETTLE_LIMIT)
    for _ in range(rounds):
        waiting = asyncio.ensure_future(pilot.app.workers.wait_for_complete())
        done, _pending = await asyncio.wait({waiting}, timeout=deadline.left)
        if not done:
            waiting.cancel()
            running = [w.name or repr(w) for w in pilot.app.workers if not w.is_finished]
            raise AssertionError(
                f"workers still running after {SETTLE_LIMIT:.0f} s: {running}; "
                f"the screen is {pilot.app.screen!r} (a dialog left open?)"
            )
        # Failures are routed to the app's handler; tests assert on its effects. A worker
        # cancelled meanwhile (an exclusive group restarted on a slow machine) is settled too.
        with contextlib.suppress(WorkerFailed, WorkerCancelled):
            waiting.result()
        await pilot.pause()


async def pauses(pilot: Pilot[Any], seconds: float = WAIT_LIMIT) -> AsyncIterator[None]:
    """Yield, then let the app run (a pause), again and again for up to ``seconds``.

    For a wait that does something between looks (``async for _ in pauses(pilot):``, then
    ``break`` once what it waits for holds); it ends after one last look past the deadline.
    """
    deadline = Deadline(seconds)
    while True:
        yield
        if deadline.passed:
            return
        await pilot.pause()


def not_implemented(error: BaseException | None) -> bool:
    """True when the simulator has no handler yet (the area's data layer is unfinished)."""
    return isinstance(error, ApiError) and error.status == 501


def seeded(endpoint_area: str) -> bool:
    """True when the simulator seeds demo data for an endpoint area (``compute``, ``images``)."""
    from tui.simulator import Simulator, registry

    Simulator(seed=False)  # registers every seeder
    return endpoint_area in {area for _order, area, _fn in registry.SEEDERS}


async def wait_for_screen(
    pilot: Pilot[Any], screen_type: type[Any], rounds: int | None = None
) -> Any:
    """Pause until the active screen is a ``screen_type`` (a dialog opened by a worker).

    Do not call :func:`settle` while a dialog is open: the worker that opened it is waiting
    for it, so waiting for every worker would never return.

    Args:
        pilot: The running app's pilot.
        screen_type: The screen waited for.
        rounds: Ignored (the wait ends at a deadline in seconds).
    """
    async for _ in pauses(pilot):
        # Mounted too: on a loaded machine a screen is current before its widgets exist.
        if isinstance(pilot.app.screen, screen_type) and pilot.app.screen.is_mounted:
            return pilot.app.screen
    raise AssertionError(
        f"{screen_type.__name__} did not open within {WAIT_LIMIT:g} s; "
        f"screen is {pilot.app.screen!r}"
    )


async def open_area(pilot: Pilot[Any], area: str) -> Any:
    """Show ``area`` with its list loaded and focused; returns the list pane."""
    from screens.lists.list_pane import ResourceListPane

    pilot.app.go_to_area(area)
    await settle(pilot)
    pane = pilot.app.screen.query_one("#pane-0", ResourceListPane)
    pane.table.focus()
    await pilot.pause()
    return pane


async def wait_until(
    pilot: Pilot[Any],
    condition: Callable[[], Any],
    rounds: int | None = None,
    *,
    what: str = "",
    seconds: float = WAIT_LIMIT,
) -> None:
    """Pause until ``condition()`` holds (a worker filling a list).

    Args:
        pilot: The running app's pilot.
        condition: Looked at before each pause.
        rounds: Ignored (the wait ends at a deadline in seconds).
        what: Named in the failure.
        seconds: The deadline.

    Raises:
        AssertionError: ``condition()`` still fails after ``seconds``.
    """
    async for _ in pauses(pilot, seconds):
        if condition():
            return
    raise AssertionError(
        f"{what or 'the condition'} never held within {seconds:g} s; "
        f"the screen is {pilot.app.screen!r}"
    )


async def open_form(pilot: Pilot[Any], area: str, key: str = "n") -> Any:
    """Open ``area``, press ``key`` on its list and return the form it opens."""
    from screens.actions.form import FormModal

    await open_area(pilot, area)
    await pilot.press(key)
    return await wait_for_screen(pilot, FormModal)
