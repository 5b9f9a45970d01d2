"""What a handler receives (:class:`Ctx`) and what a seeder receives (:class:`SeedContext`)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tui.api.endpoints import Endpoint
from tui.simulator.auth import Principal
from tui.simulator.clock import iso
from tui.simulator.demo_users import grant_restricted
from tui.simulator.errors import bad_request, not_found
from tui.simulator.store import Store
from tui.simulator.validate import Check

if TYPE_CHECKING:
    from tui.simulator.app import Simulator


@dataclass
class Collection:
    """A handler's answer for a collection operation: the core paginates it.

    Attributes:
        items: Every item visible to the caller, in display order.
    """

    items: list[dict[str, Any]]


@dataclass
class Ctx:
    """One request, as a handler sees it.

    Attributes:
        sim: The simulator (store, clock, timings, settings).
        endpoint: The matched endpoint.
        params: Path parameters; integers already converted where the value is all digits.
        query: Query parameters (last value wins).
        body: Decoded JSON body; ``{}`` when absent.
        principal: Who is calling.
        base_url: Absolute URL of the simulator root (``http://host:port``), for pre-signed URLs.
        client_ip: Caller's address as the server saw it.
        current: For an update (``PUT``), the resource as a read of the same path answers it
            now (the one above it where the path has no read), or None: what a client that
            sends back what it read would echo.
    """

    sim: Simulator
    endpoint: Endpoint
    params: dict[str, Any]
    query: dict[str, str]
    body: Any
    principal: Principal
    base_url: str = "http://127.0.0.1"
    client_ip: str = "127.0.0.1"
    current: dict[str, Any] | None = None

    @property
    def store(self) -> Store:
        """The simulator's state."""
        return self.sim.store

    @property
    def now(self) -> float:
        """Current simulated time, epoch seconds."""
        return self.sim.clock.now()

    @property
    def now_iso(self) -> str:
        """Current simulated time in the API's date-time format."""
        return iso(self.now)

    def delay(self, name: str) -> float:
        """Seconds a named asynchronous step takes (``sim.timings``)."""
        return self.sim.timings.get(name, 5.0)

    def schedule(self, name: str, after: float, **args: Any) -> None:
        """Plan transition ``name`` ``after`` seconds from now."""
        self.store.schedule(self.now + after, name, **args)

    def param_int(self, name: str) -> int:
        """A path parameter that must be an integer (404 otherwise, like an unknown id)."""
        value = self.params.get(name)
        if isinstance(value, int):
            return value
        # The router hands over strings; only plain ASCII digits name an integer id.
        if isinstance(value, str) and value.isascii() and value.isdigit():
            return int(value)
        raise not_found()

    def check(self) -> Check:
        """A :class:`Check` over the body that knows :attr:`current`, so an update may echo the
        fields it read (see :meth:`Check.unknown`)."""
        return Check(self.body, current=self.current)

    def require_body_object(self) -> dict[str, Any]:
        """The body, which must be a JSON object (400 otherwise)."""
        if not isinstance(self.body, dict):
            raise bad_request("Request body must be a JSON object")
        return self.body

    def record(self, table: str, key: object) -> dict[str, Any]:
        """A record that must exist (404 otherwise)."""
        rec = self.store.get(table, key)
        if rec is None:
            raise not_found()
        return rec


@dataclass
class SeedContext:
    """What a demo-data seeder receives.

    Attributes:
        store: The state to fill.
        now: Seed time, epoch seconds (virtual clocks make seeds deterministic).
        rng: Deterministic random source, private to each seeder.
        scale: Extra instances requested by ``--scale`` (other resources proportionally).
        shared: Values seeders pass on to later ones (instance ids for volumes, ...).
    """

    store: Store
    now: float
    rng: random.Random
    scale: int = 0
    shared: dict[str, Any] = field(default_factory=dict)

    def iso(self, offset: float = 0.0) -> str:
        """Seed time plus ``offset`` seconds, API-formatted."""
        return iso(self.now + offset)

    def grant(self, kind: str, entity_id: object, label: str, permissions: str) -> None:
        """Give the restricted demo user ``read_only`` or ``read_write`` on an entity."""
        grant_restricted(self.store, kind, entity_id, label, permissions)


def public(record: dict[str, Any]) -> dict[str, Any]:
    """A record without its internal ``_``-prefixed fields: what the API returns."""
    # k[0] rather than k.startswith: this runs for every item of every listing.
    return {k: v for k, v in record.items() if k[:1] != "_"}
