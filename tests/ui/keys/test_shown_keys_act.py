"""Every key a screen's footer shows either acts or says why not: never nothing.

One walk over the screens (:data:`SCREENS`: every area's list and the detail of its first
item, plus the tabs and child screens where keys were found doing nothing). On each screen,
each key its footer shows is pressed and the app is watched for a sign that it did something:
another screen or dialog, a notification (what was done, or why it was not), a worker
started (a refresh, a request), a program given the terminal, the focus moved, or what the
screen shows changed (a sort, a mark, a scroll). A key that gives none of these does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from textual.worker_manager import WorkerManager

from tests.ui.helpers import make_app, open_area, pauses, settle, started
from tui.resources.areas import AREAS, SPECS

NOT_PRESSED = {"app.quit": "it ends the app (its confirmation has tests of its own)"}
"""Binding ids the walk leaves out, and why."""


def _lists(spec_id: str) -> bool:
    """True when the area opens on a list (not on one record, as the profile does)."""
    spec = SPECS.get(spec_id)
    return spec is not None and not spec.singleton


ACT_WITHIN = 3.0
"""Seconds a key has to show that it acted (a refusal is a notification at once)."""


@dataclass(frozen=True)
class Place:
    """A screen to sweep: an area, then keys that lead from its list to the screen.

    ``app_keys``: also press the keys every screen shares (``:``, ``?``, the palette, back,
    the areas): the same bindings everywhere, so one place is enough.
    """

    name: str
    area: str
    keys: tuple[str, ...] = ()
    app_keys: bool = False


APP_KEYS = ("app.", "nav.")
"""Binding id prefixes of the keys every screen shares."""


SCREENS = (
    Place("instances, with the keys of every screen", "instances", app_keys=True),
    *(Place(area.id, area.id) for area in AREAS),
    *(Place(f"{area.id} item", area.id, ("enter",)) for area in AREAS if _lists(area.root)),
    # Where keys were found doing nothing: a domain's tabs, a pool, a volume.
    Place("domain Records tab", "domains", ("enter", "]")),
    Place("domain Zone file tab", "domains", ("enter", "]", "]")),
    Place("node pool", "k8s", ("enter", "]", "enter")),
    Place("overview", "overview"),
    Place("activity log", "log"),
    Place("watchlist", "watch"),
)


def _screen_text(app: Any) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def _footer_keys(app: Any, app_keys: bool) -> list[tuple[str, str]]:
    """``(key, description)`` of every key the footer shows (one per action, as it does)."""
    seen: dict[str, tuple[str, str]] = {}
    for _node, binding, _enabled, _tooltip in app.screen.active_bindings.values():
        shared = (binding.id or "").startswith(APP_KEYS)
        if binding.id in NOT_PRESSED or (shared and not app_keys):
            continue
        if binding.show and binding.action not in seen:
            seen[binding.action] = (binding.key.split(",")[0], binding.description)
    return list(seen.values())


class Watch:
    """What the app did since :meth:`mark`."""

    def __init__(self, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.app = app
        self.workers = 0
        self.handoffs = 0
        # A hand-off (ssh, k9s, $EDITOR) is recorded, never run: the walk has no terminal to
        # give away, and a real ssh would wait for a host that is not there.
        app.handoff_runner = self._ran
        original = WorkerManager.add_worker

        def counting(manager: WorkerManager, *args: Any, **kwargs: Any) -> Any:
            self.workers += 1
            return original(manager, *args, **kwargs)

        monkeypatch.setattr(WorkerManager, "add_worker", counting)
        self.mark()

    def _ran(self, argv: list[str], env: dict[str, str]) -> int:
        self.handoffs += 1
        return 0

    def mark(self) -> None:
        app = self.app
        self.before = (
            list(app.screen_stack),
            app.current_mode,
            len(app._notifications),
            self.workers + self.handoffs,
            app.focused,
            _screen_text(app),
        )

    def acted(self) -> bool:
        app = self.app
        stack, mode, notes, workers, focused, text = self.before
        return (
            list(app.screen_stack) != stack
            or app.current_mode != mode
            or len(app._notifications) != notes
            or self.workers + self.handoffs != workers
            or app.focused is not focused
            or _screen_text(app) != text
        )


async def _open(pilot: Any, place: Place) -> Any:
    if any(area.id == place.area and _lists(area.root) for area in AREAS):
        await open_area(pilot, place.area)
    else:
        pilot.app.go_to_area(place.area)
        await settle(pilot)
    for key in place.keys:
        await pilot.press(key)
        await settle(pilot)
    return pilot.app.screen


async def _back_to(pilot: Any, screen: Any, reopen: Callable[[], Any]) -> Any:
    """Close what the key opened; open the place again when the key left it."""
    app = pilot.app
    async for _ in pauses(pilot):
        if app.screen is screen or screen not in app.screen_stack:
            break
        await pilot.press("escape")
    if app.screen is not screen:
        app.clear_notifications()
        return await reopen()
    await settle(pilot)
    app.clear_notifications()
    return screen


@pytest.mark.parametrize("place", SCREENS, ids=lambda place: place.name)
async def test_every_shown_key_acts_or_says_why_not(
    place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    silent: list[str] = []
    async with started(app, (120, 40)) as pilot:
        screen = await _open(pilot, place)
        watch = Watch(app, monkeypatch)
        for key, description in _footer_keys(app, place.app_keys):
            watch.mark()
            await pilot.press(key)
            async for _ in pauses(pilot, ACT_WITHIN):
                if watch.acted():
                    break
            else:
                silent.append(f"{key} ({description})")
            screen = await _back_to(pilot, screen, lambda: _open(pilot, place))
    assert not silent, f"on {place.name} these keys did nothing: {silent}"
