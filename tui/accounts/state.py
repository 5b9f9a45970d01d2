"""What belongs to the account the app is on (headless); a switch replaces it whole.

The app holds one :class:`AccountState`. Everything that is the account's lives in it and
nowhere else: its session (client, base URL, token), how it is named (name and colour), its
read-only mode, the signed-in user, the API's health as the account's requests report it, the
lists loaded so far (the palette's index), its activity log, watchlist and undo journal. A
switch builds a new state for the new session and drops the old one, so nothing of the old
account has to be reset field by field (and none can be forgotten). A late report of the old
account's client (a retry that was under way) lands on the old, detached object and changes
nothing on screen.

The API's health starts as ``connecting``: nothing is claimed before the account has answered.
A request that cannot connect makes it ``unreachable`` at its first failed try, while it is
retried; so does any network failure before the account ever answered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from tui.accounts.naming import AccountMark
from tui.accounts.read_only import ReadOnlyMode, ReadOnlyRules
from tui.api.errors import ApiError, RateLimited, ServerError, TransportFailure
from tui.refresh import classify, retry_text
from tui.resources.availability import UserContext
from tui.resources.spec import ResourceSpec
from tui.session.config import Settings
from tui.session.runtime import Session

if TYPE_CHECKING:
    from tui.check.silences import Silences
    from tui.history.commands import CommandHistory
    from tui.home.activity import ActivityLog
    from tui.home.undo import UndoJournal
    from tui.home.watchlist import Watchlist
    from tui.relations.cache import RelationCache

AccountHealth = Literal["connecting", "online", "unreachable", "rate_limited", "error", "retrying"]
"""What the status bar says about the account's API."""

StateChange = Literal["health", "user"]
"""What changed: the API's health (the status bar repaints), or what the user may do (the
signed-in user or the read-only mode: actions are checked again)."""

IndexKey = tuple[str, tuple[tuple[str, str], ...]]
"""A loaded list in the palette's index: (spec id, its parameters as sorted pairs)."""


