"""Images -> Upload: the form, then the local image file streamed to ``upload_to`` with progress.

After the ``images.upload`` form the user picks a local file (tab completion); it is checked
against the spec's rules (gzip-compressed raw disk image, at most 5 GB) before a byte is sent,
then streamed (:mod:`tui.transfers.images`). The image moves ``pending upload`` -> ``available``
as the API processes it; the list follows on its fast refresh timer. When the user does not
send the data now, or the upload fails, the dialog says what happened and keeps the upload
address (valid 24 hours) so it can be sent later.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from screens.transfer_dialogs import LocalPathModal
from screens.transfer_progress import TransferModal
from tui.resources.forms import form_for, with_pickers
from tui.transfers.images import image_file_problem, upload_image_file
from tui.transfers.progress import Batch, State, human_size
from tui.transfers.stream import TransferFailed
from tui.untrusted import Shown, shown

if TYPE_CHECKING:
    from screens.actions import ActionContext

PENDING_ADVICE = (
    "The image {label} stays 'pending upload' for 24 hours, then it is deleted. Send the data "
    "later to the upload address (kept in the next dialog), or delete the image."
)


async def upload_image(ctx: ActionContext) -> bool:
    """The upload form, then the image data.

    Returns:
        True when the image record was created (whether or not its data was sent).
    """
    from screens.form import FormModal

    assert ctx.action.form is not None
    form = with_pickers(form_for(ctx.action.form), ctx.params)
    modal = FormModal(
        ctx.title,
        form,
        ctx.call,
        request_line=f"{ctx.endpoint.method} {ctx.path()}",
        values={},
        load_choices=ctx.load_choices,
        name=ctx.label,
    )
    outcome = await ctx.app.push_screen_wait(modal)
    if outcome is None:
        return False
    if hasattr(ctx.app, "changes"):
        ctx.app.changes += 1
    answer: dict[str, Any] = dict(outcome.answer or {})
    image = dict(answer.get("image") or {})
    label = shown(image.get("label") or "the image")
    upload_to = answer.get("upload_to")
    if not upload_to:
        ctx.done(f"Upload image: {label} created, but the API gave no upload address")
        return True
    sent = await send_data(ctx, label, str(upload_to))
    if not sent:
        await _keep_address(ctx, label, answer)
    return True


async def send_data(ctx: ActionContext, label: Shown, upload_to: str) -> bool:
    """Ask for the file and stream it; True when the data arrived."""
    path: Path | None = None
    prompt = f"Image file for {label} (gzip-compressed raw disk image, at most 5 GB):"
    while True:
        path = await ctx.app.push_screen_wait(LocalPathModal(prompt, "", "existing"))
        if path is None:
            return False
        problem = image_file_problem(path)
        if problem is None:
            break
        ctx.app.notify(shown(problem), title="Not an image file", severity="error", markup=False)
    client = ctx.session.client
    batch = Batch()
    progress = batch.add(str(path), path.stat().st_size)
    chosen = path

    async def work() -> None:
        try:
            await upload_image_file(client, upload_to, chosen, progress)
        except (ValueError, TransferFailed, OSError) as error:
            progress.finish(State.FAILED, str(error))
            return
        progress.finish(State.DONE)

    title = f"Upload {shown(chosen.name)} ({human_size(progress.size or 0)}) as image {label}"
    await ctx.app.push_screen_wait(TransferModal(title, batch, work, retry=work))
    if progress.state is State.DONE:
        ctx.done(f"{label}: data uploaded; the image becomes available once processed")
        return True
    what = (
        "cancelled" if progress.state is State.CANCELLED else f"failed ({shown(progress.reason)})"
    )
    ctx.app.notify(
        f"The upload {what}. " + PENDING_ADVICE.format(label=label),
        title="Upload image",
        severity="warning",
        markup=False,
    )
    return False


async def _keep_address(ctx: ActionContext, label: Shown, answer: dict[str, Any]) -> None:
    """Show the upload address once more, so the data can be sent later (curl -T)."""
    from screens.once import OnceModal

    ctx.app.notify(PENDING_ADVICE.format(label=label), title="Upload image", markup=False)
    await ctx.app.push_screen_wait(OnceModal(ctx.title, answer, ("upload_to",), shown_once=False))
