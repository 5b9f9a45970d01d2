"""What the user sees after an action succeeded: the message, what an answer shows only once
(a secret key, an upload address), and what to do next with the record (mount a new volume).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tui.untrusted import shown

if TYPE_CHECKING:
    from screens.actions import ActionContext

ONCE_FIELDS = ("secret_key", "upload_to", "url", "password")
"""Answer fields worth keeping from an answer: they open the "keep this" dialog."""

SHOWN_ONCE = frozenset({"secret_key", "password"})
"""Of those, the ones the API will never show again (a URL can be made again)."""

CONTEXT_FIELDS = ("label", "access_key", "id")
"""Shown beside them so the user knows what they belong to."""


async def after_success(ctx: ActionContext, answer: Any) -> None:
    """Tell the user, and show what an answer shows only once."""
    if hasattr(ctx.app, "changes"):
        ctx.app.changes += 1  # lists on other screens refresh when shown again
    if ctx.endpoint.method == "DELETE":
        ctx.done(f"{ctx.action.label}: {ctx.shown_label or 'done'}")
        return
    created = ""
    if isinstance(answer, Mapping) and (
        ctx.action.target == "collection" or ctx.endpoint.name.endswith(".create")
    ):
        created = ctx.spec.label_of(answer)  # also "new instance from this backup/image"
    what = shown(created) or ctx.shown_label
    ctx.done(f"{ctx.action.label}: {what}" if what else f"{ctx.action.label}: done")
    if ctx.endpoint.name == "profile.phone.send":
        _show_demo_sms(ctx)
    if ctx.action.text:
        # What to do next with the record (mount a new volume): from the answer, or the item.
        record = answer if isinstance(answer, Mapping) else {}
        await show_text(ctx, {**(ctx.item or {}), **record})
    if not isinstance(answer, Mapping):
        return
    keep = tuple(k for k in ONCE_FIELDS if answer.get(k))
    if keep:
        from screens.once import OnceModal

        context = tuple(k for k in CONTEXT_FIELDS if answer.get(k) not in (None, ""))
        final = any(k in SHOWN_ONCE for k in keep)
        await ctx.app.push_screen_wait(
            OnceModal(ctx.title, dict(answer), (*context, *keep), shown_once=final)
        )


async def show_text(ctx: ActionContext, record: Mapping[str, Any] | None = None) -> bool:
    """Show the action's derived text (:attr:`Action.text`) of ``record`` (default: the
    action's item) in a dialog that copies it: the commands that make a volume usable.

    Returns:
        False: nothing was changed.
    """
    from screens.commands_modal import CommandsModal
    from tui.resources.derived import derived, derived_title

    key = ctx.action.text
    record = record if record is not None else ctx.item or {}
    text = derived(record, key)
    if text:
        label = ctx.shown_label or shown(record.get("label") or "")
        title = f"{shown(derived_title(key))}: {label}" if label else shown(derived_title(key))
        await ctx.app.push_screen_wait(CommandsModal(title, text))
    return False


def _show_demo_sms(ctx: ActionContext) -> None:
    """In demo mode no SMS leaves the machine: show the simulated one so verify can be tried."""
    simulator = ctx.session.simulator
    user = getattr(ctx.app, "user_context", None)
    if simulator is None or user is None:
        return
    from tui.simulator.handlers.profile import pending_phone_code

    code = pending_phone_code(simulator.store, user.username)
    if code:
        ctx.app.notify(
            f"Your verification code is {shown(code)} (valid 10 minutes). Press v to verify.",
            title="Simulated SMS (demo)",
            markup=False,
        )
