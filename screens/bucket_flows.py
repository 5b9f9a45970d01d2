"""The bucket browser's flows: dialogs in order, the headless transfer code between them.

Each flow runs in a worker of :class:`~screens.bucket_browser.BucketBrowserPane` (dialogs are
awaited) and ends by refreshing the folder when something changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from textual.app import App

from screens.confirm import ConfirmModal
from screens.transfer_dialogs import ConflictModal, LocalPathModal, ShareModal, TextViewModal
from screens.transfer_progress import TransferModal
from tui.api.errors import CloudError
from tui.refresh import describe_error
from tui.transfers.last_folder import last_download_folder, remember_download_folder
from tui.transfers.listing import Entry, walk_objects
from tui.transfers.objects import (
    download_batch,
    preview_text,
    run_deletes,
    run_downloads,
    run_uploads,
    share_url,
    upload_batch,
)
from tui.transfers.plan import ConflictPolicy, download_items, upload_items
from tui.transfers.progress import Batch, State, human_size
from tui.untrusted import Shown, shown


class BucketBrowserPane(Protocol):
    """What the flows need of the browser pane (a protocol: the pane imports this module)."""

    app: App[Any]
    params: dict[str, Any]
    prefix: str

    @property
    def bucket(self) -> str:
        """The bucket's label."""

    def transfers_done(self) -> None:
        """Refresh the folder after a change."""


def _client(pane: BucketBrowserPane) -> Any:
    return pane.app.session.client  # type: ignore[attr-defined]


def _failed(pane: BucketBrowserPane, title: Shown, error: CloudError) -> None:
    pane.app.notify(describe_error(error), title=title, severity="error", markup=False)


async def expand(pane: BucketBrowserPane, chosen: list[Entry]) -> list[Entry] | None:
    """The objects meant by ``chosen``: folders stand for every object under them."""
    objects: list[Entry] = []
    folders = [e.key for e in chosen if e.folder]
    if folders:
        listing = ", ".join(shown(folder) for folder in folders[:3])
        pane.app.notify(f"Listing {listing} ...", title="Folders", markup=False)
    try:
        for entry in chosen:
            if entry.folder:
                objects += [e async for e in walk_objects(_client(pane), pane.params, entry.key)]
            else:
                objects.append(entry)
    except CloudError as error:
        _failed(pane, "Listing the folder", error)
        return None
    return objects


async def view_object(pane: BucketBrowserPane, entry: Entry) -> None:
    """``v``: the object's text, literal, when it is text of at most 1 MB."""
    try:
        preview = await preview_text(_client(pane), pane.params, entry.key, entry.size)
    except CloudError as error:
        _failed(pane, "View", error)
        return
    if preview.text is None:
        pane.app.notify(shown(preview.reason), title=f"View {shown(entry.name)}", markup=False)
        return
    await pane.app.push_screen_wait(TextViewModal(shown(entry.key), preview.text))


async def share_object(pane: BucketBrowserPane, entry: Entry) -> None:
    """``s``: a pre-signed GET link with the expiry the user picks, copied with OSC 52."""

    async def make(seconds: int) -> str:
        return await share_url(_client(pane), pane.params, entry.key, seconds)

    await pane.app.push_screen_wait(ShareModal(shown(entry.key), make))


async def download(pane: BucketBrowserPane, chosen: list[Entry]) -> None:
    """``D``: the chosen objects (folders: their contents) to a local directory."""
    what = shown(chosen[0].name) if len(chosen) == 1 else f"{len(chosen)} entries"
    profile = getattr(pane.app, "profile_name", "default")
    start = str(last_download_folder(profile)).rstrip("/") + "/"
    directory = await pane.app.push_screen_wait(
        LocalPathModal(f"Download {what} to the directory:", start, "directory")
    )
    if directory is None:
        return
    remember_download_folder(profile, directory)
    objects = await expand(pane, chosen)
    if objects is None:
        return
    if not objects:
        pane.app.notify("There is nothing to download in the chosen folders.", title="Download")
        return
    items = download_items(objects, pane.prefix, directory)

    async def ask(path: Path) -> Any:
        return await pane.app.push_screen_wait(ConflictModal(path))

    if not await ConflictPolicy(ask).resolve(items):
        pane.app.notify("Download cancelled; nothing was written.", title="Download")
        return
    batch = Batch()
    progresses = download_batch(batch, items)
    client = _client(pane)

    async def work() -> None:
        await run_downloads(client, pane.params, items, progresses, batch)

    size = human_size(sum(o.size for o in objects))
    title = f"Download {len(objects)} object(s), {size}, to {shown(directory)}"
    await pane.app.push_screen_wait(TransferModal(title, batch, work, retry=work))
    _tell(pane, "Download", batch)


