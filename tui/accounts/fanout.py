"""One list across accounts: ``:fanout AREA [PROFILE...]`` (headless).

The items of one kind (instances, volumes, ...) of several profiles are fetched concurrently,
each account through its own session, and shown in one table with an Account column. Every
item carries its account's name in the :data:`ACCOUNT_FIELD` field, so the filter language
finds it (``account:prod``) and an action on a row goes to that row's account. An account that
fails (token rejected, unreachable, rate limited) gives its own error and hides no other.

A profile's token is read when the fanout needs it; the app's own profile uses the app's
session (whichever it is at the time of asking). Whether an account may be changed is asked
each time too, so an open fanout follows ``:read-only``. The sessions opened here are closed
with :meth:`FanoutSessions.aclose`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tui.accounts.read_only import ReadOnlyRules
from tui.accounts.switch import AccountUnavailable, open_account, profile_names
from tui.api.calls import DEFAULT_MAX_CONCURRENCY
from tui.api.errors import CloudError
from tui.api.fair_share import FairShare, PartySlots
from tui.refresh import describe_error, error_title
from tui.resources.areas import SPECS
from tui.resources.loader import fetch_all
from tui.resources.spec import Column, ResourceSpec
from tui.session.config import Settings
from tui.session.runtime import Session

FANOUT_COMMAND = "fanout"

FANOUT_AREAS: Mapping[str, str] = {
    "instances": "compute.instances",
    "volumes": "volumes",
    "loadbalancers": "loadbalancers",
    "lb": "loadbalancers",
    "domains": "domains",
    "k8s": "k8s.clusters",
    "kubernetes": "k8s.clusters",
    "databases": "databases",
    "buckets": "object_storage.buckets",
}
"""``:fanout`` area word -> the spec listed."""

ACCOUNT_FIELD = "account"
"""Field every fanout item gets: the name of the profile it was listed from."""

FANOUT_MAX_CONCURRENCY = 2 * DEFAULT_MAX_CONCURRENCY
"""Pages in flight for all the accounts of one fanout together, handed out in turn (see
:class:`~tui.api.fair_share.FairShare`). Twice one listing's bound: five accounts of 10,000
instances (24 requests each) take four round trips instead of two alone, where one listing's
bound would take six; and at most this many answers are held at once, not 24 per account."""


@dataclass(frozen=True)
class FanoutRequest:
    """What ``:fanout`` asked for.

    Attributes:
        spec: The kind of item listed.
        profiles: The profiles to list it from.
    """

    spec: ResourceSpec
    profiles: tuple[str, ...]


OVERVIEW_WORD = "overview"
"""``:fanout overview`` shows every account's overview side by side."""


@dataclass(frozen=True)
class OverviewRequest:
    """``:fanout overview [PROFILE...]``.

    Attributes:
        profiles: The accounts to show.
    """

    profiles: tuple[str, ...]


CHECK_WORD = "check"
"""``:fanout check`` runs the account check over every account: one row per finding."""


@dataclass(frozen=True)
class CheckRequest:
    """``:fanout check [PROFILE...]``.

    Attributes:
        profiles: The accounts to check.
    """

    profiles: tuple[str, ...]


WHOLE_ACCOUNT_WORDS = (OVERVIEW_WORD, CHECK_WORD)
"""``:fanout`` words that are no list: every account's overview, or its check."""


