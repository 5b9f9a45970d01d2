"""The runtime of one program run: client, settings, and (in demo mode) the simulator.

The app receives a :class:`Session` and never builds HTTP clients itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import httpx
from pydantic import SecretStr

from tui.accounts.naming import AccountMark, account_mark
from tui.api.client import ApiClient
from tui.api.retry import RetryPolicy
from tui.session.config import Settings

if TYPE_CHECKING:
    from tui.simulator.app import Simulator
    from tui.simulator.clock import Clock
    from tui.simulator.lazy import LazySimulatorTransport

DEMO_USERS = ("unrestricted", "restricted", "readonly")


@dataclass
class Session:
    """Everything a running app needs to talk to the API.

    Attributes:
        client: The one API client.
        settings: Loaded settings.
        profile_name: Profile in use (``DEMO`` in demo mode).
        demo_user: Demo user kind, or None outside demo mode.
        backend: The in-process simulator in demo mode, or the transport that builds it on the
            first request (see :attr:`simulator`).
        token_scopes: OAuth scopes of the token when known (demo tokens); None when the token is
            personal or its scopes are unknown.
    """

    client: ApiClient
    settings: Settings
    profile_name: str
    demo_user: str | None = None
    backend: Simulator | LazySimulatorTransport | None = field(default=None, repr=False)
    token_scopes: frozenset[str] | None = None

    @property
    def mark(self) -> AccountMark:
        """How the account is named on screen (its name, and the colour the config gives it)."""
        return account_mark(self.settings, self.profile_name)

    @property
    def demo(self) -> bool:
        """True when running against the in-process simulator."""
        return self.backend is not None

    @property
    def simulator(self) -> Simulator | None:
        """The in-process simulator (None outside demo mode, or until a lazy one is built)."""
        from tui.simulator.lazy import LazySimulatorTransport

        if isinstance(self.backend, LazySimulatorTransport):
            return self.backend.simulator
        return self.backend

    def hold_backend(self) -> None:
        """Keep a lazy demo simulator unbuilt (its requests waiting) until :meth:`release_backend`.

        The app holds it while it draws its first frame, so building the simulator does not
        compete with that frame for the interpreter. No effect outside lazy demo mode.
        """
        from tui.simulator.lazy import LazySimulatorTransport

        if isinstance(self.backend, LazySimulatorTransport):
            self.backend.hold()

    def release_backend(self) -> None:
        """Let a held demo simulator build and answer (see :meth:`hold_backend`)."""
        from tui.simulator.lazy import LazySimulatorTransport

        if isinstance(self.backend, LazySimulatorTransport):
            self.backend.release()

    @property
    def api_host(self) -> str:
        """Host shown in the status bar."""
        return "in-process simulator" if self.demo else self.client.host

    @classmethod
    def for_demo(
        cls,
        settings: Settings,
        user: str = "unrestricted",
        *,
        clock: Clock | None = None,
        scale: int = 0,
        latency: float = 0.0,
        retry: RetryPolicy | None = None,
        lazy: bool = False,
        hostile: bool = False,
    ) -> Session:
        """A session on a freshly seeded in-process simulator (no token, no network, no port).

        Args:
            settings: Settings (refresh intervals, page size ...).
            user: ``unrestricted``, ``restricted`` or ``readonly``.
            clock: Simulator clock (tests pass a virtual one).
            scale: Extra instances to seed.
            latency: Simulated latency per request, seconds.
            retry: Retry policy override.
            lazy: Build the simulator on the first request, in a worker thread, so the first
                frame does not wait for it (``cloudtui --demo``).
            hostile: Seed the hostile data set (``--demo-data hostile``).
        """
        from tui.simulator.auth import DEMO_TOKENS, READONLY_SCOPES
        from tui.simulator.lazy import IN_PROCESS_BASE, LazySimulatorTransport

        if user not in DEMO_USERS:
            raise ValueError(f"unknown demo user {user!r}; choose from {', '.join(DEMO_USERS)}")

        def build() -> Simulator:
            from tui.simulator.app import Simulator
            from tui.simulator.faults import Faults

            return Simulator(
                clock=clock, scale=scale, faults=Faults(latency=latency), hostile=hostile
            )

        backend: Simulator | LazySimulatorTransport
        if lazy:
            backend = LazySimulatorTransport(build)
            transport: httpx.AsyncBaseTransport = backend
        else:
            backend = build()
            transport = backend.transport()
        client = ApiClient(
            IN_PROCESS_BASE,
            SecretStr(DEMO_TOKENS[user]),
            transport=transport,
            allow_insecure=True,
            retry=retry,
            max_concurrency=settings.max_concurrency,
            page_size=settings.page_size,
        )
        scopes = frozenset(READONLY_SCOPES) if user == "readonly" else None
        return cls(client, settings, "DEMO", user, backend, scopes)

    @classmethod
    def for_profile(
        cls, settings: Settings, profile_name: str, base_url: str, token: SecretStr
    ) -> Session:
        """A session against a real API.

        Args:
            settings: Settings.
            profile_name: Profile name, for display.
            base_url: Validated base URL ending in /v4.
            token: The bearer token.
        """
        client = ApiClient(
            base_url,
            token,
            connect_timeout=settings.connect_timeout,
            read_timeout=settings.read_timeout,
            max_concurrency=settings.max_concurrency,
            page_size=settings.page_size,
        )
        return cls(client, settings, profile_name)

    async def aclose(self) -> None:
        """Release the connection pool."""
        await self.client.aclose()