@dataclass(eq=False)
class AccountState:
    """The account the app is on, and everything that belongs to it.

    Build it with :meth:`open`; :meth:`detach` it when the app leaves the account.

    Attributes:
        session: The account's session (client, settings, profile name).
        read_only: Its read-only mode and what made it so.
        user: The signed-in user as the API describes it (None until loaded).
        health: The API's health as the account's requests report it.
        retry_text: What a request being retried waits for (shown with ``retrying`` and
            ``unreachable``).
        last_refresh: Epoch seconds of the last successful refresh (None before one).
        resource_index: Items of every list loaded so far (the palette's "jump to resource").
        activity: The account's activity log (None until opened, or when the data folder
            cannot be written).
        watchlist: The account's bookmarks (same).
        undo_journal: The changes of this visit and their undo.
        check_silences: The account check's silenced findings (None until opened, or when
            the data folder cannot be written).
        relations: What uses what in the account (None until first needed or fed).
        commands: The ``:`` commands of the account's profile, kept across runs (None until
            opened, or when the data folder cannot be written).
        on_change: Told what changed (the app repaints or re-checks); None once detached.
    """

    session: Session
    read_only: ReadOnlyMode
    user: UserContext | None = None
    health: AccountHealth = "connecting"
    retry_text: str = ""
    last_refresh: float | None = None
    resource_index: dict[IndexKey, tuple[dict[str, Any], dict[Any, Any]]] = field(
        default_factory=dict
    )
    activity: ActivityLog | None = None
    watchlist: Watchlist | None = None
    undo_journal: UndoJournal | None = None
    check_silences: Silences | None = None
    relations: RelationCache | None = None
    commands: CommandHistory | None = None
    on_change: Callable[[StateChange], None] | None = None
    _context: UserContext | None = field(default=None, init=False, repr=False)

    @classmethod
    def open(
        cls,
        session: Session,
        read_only: ReadOnlyMode,
        on_change: Callable[[StateChange], None] | None = None,
    ) -> AccountState:
        """The state of ``session``'s account, its client reporting here.

        Args:
            session: The account's session.
            read_only: Its read-only mode (the client refuses every change while it is on).
            on_change: Told what changed.
        """
        state = cls(session, read_only, on_change=on_change)
        client = session.client
        client.on_retry = state.retrying
        client.on_recovered = state.succeeded
        client.read_only = read_only.on
        return state

    def detach(self) -> None:
        """Leave the account: nothing it reports from now on reaches the app."""
        self.on_change = None
        if self.relations is not None:
            self.relations.close()

    def relation_cache(self) -> RelationCache:
        """The account's relations index, made on first use (it follows the client's
        changes from then on)."""
        if self.relations is None:
            from tui.relations.cache import RelationCache

            self.relations = RelationCache(self.session.client)
        return self.relations

    # -- what the account is ----------------------------------------------------------------

    @property
    def name(self) -> str:
        """The profile name (``DEMO`` in demo mode)."""
        return self.session.profile_name

    @property
    def mark(self) -> AccountMark:
        """How the account is named on screen (its name and the colour its profile gives it)."""
        return self.session.mark

    @property
    def user_context(self) -> UserContext | None:
        """What availability rules read: the user with the account's read-only mode applied
        (None until the user is loaded)."""
        return self._context

    def now(self) -> float:
        """Current time: the demo simulator's clock (virtual in tests), else the wall."""
        simulator = self.session.simulator
        return simulator.clock.now() if simulator is not None else time.time()

    # -- what the user may do ---------------------------------------------------------------

    def set_user(self, user: UserContext) -> None:
        """The signed-in user, as the API described it."""
        self.user = user
        self._context = replace(user, read_only=self.read_only.on)
        self._changed("user")

    def set_read_only(self, mode: ReadOnlyMode) -> None:
        """Apply a new read-only mode: the client refuses changes while it is on."""
        self.read_only = mode
        self.session.client.read_only = mode.on
        if self.user is not None:
            self._context = replace(self.user, read_only=mode.on)
        self._changed("user")

    # -- what the account's requests report -------------------------------------------------

    def succeeded(self) -> None:
        """A refresh (or a retried request) got its answer."""
        self.health = "online"
        self.retry_text = ""
        self.last_refresh = self.now()
        self._changed("health")

    def answered(self) -> None:
        """A request got its answer (not a refresh: the time of the last one stays)."""
        if self.health in ("connecting", "unreachable"):
            self.health = "online"
            self.retry_text = ""
            self._changed("health")

    def retrying(self, error: BaseException, wait: float) -> None:
        """A request is retried after ``error``, ``wait`` seconds from now.

        A connection that could not be made, or any network failure before the account ever
        answered, means the API is unreachable now: said at once, not after the last try.
        """
        if isinstance(error, RateLimited):
            self.health = "rate_limited"
        else:
            never_answered = self.health in ("connecting", "unreachable")
            cut_off = isinstance(error, TransportFailure) and (not error.sent or never_answered)
            self.health = "unreachable" if cut_off else "retrying"
            self.retry_text = retry_text(error, wait)
        self._changed("health")

    def failed(self, error: BaseException) -> None:
        """A refresh failed for good: unreachable, rate limited or server errors.

        A refusal (403, 404 ...) says nothing about the API's health and changes nothing.
        """
        if isinstance(error, ApiError) and not isinstance(error, ServerError | RateLimited):
            return
        self.health = classify(error)
        self.retry_text = ""
        self._changed("health")

    # -- what was loaded --------------------------------------------------------------------

    def remember(self, spec_id: str, params: Mapping[str, Any], items: dict[Any, Any]) -> None:
        """Record a loaded list for the palette (keyed by spec and parameters)."""
        key = tuple(sorted((k, str(v)) for k, v in params.items()))
        self.resource_index[(spec_id, key)] = (dict(params), items)

    def _changed(self, what: StateChange) -> None:
        if self.on_change is not None:
            self.on_change(what)


