"""One action being run: where it was started, on what, through which account, and the
helpers every flow needs (send, confirm, load choices, quote, say how it went).

:func:`screens.actions.run.run_action` builds one per action; hand-written flows
(:data:`screens.actions.run.ACTION_SCREENS`) receive it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from screens.app_surface import Change, surface
from tui.api.changes import change_target
from tui.api.endpoints import REGISTRY, Endpoint
from tui.api.errors import CloudError, may_have_been_carried_out
from tui.api.paths import fill_path
from tui.refresh import describe_error, error_title
from tui.relations.offer import ImpactOffer
from tui.resources.availability import cautions
from tui.resources.forms import ChoiceSource
from tui.resources.naming import action_title
from tui.resources.spec import Action, ResourceSpec
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from tui.resources.pricing import Quote
    from tui.session.runtime import Session

MAX_CHOICES = 2000
"""Options offered in one choice list; beyond that the user types the value."""


@runtime_checkable
class ShowsRecord(Protocol):
    """A screen that shows one record (a detail screen): an action run from one of its child
    tabs names it as the parent."""

    def subject(self) -> tuple[ResourceSpec, dict[str, Any]] | None:
        """The record shown (None until it is known)."""
        ...


@dataclass
class ActionContext:
    """One action being run: where, on what, and helpers every flow needs.

    Attributes:
        host: The screen the action was started from.
        spec: The resource spec the action belongs to.
        action: The action.
        item: The selected item (None for collection actions).
        params: Path parameters of the item (or of the collection).
    """

    host: Screen[Any]
    spec: ResourceSpec
    action: Action
    item: dict[str, Any] | None
    params: dict[str, Any]
    account: Session | None = None
    """The session the action is sent through (default: the app's when the action starts)."""

    def __post_init__(self) -> None:
        # Bound once: a dialog still open when the app switches account can only ever reach
        # the account it was opened on (whose session is closed by then).
        if self.account is None:
            self.account = surface(self.host).state.session

    @property
    def app(self) -> App[Any]:
        """The running app."""
        return self.host.app

    @property
    def session(self) -> Session:
        """The session (client, settings, simulator in demo mode)."""
        assert self.account is not None
        return self.account

    @property
    def endpoint(self) -> Endpoint:
        """The action's operation."""
        return REGISTRY[self.action.endpoint]

    @property
    def label(self) -> str:
        """The item's name as the API has it ('' for collection actions): for requests, the
        activity log and typed confirmations; :attr:`shown_label` is the one to draw."""
        return self.spec.label_of(self.item) if self.item else ""

    @property
    def shown_label(self) -> Shown:
        """The item's name as display text ('' for collection actions)."""
        return shown(self.label)

    @property
    def parent(self) -> tuple[ResourceSpec, dict[str, Any]] | None:
        """The parent record of a child resource's action (run from the parent's tab)."""
        parent = self.host.subject() if isinstance(self.host, ShowsRecord) else None
        if parent is None or parent[0].id == self.spec.id:
            return None
        return parent

    @property
    def title(self) -> Shown:
        """Heading of dialogs: the action, the record's type and label, and its parent."""
        return action_title(self.action, self.spec, self.item, self.parent)

    def path(
        self, endpoint: Endpoint | None = None, params: Mapping[str, Any] | None = None
    ) -> Shown:
        """The concrete path of ``endpoint`` (default: the action's) for previews (display
        text: a path can name a bucket or an object)."""
        ep = endpoint or self.endpoint
        try:
            return shown(fill_path(ep.path, dict(params if params is not None else self.params)))
        except (KeyError, ValueError):
            return ep.path

    async def call(
        self,
        body: Mapping[str, Any] | None = None,
        *,
        endpoint: str | None = None,
        params: Mapping[str, Any] | None = None,
        query: Mapping[str, Any] | None = None,
        before: Mapping[str, Any] | None = None,
        group: int | None = None,
    ) -> Any:
        """Send the action's request (or another operation's); the answer as raw JSON.

        Actions are driven by specs, which read answers by field name, so the JSON stays raw.
        The item's label goes to the activity log with the change (never the body); a change
        that succeeded is noted for undo with the item as it was before (see :mod:`tui.home.undo`).

        Args:
            body: Request body.
            endpoint: Another operation than the action's.
            params: Its path parameters (default: the action's).
            query: Query parameters.
            before: What the changed record was before (default: the action's item, for the
                action's own operation).
            group: Undo group of changes sent together (see :meth:`UndoJournal.new_group`).
        """
        name = endpoint or self.action.endpoint
        sent = dict(params if params is not None else self.params)
        with change_target(self.label):
            answer = await self.session.client.call(
                name,
                sent,
                body=dict(body) if body is not None else None,
                query=query,
                model=dict,
            )
        if REGISTRY[name].writes:
            if before is None and endpoint is None:
                before = self.item
            self._note_change(name, sent, body, before, answer, group)
        return answer

    def _note_change(
        self,
        endpoint: str,
        params: Mapping[str, Any],
        body: Mapping[str, Any] | None,
        before: Mapping[str, Any] | None,
        answer: Any,
        group: int | None,
    ) -> None:
        """Note a change in the app's undo journal (only for the app's own account)."""
        state = surface(self.host).state
        journal = state.undo_journal
        if journal is None or self.session is not state.session:
            return
        entry = state.activity.last if state.activity is not None else None
        journal.note(self.title, endpoint, params, body, before, answer, entry=entry, group=group)

    async def confirm(
        self, body: Mapping[str, Any] | None = None, *, message: Shown = "", typed: bool = False
    ) -> bool:
        """Ask before sending; ``typed`` makes the user type the item's label."""
        confirmed, _clean = await self.confirm_choice(body, message=message, typed=typed)
        return confirmed

    async def confirm_choice(
        self,
        body: Mapping[str, Any] | None = None,
        *,
        message: Shown = "",
        typed: bool = False,
        offer: ImpactOffer | None = None,
    ) -> tuple[bool, bool]:
        """Ask before sending, saying what ``offer`` says the action breaks.

        Returns:
            Whether the user confirmed, and whether the offer's clean-up was ticked.
        """
        from screens.dialogs.confirm import ConfirmModal, request_preview

        preview = request_preview(self.endpoint.method, self.path(), body)
        text = message or self.action.description or "Send this request?"
        warnings = cautions(self.action, self.item)
        if (warnings or offer) and not text.endswith((".", "?", "!")):
            text += "."  # descriptions are one-line phrases; the warning is a sentence
        said = [text, *warnings]
        if offer is not None and offer.says_anything:
            said.append(offer.summary())
            preview += "\n" + offer.preview()
        modal = ConfirmModal(
            f"{self.title}?",
            " ".join(said),
            preview,
            typed=(self.label or str(self.params)) if typed else None,
            confirm_label=self.action.label,
            account=self.session.mark,
            option=offer.option() if offer is not None else "",
        )
        confirmed: bool = await self.app.push_screen_wait(modal)
        return bool(confirmed), bool(confirmed) and modal.option_on

    async def load_choices(
        self, source: ChoiceSource, values: Mapping[str, Any] | None = None
    ) -> list[tuple[str, Any]]:
        """Options of one choice source (first :data:`MAX_CHOICES` items).

        Args:
            source: Where the options come from.
            values: The form's current values, for sources that depend on another field.

        Raises:
            LookupError: A path parameter is neither the action's nor filled in the form yet;
                the message names the field to fill first.
        """
        items = await self.load_items(source, values)
        return [*source.extra, *(option for item in items for option in source.options(item))]

    async def load_items(
        self, source: ChoiceSource, values: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """The items one choice source offers (see :meth:`load_choices`), for a chooser's facts.

        A region chooser offers only regions with the capability the action's operation needs
        (:func:`~tui.resources.choosers.capability_for`).
        """
        from tui.resources.choice_items import choice_items
        from tui.resources.choosers import capability_for, offers
        from tui.resources.forms import choice_context, form_title

        params: dict[str, Any] = {}
        for param, name in source.params.items():
            if name in self.params:
                params[param] = self.params[name]
                continue
            field = source.form_params.get(param)
            value = (values or {}).get(field) if field else None
            if value in (None, ""):
                raise LookupError(form_title(field or name).lower())
            params[param] = value
        context = choice_context(self.item, values)
        capability = capability_for(self.action.endpoint)

        def accept(item: Mapping[str, Any]) -> bool:
            accepted = source.accepts(item, context, self.item)
            return accepted and offers(source.facts, item, capability)

        return await choice_items(self.session.client, source, params, accept, MAX_CHOICES)

    async def load_record(self, endpoint: str, params: Mapping[str, Any]) -> Any:
        """One record by operation name (a deployment script chosen in a form)."""
        return await self.session.client.call(endpoint, dict(params), model=dict)

    async def quote(self, body: Mapping[str, Any]) -> Quote | None:
        """What sending ``body`` will cost (None: the operation is not billed).

        Prices come from the types listing (:mod:`tui.resources.price_rules`); when it cannot
        be loaded the quote says "price not given" rather than holding the request back.
        """
        from tui.resources.price_rules import PRICE_RULES, TYPES_ENDPOINT, quote_for
        from tui.resources.pricing import types_by_id

        rule = PRICE_RULES.get(self.action.endpoint)
        if rule is None:
            return None
        types: dict[str, Mapping[str, Any]] = {}
        if rule.needs_types:
            try:
                listing = await self.session.client.fetch_all(TYPES_ENDPOINT, {}, model=dict)
            except CloudError:
                listing = []
            types = types_by_id(listing)
        return quote_for(self.action.endpoint, body, self.item, types)

    def done(self, message: Shown) -> None:
        """Say that the action succeeded."""
        self.app.notify(message, title=self.spec.title, markup=False)

    def failed(self, error: CloudError) -> bool:
        """Say that the action's request failed (the app keeps running).

        Returns:
            True when the request may have been carried out all the same (its answer was
            lost): the caller then refreshes, so the user sees whether it was.
        """
        maybe_done = may_have_been_carried_out(error)
        self.app.notify(
            describe_error(error),
            title=f"{self.action.label}: {error_title(error)}",
            severity="warning" if maybe_done else "error",
            markup=False,
        )
        if maybe_done:
            self.changed()  # other lists refresh too when shown again
        return maybe_done

    def changed(self) -> None:
        """Announce that a change was sent (lists refresh when they are shown again)."""
        surface(self.host).change_signal.publish(Change())
