"""One action on every marked row: plan, one confirmation, live progress, summary.

Which actions may run on several items is data (``Action.bulk``); this module only renders the
flow. Targets the action is unavailable for (status, grants, a tag already there) are listed as
skipped, with the reason, in the confirmation, before anything is sent. Irreversible actions
need the typed count ("delete 7"). The run itself is :class:`tui.bulk.BulkRun` (bounded
concurrency, 429 waits); failed and skipped items stay marked, done ones are unmarked.

The "Tag" action (``screen="tags.edit"``) is also a single-item flow: :func:`edit_tags`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from screens.app_surface import Change, surface
from tui.api.endpoints import REGISTRY
from tui.bulk import BulkItem, BulkPlan, BulkRun, Summary, plan, summarize, tag_body
from tui.relations.offer import ImpactOffer
from tui.resources.forms import ChoiceSource, asks_only_per_item, form_for
from tui.resources.spec import Action, ResourceSpec, dig
from tui.resources.tags import TAG_EDIT_SCREEN
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from textual.screen import Screen

    from screens.actions.context import ActionContext
    from tui.resources.loader import Client

SCROLL_HINT_AT = 8
"""Targets beyond which the confirmation says how to scroll its list."""
PREVIEW_LINES = 500
"""Targets listed by name in the confirmation; beyond that, a count (it scrolls)."""


def is_irreversible(action: Action) -> bool:
    """True when the bulk confirmation needs the typed count (deleting, revoking)."""
    return action.confirm == "typed" or REGISTRY[action.endpoint].method == "DELETE"


def typed_count(action: Action, count: int) -> Shown:
    """What the user types to confirm an irreversible bulk action: ``delete 7``."""
    return f"{action.label.split()[0].lower()} {count}"


def _plural(spec: ResourceSpec, count: int) -> Shown:
    return spec.singular if count == 1 else spec.title.lower()


def bulk_items(
    spec: ResourceSpec, items: Sequence[Mapping[str, Any]], parent_params: Mapping[str, Any]
) -> list[BulkItem]:
    """Bulk items of the marked rows, with each one's request parameters."""
    return [
        BulkItem(
            spec.item_key(item),
            spec.label_of(item),
            str(dig(item, spec.id_field) or ""),
            item,
            spec.params_for(item, parent_params),
        )
        for item in items
    ]


def _preview(method: Shown, path: Shown, targets: list[BulkItem], skipped: list[BulkItem]) -> Shown:
    lines: list[Shown] = [f"{method} {path}  for each of {len(targets)}:"]
    lines += [f"  {t.line()}" for t in targets[:PREVIEW_LINES]]
    if len(targets) > PREVIEW_LINES:
        lines.append(f"  … and {len(targets) - PREVIEW_LINES} more")
    if skipped:
        lines.append(f"Skipped ({len(skipped)}), nothing is sent for them:")
        lines += [f"  {s.line()}: {shown(s.reason)}" for s in skipped[:PREVIEW_LINES]]
    return "\n".join(lines)


