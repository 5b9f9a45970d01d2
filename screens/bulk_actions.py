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
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tui.api.endpoints import REGISTRY
from tui.bulk import BulkItem, BulkRun, Summary, plan, summarize, tag_body
from tui.resources.forms import asks_only_per_item, form_for
from tui.resources.spec import Action, ResourceSpec, dig
from tui.resources.tags import TAG_EDIT_SCREEN
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from textual.screen import Screen

    from screens.actions import ActionContext

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
    from screens.bulk_progress import BulkProgressModal
    from screens.confirm import ConfirmModal
    from screens.tag_prompt import TagPrompt

    app = host.app
    count = len(items)
    what = f"{count} marked {_plural(spec, count)}"
    tag: tuple[str, bool] | None = None
    if action.screen == TAG_EDIT_SCREEN:
        tag = await app.push_screen_wait(TagPrompt(f"Tag {what}", _carried(items)))
        if tag is None:
            return False
    elif action.screen or (action.form and not asks_only_per_item(form_for(action.form))):
        app.notify(
            f"{action.label} runs on one {spec.singular} at a time; unmark to use it.",
            title=action.label,
            markup=False,
        )
        return False

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
        app.notify(
            f"Nothing to do for the {what}: {reasons}.",
            title=f"{verb}: skipped",
            severity="warning",
            markup=False,
        )
        return False
    endpoint = REGISTRY[action.endpoint]
    n = len(planned.targets)
    if planned.skipped:
        message = f"Sent to {n} of the {what}; {len(planned.skipped)} skipped (listed below "
        message += "with the reason)."
    else:
        message = f"Sent to each of the {what}."
    if tag is None and action.description and action.description != action.label:
        message += f" {action.description}."
    if len(planned.targets) + len(planned.skipped) > SCROLL_HINT_AT:
        message += " shift+tab moves to the list; arrows scroll it."
    irreversible = tag is None and is_irreversible(action)
    confirmed = await app.push_screen_wait(
        ConfirmModal(
            f"{verb}: {what}?",
            message,
            _preview(endpoint.method, endpoint.path, planned.targets, planned.skipped),
            typed=typed_count(action, n) if irreversible else None,
            confirm_label=f"{action.label} {n}",
        )
    )
    if not confirmed:
        return False

    modal = BulkProgressModal(f"{verb}: {what}", [*planned.targets, *planned.skipped])
    client = app.session.client  # type: ignore[attr-defined]

    async def send(entry: BulkItem) -> None:
        await client.call(action.endpoint, entry.params, body=entry.body, model=dict)

    settings = app.session.settings  # type: ignore[attr-defined]
    run = BulkRun(
        planned.targets,
        send,
        concurrency=getattr(settings, "bulk_concurrency", 4),
        on_progress=modal.changed,
    )
    modal.run = run
    closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def on_close(_result: None) -> None:
        if not closed.done():
            closed.set_result(None)

    app.push_screen(modal, on_close)
    await run.run()
    summary = summarize([*planned.targets, *planned.skipped])
    modal.finish(summary)
    keep = {e.key for e in planned.targets if e.state != "done"}
    set_marks(keep | {e.key for e in planned.skipped})
    if summary.done and hasattr(app, "changes"):
        app.changes += 1
    _notify(app, verb, what, summary)
    await closed
    return summary.done + summary.failed > 0


def _notify(app: Any, verb: Shown, what: Shown, summary: Summary) -> None:
    app.notify(
        f"{what}: {summary}.",
        title=verb,
        severity="warning" if summary.failed else "information",
        markup=False,
    )


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
    from screens.tag_prompt import TagPrompt

    assert ctx.item is not None
    answer = await ctx.app.push_screen_wait(TagPrompt(ctx.title, _carried([ctx.item])))
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
    if hasattr(ctx.app, "changes"):
        ctx.app.changes += 1
    return True
