"""Edit a deployment script's text in ``$VISUAL``/``$EDITOR`` (``E`` on a script).

The script is fetched afresh, edited through the one hand-off mechanism
(``screens.handoff.edit_text``: a 0600 file, removed afterwards), validated as the API requires
(``DeployScriptUpdate``: it must start with an interpreter line), shown as a line count of the
change with the request for one confirmation, then sent. Nothing typed is lost: an invalid
script or a refused request offers the editor again with the text as saved.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from screens.handoff import edit_text
from tui.api.errors import CloudError
from tui.models.deployscripts import DeployScriptUpdate
from tui.refresh import describe_error
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from screens.actions import ActionContext

ENDPOINTS: tuple[str, ...] = ("deployscripts.view",)


def script_problem(text: str) -> str | None:
    """Why the API would refuse ``text`` as a script, or None."""
    if not text.strip():
        return "the script is empty"
    try:
        DeployScriptUpdate.model_validate({"script": text})
    except ValidationError as error:
        message = str(error.errors()[0].get("msg", "invalid script"))
        return message.removeprefix("Value error, ")
    return None


def change_summary(old: str, new: str) -> Shown:
    """``3 lines added, 1 removed`` between two texts."""
    added = removed = 0
    for line in difflib.ndiff(old.splitlines(), new.splitlines()):
        if line.startswith("+ "):
            added += 1
        elif line.startswith("- "):
            removed += 1
    return f"{added} line(s) added, {removed} removed"


async def _again(ctx: ActionContext, title: Shown, reason: Shown) -> bool:
    """Ask whether to go back to the editor with the saved text."""
    from screens.confirm import ConfirmModal

    modal = ConfirmModal(
        title, f"{reason}. Edit it again? (No drops the changes.)", "", confirm_label="Edit again"
    )
    answer: bool = await ctx.app.push_screen_wait(modal)
    return bool(answer)


def script_diff(old: str, new: str) -> Shown:
    """The change as a unified diff (one line of context), for the confirmation (display
    text: a script may hold any character)."""
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), "before", "after", lineterm="", n=1
    )
    return shown("\n".join(list(lines)[2:]), lines=True)  # without the ---/+++ header


async def _confirm(ctx: ActionContext, old: str, new: str) -> bool:
    """One confirmation showing the request line and the diff (secrets in scripts stay local
    to this dialog; nothing is logged)."""
    from screens.confirm import ConfirmModal

    modal = ConfirmModal(
        f"{ctx.title}?",
        f"Replace the script ({change_summary(old, new)}).",
        f'{ctx.endpoint.method} {ctx.path()}  {{"script": …}}\n{script_diff(old, new)}',
        confirm_label="Save script",
    )
    answer: bool = await ctx.app.push_screen_wait(modal)
    return bool(answer)


async def edit_script(ctx: ActionContext) -> bool:
    """The flow of ``E`` on a deployment script.

    Returns:
        True when the new script was saved.
    """
    try:
        record: Any = await ctx.call(endpoint="deployscripts.view")
    except CloudError as error:
        ctx.failed(error)
        return False
    original = str((record or {}).get("script") or "")
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", ctx.label).strip("-.") or "script"
    text = original
    while True:
        edited = edit_text(ctx.app, text, f"{name}.sh")
        if edited is None:
            return False
        if edited.rstrip("\n") == original.rstrip("\n"):
            ctx.app.notify("The script is unchanged.", title=ctx.title, markup=False)
            return False
        text = edited
        problem = script_problem(edited)
        if problem:
            sentence = shown(problem[:1].upper() + problem[1:])
            if await _again(ctx, f"{ctx.title}: not valid", sentence):
                continue
            return False
        if not await _confirm(ctx, original, edited):
            return False
        try:
            await ctx.call({"script": edited})
        except CloudError as error:
            if await _again(ctx, f"{ctx.title}: refused", describe_error(error).rstrip(".")):
                continue
            return False
        ctx.done(f"{ctx.action.label}: {ctx.shown_label}")
        if hasattr(ctx.app, "changes"):
            ctx.app.changes += 1
        return True