async def run_bulk(
    host: Screen[Any],
    spec: ResourceSpec,
    action: Action,
    items: Sequence[Mapping[str, Any]],
    parent_params: Mapping[str, Any],
    check: Callable[[Mapping[str, Any]], tuple[bool, str]],
    set_marks: Callable[[set[Hashable]], None],
) -> bool:
    """Run ``action`` on the marked ``items`` (from a worker: dialogs are awaited).

    Args:
        host: The screen the action was started from.
        spec: The listed resource.
        action: A bulk action of ``spec``.
        items: The marked items, in list order.
        parent_params: Path parameters of the list (child resources).
        check: Availability of the action for one item (status, grants ...).
        set_marks: Marks the given keys (failed and skipped) once the run is over.

    Returns:
        True when anything was sent (the list refreshes).
    """
    count = len(items)
    what = f"{count} marked {_plural(spec, count)}"
    asked = await _what_to_send(host, spec, action, items, what)
    if asked is None:
        return False
    tag = asked.tag

    def judge(entry: BulkItem) -> tuple[bool, str]:
        allowed, reason = check(entry.item)
        if not allowed or tag is None:
            return allowed, reason
        entry.body, reason = tag_body(entry.item, tag[0], tag[1])
        return entry.body is not None, reason

    planned = plan(bulk_items(spec, items, parent_params), judge)
    verb = action.label if tag is None else f"{'Add' if tag[1] else 'Remove'} tag {shown(tag[0])}"
    if not planned.targets:
        reasons = "; ".join(sorted({shown(s.reason) for s in planned.skipped}))
        host.app.notify(
            f"Nothing to do for the {what}: {reasons}.",
            title=f"{verb}: skipped",
            severity="warning",
            markup=False,
        )
        return False
    from screens.actions.impact import check_impact, clean_up

    session = surface(host).state.session
    assert session is not None  # a list of the app's account: signed in
    checked = None
    if tag is None:
        targets = [entry.item for entry in planned.targets]
        checked = await check_impact(host, session, action.endpoint, targets)
    offer = checked.offer if checked is not None else None
    confirmed, clean = await _confirm(
        host, action, planned, verb, what, tagging=tag is not None, offer=offer
    )
    if not confirmed:
        return False
    summary, closed = await _send_all(host, action, planned, f"{verb}: {what}")
    keep = {e.key for e in planned.targets if e.state != "done"}
    set_marks(keep | {e.key for e in planned.skipped})
    if summary.done:
        surface(host).change_signal.publish(Change())
    _notify(host.app, verb, what, summary)
    if clean and checked is not None:
        # Only what the deleted targets leave behind: a target that failed keeps its records.
        done = [entry.state == "done" for entry in planned.targets]
        await clean_up(host, session, checked.requests_after(done))
    await closed
    return summary.done + summary.failed > 0


@dataclass(frozen=True)
class _Asked:
    """What the user chose to send to every marked item: a tag to add or remove, or the action
    as it is (``tag`` None)."""

    tag: tuple[str, bool] | None = None


async def _what_to_send(
    host: Screen[Any],
    spec: ResourceSpec,
    action: Action,
    items: Sequence[Mapping[str, Any]],
    what: Shown,
) -> _Asked | None:
    """Ask for the tag of a tag action; None when the action cannot run on several items (the
    user is told why) or the user cancelled."""
    from screens.actions.tag_prompt import TagPrompt

    app = host.app
    if action.screen == TAG_EDIT_SCREEN:
        session = surface(host).state.session
        load = _choices_of(session.client) if session is not None else None
        tag = await app.push_screen_wait(TagPrompt(f"Tag {what}", _carried(items), load))
        return _Asked(tag) if tag is not None else None
    if action.screen or (action.form and not asks_only_per_item(form_for(action.form))):
        app.notify(
            f"{action.label} runs on one {spec.singular} at a time; unmark to use it.",
            title=action.label,
            markup=False,
        )
        return None
    return _Asked()


async def _confirm(
    host: Screen[Any],
    action: Action,
    planned: BulkPlan,
    verb: Shown,
    what: Shown,
    *,
    tagging: bool,
    offer: ImpactOffer | None = None,
) -> tuple[bool, bool]:
    """One confirmation for every target, the skipped ones listed with why, and what deleting
    them breaks (``offer``); an irreversible action asks for the typed count.

    Returns:
        Whether the user confirmed, and whether the offered clean-up was ticked.
    """
    from screens.dialogs.confirm import ConfirmModal

    endpoint = REGISTRY[action.endpoint]
    n = len(planned.targets)
    if planned.skipped:
        message = f"Sent to {n} of the {what}; {len(planned.skipped)} skipped (listed below "
        message += "with the reason)."
    else:
        message = f"Sent to each of the {what}."
    if not tagging and action.description and action.description != action.label:
        message += f" {action.description}."
    if len(planned.targets) + len(planned.skipped) > SCROLL_HINT_AT:
        message += " shift+tab moves to the list; arrows scroll it."
    irreversible = not tagging and is_irreversible(action)
    preview = _preview(endpoint.method, endpoint.path, planned.targets, planned.skipped)
    if offer is not None and offer.says_anything:
        message += f" {offer.summary()}"
        preview += "\n" + offer.preview()
    modal = ConfirmModal(
        f"{verb}: {what}?",
        message,
        preview,
        typed=typed_count(action, n) if irreversible else None,
        confirm_label=f"{action.label} {n}",
        option=offer.option() if offer is not None else "",
    )
    answer: bool = await host.app.push_screen_wait(modal)
    confirmed = bool(answer)
    return confirmed, confirmed and modal.option_on