class AppState:
    """The app's state, one typed object: the run's settings, which of its accounts are
    read-only, how another account is opened, and the account the app is on with everything
    that belongs to it (its :class:`AccountState`, replaced whole by a switch).

    Screens read it through the app's surface (``screens.app_surface``); each answer about the
    account comes from its one :class:`AccountState` (before sign-in there is none, and the
    answers say so).

    Args:
        settings: The run's settings (the config file).
        read_only_rules: Which accounts of the run are read-only (command line, profiles,
            ``:read-only``).
        account_opener: Opens another profile's session (``:account``, ``:fanout``; tests pass
            their own).
        on_change: Told what changed on the account the app is on (the app announces it).
    """

    def __init__(
        self,
        settings: Settings,
        read_only_rules: ReadOnlyRules,
        account_opener: Callable[[Settings, str], Session],
        on_change: Callable[[StateChange], None] | None = None,
    ) -> None:
        self.settings = settings
        self.read_only_rules = read_only_rules
        self.account_opener = account_opener
        self.account: AccountState | None = None
        """The account the app is on (None until signed in): :meth:`adopt` replaces it."""
        self._on_change = on_change

    def adopt(self, session: Session) -> AccountState:
        """Make ``session``'s account the app's: a new :class:`AccountState` (its read-only
        mode from :attr:`read_only_rules`) replaces the old one whole, which is detached."""
        if self.account is not None:
            self.account.detach()
        mode = self.read_only_rules.mode(session.profile_name)
        self.account = AccountState.open(session, mode, self._on_change)
        return self.account

    def set_read_only(self, on: bool) -> None:
        """Turn the run-time read-only mode of the account on or off (what the command line
        and the config file say stays)."""
        if self.account is not None:
            self.account.set_read_only(self.read_only_rules.toggle(self.account.name, on))

    @property
    def session(self) -> Session | None:
        """The session of the account the app is on (None until signed in)."""
        return self.account.session if self.account is not None else None

    @property
    def read_only(self) -> bool:
        """True when nothing may be changed on the account (before sign-in: when the command
        line said so)."""
        if self.account is None:
            return self.read_only_rules.command_line
        return self.account.read_only.on

    @property
    def user_context(self) -> UserContext | None:
        """The signed-in user, the account's read-only mode applied (None until loaded)."""
        return self.account.user_context if self.account is not None else None

    @property
    def api_health(self) -> AccountHealth:
        """The account's API health (see :data:`AccountHealth`)."""
        return self.account.health if self.account is not None else "connecting"

    @property
    def retry_text(self) -> str:
        """What a request being retried waits for ('' when none is)."""
        return self.account.retry_text if self.account is not None else ""

    @property
    def last_refresh(self) -> float | None:
        """Epoch seconds of the account's last successful refresh."""
        return self.account.last_refresh if self.account is not None else None

    @property
    def resource_index(self) -> dict[IndexKey, tuple[dict[str, Any], dict[Any, Any]]]:
        """Items of every list of the account loaded so far: (spec id, params) -> (params,
        items by key)."""
        return self.account.resource_index if self.account is not None else {}

    @property
    def activity(self) -> ActivityLog | None:
        """The account's activity log (None until opened)."""
        return self.account.activity if self.account is not None else None

    @property
    def watchlist(self) -> Watchlist | None:
        """The account's bookmarks (None until opened)."""
        return self.account.watchlist if self.account is not None else None

    @property
    def undo_journal(self) -> UndoJournal | None:
        """The account's changes of this visit and their undo (None until opened)."""
        return self.account.undo_journal if self.account is not None else None

    @property
    def check_silences(self) -> Silences | None:
        """The account check's silences (None until opened)."""
        return self.account.check_silences if self.account is not None else None

    def relation_cache(self) -> RelationCache | None:
        """The account's relations index (None before sign-in)."""
        return self.account.relation_cache() if self.account is not None else None

    def now(self) -> float:
        """Current time: the demo simulator's clock (virtual in tests), else the wall."""
        return self.account.now() if self.account is not None else time.time()

    def api_succeeded(self) -> None:
        """A refresh got its answer."""
        if self.account is not None:
            self.account.succeeded()

    def api_failed(self, error: BaseException) -> None:
        """A refresh failed: unreachable, rate limited or server errors show in the status bar."""
        if self.account is not None:
            self.account.failed(error)

    def remember_items(
        self, spec: ResourceSpec, params: Mapping[str, Any], items: dict[Any, Any]
    ) -> None:
        """Record a loaded list of ``spec`` for the palette's "jump to resource"."""
        if self.account is not None:
            self.account.remember(spec.id, params, items)
