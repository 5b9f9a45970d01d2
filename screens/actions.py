"""Running a spec action: form or confirmation first, then the call, then what the user sees.

Generic actions need no code: an action with a ``form`` opens the request model's form (edit
forms prefilled, only changes sent), one with ``confirm`` asks first (``typed``: the label must
be typed), and every call goes through the session's one client. Actions with a ``screen`` run a
hand-written flow registered in :data:`ACTION_SCREENS` (resize picker, rescue device map,
statistics, preferences editor).

Answers that carry something shown only once (an access key's secret, an upload address) open
:class:`~screens.once.OnceModal` so it is not lost.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from screens.action_results import after_success
from tui.accounts.naming import acting_as
from tui.api.changes import change_target
from tui.api.endpoints import REGISTRY, Endpoint
from tui.api.errors import CloudError, may_have_been_carried_out
from tui.api.paths import fill_path
from tui.refresh import describe_error, error_title
from tui.resources.availability import UserContext, cautions, field_locks
from tui.resources.expansions import with_expansions
from tui.resources.forms import (
    ChoiceSource,
    asks_only_per_item,
    display_value,
    form_for,
    initial_values,
    with_pickers,
)
from tui.resources.naming import action_title
from tui.resources.spec import Action, ResourceSpec, dig
from tui.simulator.notes import demo_note
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from tui.resources.pricing import Quote
    from tui.session.runtime import Session

MAX_CHOICES = 2000
"""Options offered in one choice list; beyond that the user types the value."""

ACTION_SCREENS: dict[str, str] = {
    "compute.resize": "screens.compute_actions:resize",
    "compute.rescue": "screens.compute_actions:rescue",
    "compute.stats": "screens.stats:open_stats",
    "profile.preferences": "screens.preferences:edit_preferences",
    "k8s.kubeconfig_save": "screens.kubeconfig:save_kubeconfig",
    "object_storage.object_acl": "screens.object_acl:edit_object_acl",
    "tags.edit": "screens.bulk_actions:edit_tags",
    "handoff": "screens.handoff:run_handoff",
    "deployscripts.edit_script": "screens.script_edit:edit_script",
    "domains.zone_edit": "screens.zone_edit:edit_zone",
    "images.upload_data": "screens.image_upload:upload_image",
    "text": "screens.action_results:show_text",
}
"""Action ``screen`` id -> ``"module:function"`` of its flow, imported on first use."""


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
            self.account = self.app.session  # type: ignore[attr-defined]

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
        subject = getattr(self.host, "subject", None)
        parent = subject() if subject is not None else None
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
        journal = getattr(self.app, "undo_journal", None)
        if journal is None or self.session is not getattr(self.app, "session", None):
            return
        activity = getattr(self.app, "activity", None)
        entry = activity.last if activity is not None else None
        journal.note(self.title, endpoint, params, body, before, answer, entry=entry, group=group)

    async def confirm(
        self, body: Mapping[str, Any] | None = None, *, message: Shown = "", typed: bool = False
    ) -> bool:
        """Ask before sending; ``typed`` makes the user type the item's label."""
        from screens.confirm import ConfirmModal, request_preview

        preview = request_preview(self.endpoint.method, self.path(), body)
        text = message or self.action.description or "Send this request?"
        warnings = cautions(self.action, self.item)
        if warnings and not text.endswith((".", "?", "!")):
            text += "."  # descriptions are one-line phrases; the warning is a sentence
        modal = ConfirmModal(
            f"{self.title}?",
            " ".join([text, *warnings]),
            preview,
            typed=(self.label or str(self.params)) if typed else None,
            confirm_label=self.action.label,
            account=self.session.mark,
        )
        confirmed: bool = await self.app.push_screen_wait(modal)
        return bool(confirmed)

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
        if maybe_done and hasattr(self.app, "changes"):
            self.app.changes += 1  # other lists refresh too when shown again
        return maybe_done


Flow = Callable[[ActionContext], Awaitable[bool]]


EDITOR = "screens.handoff:edit_text"
"""The editor hand-off, imported on first use like the flows (it needs this module)."""


def _editor(app: App[Any]) -> Callable[[str, str], str | None]:
    """Edits a form's text in the user's editor through the one hand-off."""
    module_name, _, function = EDITOR.partition(":")
    edit = getattr(importlib.import_module(module_name), function)

    def edit_text(text: str, file_name: str) -> str | None:
        edited: str | None = edit(app, text, file_name)
        return edited

    return edit_text