def parse_fanout_command(
    text: str, settings: Settings
) -> FanoutRequest | OverviewRequest | CheckRequest | str | None:
    """Read ``:fanout AREA [PROFILE...]`` (all profiles when none is named); AREA may be
    ``overview`` or ``check``.

    Returns:
        The request; a message saying what is wrong; None when ``text`` is no fanout command.
    """
    words = text.strip().lstrip(":").split()
    if not words or words[0].lower() != FANOUT_COMMAND:
        return None
    areas = ", ".join(sorted({*(w for w in FANOUT_AREAS if len(w) > 3), *WHOLE_ACCOUNT_WORDS}))
    if len(words) < 2:
        return f"Usage: :fanout AREA [PROFILE...] (AREA: {areas})."
    area = words[1].lower()
    spec_id = FANOUT_AREAS.get(area)
    if spec_id is None and area not in WHOLE_ACCOUNT_WORDS:
        return f"No fanout list of {words[1]!r} (AREA: {areas})."
    known = profile_names(settings)
    names = tuple(dict.fromkeys(words[2:])) or tuple(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        return f"No profile named {', '.join(unknown)} (profiles: {', '.join(known) or 'none'})."
    if not names:
        return "No profiles in the config file yet: run `cloudtui login --profile NAME`."
    if spec_id is None:
        return CheckRequest(names) if area == CHECK_WORD else OverviewRequest(names)
    return FanoutRequest(SPECS[spec_id], names)


def fanout_spec(spec: ResourceSpec) -> ResourceSpec:
    """``spec`` with the Account column first (its title is what ``account:`` filters on)."""
    return replace(spec, columns=(Column(ACCOUNT_FIELD, "Account"), *spec.columns))


def row_key(account: str, spec: ResourceSpec, item: Mapping[str, Any]) -> Hashable:
    """The item's key in the fanout table (ids repeat across accounts)."""
    return (account, spec.item_key(item))


def own_item(item: Mapping[str, Any]) -> dict[str, Any]:
    """The item as its account listed it (without the account field), for actions."""
    return {k: v for k, v in item.items() if k != ACCOUNT_FIELD}


@dataclass(frozen=True)
class AccountListing:
    """What one account answered.

    Attributes:
        account: Profile name.
        items: Its items, each with :data:`ACCOUNT_FIELD` set ([] on error).
        error: Why it could not be listed ('' when it was).
        error_title: Short kind of the error ("Unreachable", "Rate limited" ...).
    """

    account: str
    items: list[dict[str, Any]]
    error: str = ""
    error_title: str = ""


class FanoutSessions:
    """The sessions of the profiles a fanout lists.

    Args:
        settings: Loaded settings.
        current: The app's session now (used for its own profile, never closed here).
        opener: Opens a profile's session (reads its token).
        read_only: Whether a change to an account is refused now, asked each time (the app
            says it from its read-only rules); by default as the profiles say.
        on_open: Called with each session opened here (the app attaches its activity log).
    """

    def __init__(
        self,
        settings: Settings,
        current: Callable[[], Session | None],
        opener: Callable[[Settings, str], Session] = open_account,
        *,
        read_only: Callable[[str], bool] | None = None,
        on_open: Callable[[Session], None] | None = None,
    ) -> None:
        self.settings = settings
        self._current = current
        self._open = opener
        self._opened: dict[str, Session] = {}
        profiles = ReadOnlyRules(settings)
        self.read_only: Callable[[str], bool] = read_only or (lambda n: profiles.mode(n).on)
        self._on_open = on_open

    def session(self, name: str) -> Session:
        """The session of profile ``name`` (opened on first use), refusing changes when
        :attr:`read_only` says so now.

        Raises:
            AccountUnavailable: The profile cannot be opened (no token, bad URL).
        """
        current = self._current()
        if current is not None and current.profile_name == name:
            return current  # the app keeps its own session's read-only flag
        if name not in self._opened:
            session = self._open(self.settings, name)
            self._opened[name] = session
            if self._on_open is not None:
                self._on_open(session)
        session = self._opened[name]
        session.client.read_only = self.read_only(name)
        return session

    def follow_read_only(self) -> None:
        """Apply :attr:`read_only` to every session opened here (it changed)."""
        for name, session in self._opened.items():
            session.client.read_only = self.read_only(name)

    async def listing(
        self, name: str, spec: ResourceSpec, slots: PartySlots | None = None
    ) -> AccountListing:
        """Every ``spec`` item of account ``name``, or its error.

        Args:
            name: The profile.
            spec: What to list.
            slots: Its share of a bound common to several accounts (None: its client's own).
        """
        try:
            items = await fetch_all(self.session(name).client, spec, {}, slots=slots)
        except AccountUnavailable as exc:
            return AccountListing(name, [], str(exc), "Not signed in")
        except CloudError as exc:
            return AccountListing(name, [], describe_error(exc), error_title(exc))
        for item in items:  # freshly decoded for this listing: marked in place, not copied
            item[ACCOUNT_FIELD] = name
        return AccountListing(name, items)

    async def list_all(
        self,
        names: tuple[str, ...],
        spec: ResourceSpec,
        arrived: Callable[[AccountListing], Awaitable[None]],
    ) -> list[AccountListing]:
        """List ``spec`` on every account at once; ``arrived`` takes each in as it comes (the
        others' pages keep arriving meanwhile).

        The accounts share one bound on pages in flight (:data:`FANOUT_MAX_CONCURRENCY`),
        handed out in turn so that every account advances.
        """
        share = FairShare(FANOUT_MAX_CONCURRENCY)

        async def one(name: str) -> AccountListing:
            result = await self.listing(name, spec, share.slots(name))
            await arrived(result)
            return result

        return list(await asyncio.gather(*(one(name) for name in names)))

    async def aclose(self) -> None:
        """Close the sessions opened here (not the app's)."""
        opened, self._opened = list(self._opened.values()), {}
        for session in opened:
            await session.aclose()


def complete_fanout(text: str, names: list[str]) -> list[str]:
    """Completions of ``:fanout AR`` (the areas) and ``:fanout AREA PRO`` (the profiles).

    Returns:
        Completed command lines ([] when ``text`` is not a fanout command).
    """
    words = text.lstrip(":").split(" ")
    if len(words) < 2 or words[0].lower() != FANOUT_COMMAND:
        return []
    *done, partial = words
    if len(done) == 1:
        areas = (*FANOUT_AREAS, *WHOLE_ACCOUNT_WORDS)
        return [f"{FANOUT_COMMAND} {a}" for a in areas if a.startswith(partial.lower())]
    head = " ".join(done)
    return [f"{head} {n}" for n in names if n.startswith(partial) and n not in done[2:]]
