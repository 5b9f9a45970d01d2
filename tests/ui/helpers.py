"""Shared helpers of the UI tests: a demo app on a virtual clock, and waiting for it to settle."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from textual.pilot import Pilot
from textual.worker import WorkerFailed

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


SETTLE_LIMIT = 30.0
"""Seconds a test waits for workers before failing: a dialog left open (its worker waits for
it) must fail the test with a message, never hang the suite."""


async def settle(pilot: Pilot[Any], rounds: int = 3) -> None:
    """Let workers finish and the screen repaint (a few rounds: workers start workers)."""
    for _ in range(rounds):
        waiting = asyncio.ensure_future(pilot.app.workers.wait_for_complete())
        done, _pending = await asyncio.wait({waiting}, timeout=SETTLE_LIMIT)
        if not done:
            waiting.cancel()
            running = [w.name or repr(w) for w in pilot.app.workers if not w.is_finished]
            raise AssertionError(
                f"workers still running after {SETTLE_LIMIT:.0f} s: {running}; "
                f"the screen is {pilot.app.screen!r} (a dialog left open?)"
            )
        # Failures are routed to the app's handler; tests assert on its effects.
        with contextlib.suppress(WorkerFailed):
            waiting.result()
        await pilot.pause()


def not_implemented(error: BaseException | None) -> bool:
    """True when the simulator has no handler yet (the area's data layer is unfinished)."""
    return isinstance(error, ApiError) and error.status == 501


def seeded(endpoint_area: str) -> bool:
    """True when the simulator seeds demo data for an endpoint area (``compute``, ``images``)."""
    from tui.simulator import Simulator, registry

    Simulator(seed=False)  # registers every seeder
    return endpoint_area in {area for _order, area, _fn in registry.SEEDERS}


async def wait_for_screen(pilot: Pilot[Any], screen_type: type[Any], rounds: int = 50) -> Any:
    """Pause until the active screen is a ``screen_type`` (a dialog opened by a worker).

    Do not call :func:`settle` while a dialog is open: the worker that opened it is waiting
    for it, so waiting for every worker would never return.
    """
    for _ in range(rounds):
        if isinstance(pilot.app.screen, screen_type):
            return pilot.app.screen
        await pilot.pause()
    raise AssertionError(f"{screen_type.__name__} did not open; screen is {pilot.app.screen!r}")


async def open_area(pilot: Pilot[Any], area: str) -> Any:
    """Show ``area`` with its list loaded and focused; returns the list pane."""
    from screens.lists.list_pane import ResourceListPane

    pilot.app.go_to_area(area)
    await settle(pilot)
    pane = pilot.app.screen.query_one("#pane-0", ResourceListPane)
    pane.table.focus()
    await pilot.pause()
    return pane


async def wait_until(pilot: Pilot[Any], condition: Any, rounds: int = 60) -> None:
    """Pause until ``condition()`` holds (a worker filling a list); fail after ``rounds``."""
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause()
    raise AssertionError("condition never held")


async def open_form(pilot: Pilot[Any], area: str, key: str = "n") -> Any:
    """Open ``area``, press ``key`` on its list and return the form it opens."""
    from screens.actions.form import FormModal

    await open_area(pilot, area)
    await pilot.press(key)
    return await wait_for_screen(pilot, FormModal)
