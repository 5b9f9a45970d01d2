"""An in-process transport whose simulator is built on first use, off the event loop.

``cloudtui --demo`` must draw its first frame quickly. Importing and seeding the simulator takes
a few hundred milliseconds, so the demo session starts with this transport: the first request
builds the simulator in a worker thread (the screen keeps painting meanwhile) and every request
then goes to it in-process, exactly like :class:`~tui.simulator.app.SimulatorTransport`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

import httpx


class Servable(Protocol):
    """What the transport needs of what it builds: an in-process transport to it (the
    simulator's)."""

    def transport(self) -> httpx.AsyncBaseTransport:
        """A transport that serves requests in-process."""
        ...


Simulator = TypeVar("Simulator", bound=Servable)
"""What is built: :class:`tui.simulator.app.Simulator`, which imports this module."""

IN_PROCESS_BASE = "http://sim.local/v4"
"""Base URL used with the in-process transport (never resolved: no network involved)."""


class LazySimulatorTransport(httpx.AsyncBaseTransport, Generic[Simulator]):
    """Builds the simulator on the first request, then serves every request in-process.

    Args:
        build: Makes the simulator (runs in a worker thread, once).
    """

    def __init__(self, build: Callable[[], Simulator]) -> None:
        self._build = build
        self._building: concurrent.futures.Future[Simulator] | None = None
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._inner: httpx.AsyncBaseTransport | None = None
        self.simulator: Simulator | None = None
        """The simulator once built (None before the first request)."""
        self._held = False
        self._waiting: list[asyncio.Future[None]] = []

    def hold(self) -> None:
        """Make requests wait, without building, until :meth:`release`.

        The app holds the build until its first frame is on the terminal: building earlier
        (imports, models, seeding) would split the interpreter with the first frame's work.
        """
        if self.simulator is None:
            self._held = True

    def release(self) -> None:
        """Let waiting and later requests build the simulator and go through."""
        self._held = False
        waiting, self._waiting = self._waiting, []
        for future in waiting:
            if not future.done():
                future.set_result(None)

    def start(self) -> None:
        """Begin building, in a worker thread (the event loop goes on painting)."""
        if self._building is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(1, "cloudtui-simulator")
            self._building = self._pool.submit(self._build)

    async def ready(self) -> Simulator:
        """The simulator, built now if it is not yet (concurrent callers share one build)."""
        while self._held:
            future = asyncio.get_running_loop().create_future()
            self._waiting.append(future)
            await future
        if self.simulator is None:
            self.start()
            assert self._building is not None
            simulator = await asyncio.shield(asyncio.wrap_future(self._building))
            if self.simulator is None:
                self.simulator = simulator
                self._inner = simulator.transport()
        return self.simulator

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await self.ready()
        assert self._inner is not None
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        if self._inner is not None:
            await self._inner.aclose()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