async def _send_all(
    host: Screen[Any], action: Action, planned: BulkPlan, title: Shown
) -> tuple[Summary, asyncio.Future[None]]:
    """Send to every target with live progress (the dialog stays up with the summary).

    Returns:
        The summary once every target is done, and what resolves when the user closes the
        progress dialog.
    """
    from screens.actions.bulk_progress import BulkProgressModal

    modal = BulkProgressModal(title, [*planned.targets, *planned.skipped])
    session = surface(host).state.session
    assert session is not None  # a list of the app's account: signed in
    client = session.client

    async def send(entry: BulkItem) -> None:
        await client.call(action.endpoint, entry.params, body=entry.body, model=dict)

    run = BulkRun(
        planned.targets,
        send,
        concurrency=session.settings.bulk_concurrency,
        on_progress=modal.changed,
    )
    modal.run = run
    closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_close(_result: None) -> None:
        if not closed.done():
            closed.set_result(None)

    host.app.push_screen(modal, on_close)
    await run.run()
    summary = summarize([*planned.targets, *planned.skipped])
    modal.finish(summary)
    return summary, closed


def _notify(app: Any, verb: Shown, what: Shown, summary: Summary) -> None:
    app.notify(
        f"{what}: {summary}.",
        title=verb,
        severity="warning" if summary.failed else "information",
        markup=False,
    )


def _choices_of(client: Client) -> Callable[[ChoiceSource], Awaitable[list[tuple[str, Any]]]]:
    """Loads the options of a listing with no parameters (the account's tags) for a prompt
    opened over marked rows, where no single action's context loads them."""

    async def load(source: ChoiceSource) -> list[tuple[str, Any]]:
        from screens.actions.context import MAX_CHOICES
        from tui.resources.choice_items import choice_items

        items = await choice_items(client, source, {}, lambda _item: True, MAX_CHOICES)
        return [option for item in items for option in source.options(item)]

    return load


def _carried(items: Sequence[Mapping[str, Any]]) -> list[str]:
    """Tags the items carry now, most common first (a hint in the prompt)."""
    counts: dict[str, int] = {}
    for item in items:
        for tag in item.get("tags") or []:
            if isinstance(tag, str):
                counts[tag] = counts.get(tag, 0) + 1
    return sorted(counts, key=lambda t: (-counts[t], t.lower()))[:12]


async def edit_tags(ctx: ActionContext) -> bool:
    """Add or remove one tag on the item under the cursor (the kind's update, ``tags`` only)."""
    from screens.actions.tag_prompt import TagPrompt

    assert ctx.item is not None
    prompt = TagPrompt(ctx.title, _carried([ctx.item]), lambda source: ctx.load_choices(source))
    answer = await ctx.app.push_screen_wait(prompt)
    if answer is None:
        return False
    body, reason = tag_body(ctx.item, *answer)
    if body is None:
        ctx.app.notify(f"{ctx.shown_label}: {shown(reason)}.", title="Tag", markup=False)
        return False
    tag = shown(answer[0])
    if not await ctx.confirm(body, message=f"{'Add' if answer[1] else 'Remove'} tag {tag}"):
        return False
    from tui.api.errors import CloudError

    try:
        await ctx.call(body)
    except CloudError as error:
        ctx.failed(error)
        return False
    ctx.done(f"Tags of {ctx.shown_label}: {shown(', '.join(body['tags'])) or 'none'}")
    ctx.changed()
    return True
