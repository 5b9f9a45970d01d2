"""Checking the account of an open session: what the ``:check`` screen and a check over
several accounts call (headless).

:func:`check_session` runs the rules through the session's client as ``cloudtui check`` does,
telling ``on_answer`` each time a request is answered (the screen's progress), and reads the
certificates balancers serve from the demo's simulator or by a handshake.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from tui.check.certificates import CertificateSource, network_source, simulator_source
from tui.check.rules import RULES
from tui.check.run import AccountCheck, check_account

if TYPE_CHECKING:
    from tui.check.model import Rule
    from tui.check.silences import Silences
    from tui.resources.loader import Client
    from tui.session.config import Settings
    from tui.session.runtime import Session


class CountingClient:
    """A client that tells ``on_answer`` the number of answers so far (a page is one).

    Args:
        client: The client every request goes through.
        on_answer: Called with the running count after each answer.
    """

    def __init__(self, client: Client, on_answer: Callable[[int], None]) -> None:
        self.client = client
        self.on_answer = on_answer
        self.answered = 0

    def _count(self) -> None:
        self.answered += 1
        self.on_answer(self.answered)

    async def call(
        self,
        ep: Any,
        path_params: Mapping[str, Any] | None = None,
        *,
        query: Any = None,
        model: Any = None,
    ) -> Any:
        """As the client's ``call``, counted."""
        answer = await self.client.call(ep, path_params, query=query, model=model)
        self._count()
        return answer

    async def iter_all(
        self,
        ep: Any,
        path_params: Mapping[str, Any] | None = None,
        *,
        model: Any = None,
        where: Mapping[str, Any] | None = None,
        slots: AbstractAsyncContextManager[Any] | None = None,
    ) -> AsyncIterator[Any]:
        """As the client's ``iter_all``, each page counted."""
        pages = self.client.iter_all(ep, path_params, model=model, where=where, slots=slots)
        async for page in pages:
            self._count()
            yield page


def certificate_source(session: Session, settings: Settings) -> CertificateSource:
    """Where the certificates of ``session``'s balancers are read: the demo's simulator
    (looked up when first asked: the app builds it after its first frame), else a handshake."""
    if not session.demo:
        return network_source(settings.connect_timeout)

    async def from_simulator(balancer: Mapping[str, Any], config: Mapping[str, Any]) -> Any:
        simulator = session.simulator
        if simulator is None:
            return None
        return await simulator_source(simulator)(balancer, config)

    return from_simulator


def session_now(session: Session) -> float:
    """What ages are measured against: the demo simulator's clock, else the wall clock."""
    simulator = session.simulator
    return simulator.clock.now() if simulator is not None else time.time()


async def check_session(
    session: Session,
    settings: Settings,
    *,
    silences: Silences | None,
    rules: Iterable[Rule] = RULES,
    on_answer: Callable[[int], None] | None = None,
) -> AccountCheck:
    """Check ``session``'s account with ``rules`` (the session stays open).

    Args:
        session: The account's session.
        settings: Loaded settings (``[check] important_tags``, the connect timeout).
        silences: The account's silences (None: nothing is silenced).
        rules: The rules to run (default: all).
        on_answer: Told the number of answers so far, after each.

    Raises:
        CloudError: Nothing could be asked at all (the caller says why).
    """
    client: Client = session.client
    if on_answer is not None:
        client = CountingClient(client, on_answer)
    return await check_account(
        client,
        name=session.profile_name,
        now=session_now(session),
        important_tags=settings.check.important_tags,
        rules=rules,
        silences=silences,
        certificates=certificate_source(session, settings),
    )