def flow_for(screen_id: str) -> Flow:
    """The hand-written flow registered for ``screen_id``."""
    module_name, _, function = ACTION_SCREENS[screen_id].partition(":")
    flow: Flow = getattr(importlib.import_module(module_name), function)
    return flow


async def run_action(
    host: Screen[Any],
    spec: ResourceSpec,
    action: Action,
    item: dict[str, Any] | None,
    params: dict[str, Any],
    account: Session | None = None,
) -> bool:
    """Run ``action``; must be called from a worker (dialogs are awaited).

    Args:
        host: The screen it was started from.
        spec: The resource the action belongs to.
        action: The action.
        item: The item it acts on (None: the collection).
        params: Path parameters.
        account: The session to send through (default: the app's); every dialog of the
            action names its account.

    Returns:
        True when the request succeeded, or may have been carried out though its answer was
        lost (the caller refreshes).
    """
    ctx = ActionContext(host, spec, action, item, params, account)
    with acting_as(ctx.session.mark):
        if action.screen:
            return await flow_for(action.screen)(ctx)
        if action.form and await _asks_something(ctx):
            return await run_form(ctx)
        return await run_plain(ctx)


async def _asks_something(ctx: ActionContext) -> bool:
    """False when every input of the action's form is a choice asked only among several
    (``several_only``) and none offers more than one: the action is then a confirmation."""
    assert ctx.action.form is not None
    form = form_for(ctx.action.form)
    if not form.fields or not asks_only_per_item(form):
        return True
    for f in form.fields:
        if f.source is None:
            return True
        try:
            if len(await ctx.load_choices(f.source, {})) > 1:
                return True
        except (CloudError, LookupError):
            continue  # the choice cannot be offered: the server's default it is
    return False


async def run_form(ctx: ActionContext, preset: Mapping[str, Any] | None = None) -> bool:
    """The action's request form; edit forms are prefilled and send only changes.

    Args:
        ctx: The action being run.
        preset: Form values a hand-written flow fetched first (an object's current ACL).
    """
    from screens.form import FormModal

    assert ctx.action.form is not None
    form = with_expansions(with_pickers(form_for(ctx.action.form), ctx.params))
    user = getattr(ctx.app, "user_context", None)
    for name, reason in field_locks(user or UserContext()).items():
        form = form.locking(name, reason)
    edit = ctx.endpoint.method == "PUT" and ctx.action.target == "item"
    values = initial_values(form, ctx.item) if edit else {}
    found = {name: dig(ctx.item or {}, source) for name, source in ctx.action.prefill.items()}
    found.update(preset or {})
    for name, value in found.items():
        if value is not None and form.field(name) is not None:
            values[name] = display_value(form.field(name), value)  # type: ignore[arg-type]

    modal = FormModal(
        ctx.title,
        form,
        ctx.call,
        request_line=f"{ctx.endpoint.method} {ctx.path()}",
        values=values,
        edit=edit,
        load_choices=ctx.load_choices,
        load_items=ctx.load_items,
        quote=ctx.quote,
        load_record=ctx.load_record,
        name=ctx.label,
        context=ctx.item,
        note=shown(demo_note(ctx.action.endpoint)) if ctx.session.demo else "",
        edit_text=_editor(ctx.app),
    )
    outcome = await ctx.app.push_screen_wait(modal)
    if outcome is None:
        return False
    await after_success(ctx, outcome.answer)
    await offer_next(ctx, outcome.body, outcome.answer)
    return True


async def offer_next(ctx: ActionContext, body: Mapping[str, Any], answer: Any) -> None:
    """Offer the item's follow-up actions the sent body calls for (:attr:`Action.offer_after`):
    each asks for its own confirmation, which says why it is offered. Whoever could send the
    request may send its follow-up (the same item, the same grant); the API has the last word."""
    item = dict(answer) if isinstance(answer, Mapping) else ctx.item
    for name, (action_id, why) in ctx.action.offer_after.items():
        follow = ctx.spec.action(action_id)
        if follow is None or dig(body, name) is None:
            continue
        then = ActionContext(ctx.host, ctx.spec, follow, item, ctx.params)
        await run_plain(then, message=shown(why))


async def run_plain(ctx: ActionContext, *, message: Shown = "") -> bool:
    """An action without a body: confirm (saying ``message`` if given) when the spec says so,
    then send."""
    confirm = ctx.action.confirm
    if confirm != "none" and not await ctx.confirm(message=message, typed=confirm == "typed"):
        return False
    try:
        answer = await ctx.call()
    except CloudError as error:
        return ctx.failed(error)
    await after_success(ctx, answer)
    return True