async def upload(pane: BucketBrowserPane) -> None:
    """``U``: a local file or directory (recursive) into the folder being browsed."""
    here = shown(f"{pane.bucket}/{pane.prefix}")
    source = await pane.app.push_screen_wait(
        LocalPathModal(f"Upload a file or directory to {here}:", "", "existing")
    )
    if source is None:
        return
    items, problems = upload_items(source, pane.prefix)
    batch = Batch()
    progresses = upload_batch(batch, items)
    for path, reason in problems:
        batch.add(path, None).finish(State.SKIPPED, reason)
    if not items:
        pane.app.notify("There are no files to upload there.", title="Upload")
        return
    total = human_size(sum(i.size for i in items))
    listed = "\n".join(
        shown(f"{i.key}  ({human_size(i.size)}, {i.content_type})") for i in items[:8]
    )
    more = f"\n... and {len(items) - 8} more" if len(items) > 8 else ""
    left_out = (
        f"\nLeft out: {len(problems)} (not readable or not regular files)" if problems else ""
    )
    confirmed = await pane.app.push_screen_wait(
        ConfirmModal(
            f"Upload {len(items)} file(s), {total}, to {here}?",
            "Objects with the same names are replaced.",
            f"PUT through pre-signed URLs ({_url_line(pane)})\n{listed}{more}{left_out}",
            confirm_label="Upload",
        )
    )
    if not confirmed:
        return
    client = _client(pane)

    async def work() -> None:
        await run_uploads(client, pane.params, items, progresses, batch)

    title = f"Upload {len(items)} file(s), {human_size(sum(i.size for i in items))}, to {here}"
    await pane.app.push_screen_wait(TransferModal(title, batch, work, retry=work))
    _tell(pane, "Upload", batch)
    pane.transfers_done()


async def delete(pane: BucketBrowserPane, chosen: list[Entry]) -> None:
    """``d``: the chosen objects (folders: their contents), after one typed confirmation."""
    objects = await expand(pane, chosen)
    if objects is None:
        return
    if not objects:
        pane.app.notify("There is nothing to delete there.", title="Delete")
        return
    count = len(objects)
    size = human_size(sum(o.size for o in objects))
    names = "\n".join(shown(o.key) for o in objects[:8]) + ("\n..." if count > 8 else "")
    names = f"DELETE through pre-signed URLs ({_url_line(pane)})\n{names}"
    typed = f"delete {count}"
    confirmed = await pane.app.push_screen_wait(
        ConfirmModal(
            f"Delete {count} object(s), {size}, from {shown(pane.bucket)}?",
            f"The objects are removed for good ({count} object(s), {size} in total).",
            names,
            typed=typed,
            confirm_label="Delete",
        )
    )
    if not confirmed:
        return
    batch = Batch()
    client = _client(pane)
    keys = [o.key for o in objects]

    async def work() -> None:
        await run_deletes(client, pane.params, keys, batch)

    async def retry() -> None:
        again = [f.name for f in batch.files if f.state is State.WAITING]
        batch.files[:] = [f for f in batch.files if f.state is not State.WAITING]
        await run_deletes(client, pane.params, again, batch)

    await pane.app.push_screen_wait(
        TransferModal(
            f"Delete {count} object(s) from {shown(pane.bucket)}", batch, work, retry=retry
        )
    )
    _tell(pane, "Delete", batch)
    pane.transfers_done()


def _url_line(pane: BucketBrowserPane) -> Shown:
    """The request that signs each transfer URL, for the confirmations' previews."""
    cluster, bucket = pane.params.get("clusterId", ""), pane.params.get("bucket", "")
    return shown(f"POST /object-storage/buckets/{cluster}/{bucket}/object-url per object")


def _tell(pane: BucketBrowserPane, what: Shown, batch: Batch) -> None:
    failed = batch.count(State.FAILED, State.CANCELLED)
    pane.app.notify(
        f"{what}: {batch.summary()}.",
        title=what,
        severity="warning" if failed else "information",
        markup=False,
    )
