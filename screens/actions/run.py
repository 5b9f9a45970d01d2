"""Running a spec action: form or confirmation first, then the call, then what the user sees.

Generic actions need no code: an action with a ``form`` opens the request model's form (edit
forms prefilled, only changes sent), one with ``confirm`` asks first (``typed``: the label must
be typed), and every call goes through the session's one client. Actions with a ``screen`` run a
hand-written flow registered in :data:`ACTION_SCREENS` (resize picker, rescue device map,
statistics, preferences editor).

Answers that carry something shown only once (an access key's secret, an upload address) open
:class:`~screens.dialogs.once.OnceModal` so it is not lost.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from screens.actions.context import ActionContext
from screens.actions.results import after_success
from screens.app_surface import surface
from tui.accounts.naming import acting_as
from tui.api.errors import CloudError
from tui.resources.availability import UserContext, field_locks, user_defaults
from tui.resources.expansions import with_expansions
from tui.resources.forms import (
    asks_only_per_item,
    display_value,
    form_for,
    initial_values,
    with_pickers,
)
from tui.resources.spec import Action, ResourceSpec, dig
from tui.simulator.notes import demo_note
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from tui.session.runtime import Session

ACTION_SCREENS: dict[str, str] = {
    "compute.resize": "screens.actions.compute:resize",
    "compute.rescue": "screens.actions.compute:rescue",
    "compute.stats": "screens.details.stats:open_stats",
    "profile.preferences": "screens.editors.preferences:edit_preferences",
    "k8s.kubeconfig_save": "screens.editors.kubeconfig:save_kubeconfig",
    "object_storage.object_acl": "screens.actions.object_acl:edit_object_acl",
    "tags.edit": "screens.actions.bulk:edit_tags",
    "handoff": "screens.editors.handoff:run_handoff",
    "deployscripts.edit_script": "screens.editors.script_edit:edit_script",
    "domains.zone_edit": "screens.editors.zone_edit:edit_zone",
    "images.upload_data": "screens.transfers.image_upload:upload_image",
    "text": "screens.actions.results:show_text",
}
"""Action ``screen`` id -> ``"module:function"`` of its flow, imported on first use."""


Flow = Callable[[ActionContext], Awaitable[bool]]


EDITOR = "screens.editors.handoff:edit_text"
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
    from screens.actions.form import FormModal

    assert ctx.action.form is not None
    form = with_expansions(with_pickers(form_for(ctx.action.form), ctx.params))
    user = surface(ctx.host).state.user_context
    for name, reason in field_locks(user or UserContext()).items():
        form = form.locking(name, reason)
    edit = ctx.endpoint.method == "PUT" and ctx.action.target == "item"
    values = initial_values(form, ctx.item) if edit else {}
    if not edit:  # an edit shows what the object has, and sends only what the user changes
        for name, value in user_defaults(user or UserContext()).items():
            if (field := form.field(name)) is not None:
                values[name] = display_value(field, value)
    found = {name: dig(ctx.item or {}, source) for name, source in ctx.action.prefill.items()}
    found.update(preset or {})
    for name, value in found.items():
        if value is not None and (field := form.field(name)) is not None:
            values[name] = display_value(field, value)

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
    from screens.actions.impact import check_impact, clean_up

    confirm = ctx.action.confirm
    clean = False
    checked = None
    if confirm != "none":
        items = [ctx.item] if ctx.item is not None else []
        checked = await check_impact(ctx.host, ctx.session, ctx.action.endpoint, items)
        offer = checked.offer if checked is not None else None
        confirmed, clean = await ctx.confirm_choice(
            message=message, typed=confirm == "typed", offer=offer
        )
        if not confirmed:
            return False
    try:
        answer = await ctx.call()
    except CloudError as error:
        return ctx.failed(error)
    await after_success(ctx, answer)
    if clean and checked is not None:
        # Only now: the records and nodes of an object that is still there keep working.
        await clean_up(ctx.host, ctx.session, checked.requests_after([True]))
    return True
