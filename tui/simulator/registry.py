"""Registration of the simulator's handlers, transitions, raw routes and seeders.

Area modules under ``tui.simulator.handlers`` and ``tui.simulator.seeds`` register themselves
with these decorators when imported; the core never names an area.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tui.api.endpoints import REGISTRY

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from tui.simulator.context import Ctx, SeedContext
    from tui.simulator.store import Store

Handler = Callable[["Ctx"], Any]
Transition = Callable[["Store", float], None] | Callable[..., None]
RawHandler = Callable[["Request", Any], Awaitable["Response"]]
Seeder = Callable[["SeedContext"], None]

HANDLERS: dict[str, Handler] = {}
TRANSITIONS: dict[str, Callable[..., None]] = {}
DEADLINES: set[str] = set()
"""Names of timed events that are time limits (an upload window, an expiry date) rather than
work that takes time: the simulator's instant mode leaves them at their time."""
SEEDERS: list[tuple[int, str, Seeder]] = []


@dataclass(frozen=True)
class RawRoute:
    """A non-API route served by the simulator (pre-signed object URLs, image uploads).

    Attributes:
        prefix: Path prefix, e.g. ``/_sim/objects/``.
        handler: ``async (request, simulator) -> Response``.
        operation: Name the fault settings know the route by (``fail_next`` and the rates
            apply to it as to an API operation); empty: no faults.
    """

    prefix: str
    handler: RawHandler
    operation: str = ""


RAW_ROUTES: list[RawRoute] = []

DEMO_NOTES: dict[str, str] = {}
"""Endpoint name -> what its form tells a demo user about the simulator (which nameserver
allows zone transfers): facts of the simulated world a user cannot know otherwise."""


def demo_note(name: str, text: str) -> None:
    """Register what the form of endpoint ``name`` says in demo mode."""
    if name not in REGISTRY:
        raise KeyError(f"no endpoint named {name!r}")
    DEMO_NOTES[name] = text


def handles(name: str) -> Callable[[Handler], Handler]:
    """Register the handler of endpoint ``name`` (a key of the endpoint registry).

    The handler takes a :class:`~tui.simulator.context.Ctx` and returns JSON-ready data, a
    :class:`~tui.simulator.context.Collection`, ``None`` (meaning ``{}``), or a starlette Response.
    It may be sync or async.
    """
    if name not in REGISTRY:
        raise KeyError(f"no endpoint named {name!r}")

    def register(fn: Handler) -> Handler:
        if name in HANDLERS:
            raise KeyError(f"endpoint {name!r} already has a handler")
        HANDLERS[name] = fn
        return fn

    return register


def transition(
    name: str, *, deadline: bool = False
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a timed transition, called as ``fn(store, now, **args)`` when due.

    Args:
        name: The event name handlers schedule.
        deadline: The event ends a time limit (see :data:`DEADLINES`) instead of finishing
            work in progress.
    """

    def register(fn: Callable[..., None]) -> Callable[..., None]:
        TRANSITIONS[name] = fn
        if deadline:
            DEADLINES.add(name)
        return fn

    return register


def raw_route(prefix: str, operation: str = "") -> Callable[[RawHandler], RawHandler]:
    """Register a non-API route under ``prefix`` (must start with ``/_sim/``).

    Args:
        prefix: Path prefix of the route.
        operation: Fault name of the route (see :class:`RawRoute`).
    """
    if not prefix.startswith("/_sim/"):
        raise ValueError("raw routes live under /_sim/")

    def register(fn: RawHandler) -> RawHandler:
        RAW_ROUTES.append(RawRoute(prefix, fn, operation))
        return fn

    return register


def seeder(area: str, order: int = 50) -> Callable[[Seeder], Seeder]:
    """Register a demo-data seeder; lower ``order`` runs first (compute before volumes)."""

    def register(fn: Seeder) -> Seeder:
        SEEDERS.append((order, area, fn))
        SEEDERS.sort(key=lambda item: (item[0], item[1]))
        return fn

    return register
