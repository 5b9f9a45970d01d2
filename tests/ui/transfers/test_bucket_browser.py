"""The bucket browser: folders, paging, download/upload/delete with progress,
conflicts, cancel, dropped connections, share and view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Static, TabbedContent

from screens.dialogs.confirm import ConfirmModal
from screens.transfers.bucket_browser import BucketBrowserPane
from screens.transfers.dialogs import ConflictModal, LocalPathModal, ShareModal, TextViewModal
from screens.transfers.progress import TransferModal
from tests.ui.helpers import make_app, open_area, settle, wait_for_screen, wait_until
from tui.simulator.handlers.object_storage import TRANSFER_OPERATION, put_object
from tui.transfers.progress import State

SITE_HOST = "cloudtui-site.us-east-1.objstore.example.net"
OBJECTS = "object_storage.objects"


def stored(app: Any, name: str, bucket: str = "cloudtui-site") -> dict[str, Any] | None:
    return app.state.session.simulator.store.get(OBJECTS, f"us-east-1/{bucket}/{name}")


async def open_browser(pilot: Pilot[Any], host: str = SITE_HOST) -> BucketBrowserPane:
    buckets = await open_area(pilot, "object_storage")
    assert buckets.table.move_cursor(host)
    await pilot.press("enter")
    await settle(pilot)
    detail = pilot.app.screen
    detail.query_one("#detail-tabs", TabbedContent).active = "tab-child-0"  # Objects
    await settle(pilot)
    pane = detail.query_one("#child-0", BucketBrowserPane)
    await wait_until(pilot, lambda: pane.loaded)
    pane.table.focus()
    await settle(pilot)
    return pane


def shown(pane: BucketBrowserPane) -> list[str]:
    return [pane.table.cells_at(i)[0] for i in range(pane.table.row_count)]


async def answer_path(pilot: Pilot[Any], path: Path | str) -> None:
    modal = await wait_for_screen(pilot, LocalPathModal)
    modal.query_one(Input).value = str(path)
    await pilot.press("enter")


async def finish_transfer(pilot: Pilot[Any]) -> TransferModal:
    modal = await wait_for_screen(pilot, TransferModal)
    await wait_until(pilot, lambda: not modal.running)
    return modal


async def test_browse_into_and_out_of_folders() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_browser(pilot)
        assert shown(pane) == ["docs/", "site/", "README.txt"]
        path = pane.query_one("#browser-path", Static)
        assert str(path.render()) == "cloudtui-site /"
        assert pane.table.cells_at(2)[3] == "text/plain"
        assert pane.table.move_cursor("site/")
        await pilot.press("enter")
        await settle(pilot)
        assert pane.prefix == "site/"
        assert shown(pane) == ["css/", "img/", "js/", "menü/", "index.html"]
        assert str(path.render()) == "cloudtui-site / site /"
        await pilot.press("enter")  # into css/
        await settle(pilot)
        assert shown(pane) == ["app.css"] and pane.prefix == "site/css/"
        await pilot.press("backspace")
        await settle(pilot)
        assert pane.prefix == "site/" and pane.table.cursor_key == "site/css/"
        await pilot.press("backspace")
        await settle(pilot)
        assert pane.prefix == "" and pane.table.cursor_key == "site/"
        # Filter within the folder.
        await pilot.press("slash", "R", "E", "A")
        await settle(pilot)
        assert shown(pane) == ["README.txt"]
        await pilot.press("escape")
        await settle(pilot)
        assert len(shown(pane)) == 3


async def test_large_folder_pages_as_the_cursor_nears_the_end() -> None:
    app = make_app()
    sim = app.state.session.simulator
    bucket = sim.store.get("object_storage.buckets", "us-east-1/cloudtui-site")
    for n in range(450):
        put_object(sim.store, bucket, f"many/{n:05d}.txt", b"x", "text/plain", 0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_browser(pilot)
        before = sim.request_log.count("object_storage.objects.list")
        pane.open_folder("many/")
        await settle(pilot)
        assert sim.request_log.count("object_storage.objects.list") == before + 1
        assert pane.table.row_count == 200
        await pilot.press("end")
        await settle(pilot)
        assert pane.table.row_count == 400
        await pilot.press("end")
        await settle(pilot)
        assert pane.table.row_count == 450


async def test_upload_a_directory_tree_then_download_marked_and_a_folder(tmp_path: Path) -> None:
    tree = tmp_path / "photos"
    (tree / "2026").mkdir(parents=True)
    (tree / "a.txt").write_text("alpha")
    (tree / "2026" / "b.txt").write_text("beta" * 1000)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_browser(pilot)
        await pilot.press("U")
        await answer_path(pilot, tree)
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.title_text == "Upload 2 file(s), 3.9 KB, to cloudtui-site/?"
        assert "photos/2026/b.txt" in confirm.preview
        await pilot.press("y")
        modal = await finish_transfer(pilot)
        assert modal.transfers.summary() == "2 done"
        assert "2/2 files" in str(modal.query_one("#transfer-total", Static).render())
        await pilot.press("enter")
        await settle(pilot)
        assert stored(app, "photos/2026/b.txt") is not None
        assert "photos/" in shown(pane)
        # Download the folder.
        out = tmp_path / "out"
        out.mkdir()
        assert pane.table.move_cursor("photos/")
        await pilot.press("D")
        await answer_path(pilot, out)
        modal = await finish_transfer(pilot)
        assert modal.transfers.summary() == "2 done"
        await pilot.press("escape")
        await settle(pilot)
        assert (out / "photos" / "2026" / "b.txt").read_text() == "beta" * 1000
        # Download two marked objects of the root.
        marked = tmp_path / "marked"
        marked.mkdir()
        pane.open_folder("docs/")
        await settle(pilot)
        pane.table.move_cursor(pane.table.keys[0])
        await pilot.press("space", "space")
        assert len(pane.table.marked) == 2
        await pilot.press("D")
        await answer_path(pilot, marked)
        await finish_transfer(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert sorted(p.name for p in marked.iterdir()) == ["résumé été 2026.txt", "報告書.txt"]
        assert (marked / "報告書.txt").read_text() == "四半期報告書\n"


async def test_overwrite_prompt_skip_rename_and_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "README.txt").write_text("mine")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_browser(pilot)
        assert pane.table.move_cursor("README.txt")
        for key, expected in (("s", "mine"), ("r", "mine"), ("o", None)):
            await pilot.press("D")
            await answer_path(pilot, out)
            await wait_for_screen(pilot, ConflictModal)
            await pilot.press(key)
            await finish_transfer(pilot)
            await pilot.press("enter")
            await settle(pilot)
            if expected:
                assert (out / "README.txt").read_text() == expected
        assert (out / "README.txt").read_text() == "Static site of the demo account.\n"
        assert (out / "README (1).txt").read_text() == "Static site of the demo account.\n"
        assert not [p for p in out.iterdir() if p.name.endswith(".part")]


async def _download_readme(pilot: Pilot[Any]) -> LocalPathModal:
    """Open the site bucket's browser and press D on README.txt: the folder dialog."""
    await settle(pilot)
    pane = await open_browser(pilot)
    assert pane.table.move_cursor("README.txt")
    await pilot.press("D")
    modal: LocalPathModal = await wait_for_screen(pilot, LocalPathModal)
    return modal


async def test_the_download_dialog_starts_in_the_last_folder_used(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        first = await _download_readme(pilot)
        assert first.query_one(Input).value == str(Path.cwd()) + "/"  # nothing remembered yet
        await answer_path(pilot, out)
        await finish_transfer(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("D")
        again = await wait_for_screen(pilot, LocalPathModal)
        assert again.query_one(Input).value == str(out) + "/"
        await pilot.press("escape")
        await settle(pilot)
    # A later run of the same profile starts there too.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        later = await _download_readme(pilot)
        assert later.query_one(Input).value == str(out) + "/"
        await pilot.press("escape")
        await settle(pilot)


async def test_cancel_mid_transfer_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    app = make_app()
    sim = app.state.session.simulator
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_browser(pilot)
        assert pane.table.move_cursor("README.txt")
        sim.faults.latency = 30.0  # every request now waits: the download hangs mid-way
        await pilot.press("D")
        await answer_path(pilot, out)
        modal = await wait_for_screen(pilot, TransferModal)
        await wait_until(pilot, lambda: any(p.name.endswith(".part") for p in out.iterdir()))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not modal.running)
        assert modal.cancelled and modal.transfers.files[0].state is State.CANCELLED
        sim.faults.latency = 0.0
        await pilot.press("escape")
        await settle(pilot)
        assert list(out.iterdir()) == []


async def test_dropped_connection_mid_download_still_ends_with_the_right_bytes(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    app = make_app()
    sim = app.state.session.simulator
    bucket = sim.store.get("object_storage.buckets", "us-east-1/cloudtui-site")
    data = bytes(range(256)) * 2048
    put_object(sim.store, bucket, "blob.bin", data, "application/octet-stream", 0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_browser(pilot)
        assert pane.table.move_cursor("blob.bin")
        sim.faults.fail_next(TRANSFER_OPERATION, 2, 0)
        await pilot.press("D")
        await answer_path(pilot, out)
        modal = await finish_transfer(pilot)
        assert modal.transfers.files[0].state is State.DONE
        assert modal.transfers.files[0].attempts == 3
        await pilot.press("enter")
        assert (out / "blob.bin").read_bytes() == data
        # After the retries the file is reported failed, never done.
        sim.faults.fail_next(TRANSFER_OPERATION, 4, 0)  # as many as a file gets tries
        await pilot.press("D")
        await answer_path(pilot, out)
        await wait_for_screen(pilot, ConflictModal)
        await pilot.press("r")
        modal = await finish_transfer(pilot)
        failed = modal.transfers.files[0]
        assert failed.state is State.FAILED and "dropping" in failed.reason
        text = str(modal.query_one("#transfer-hint", Static).render())
        assert "r retry the 1 failed" in text
        await pilot.press("r")  # retry: the server behaves again
        modal = await finish_transfer(pilot)
        assert modal.transfers.files[0].state is State.DONE
        await pilot.press("enter")
        await settle(pilot)
        assert (out / "blob (1).bin").read_bytes() == data
        assert not [p for p in out.iterdir() if p.name.endswith(".part")]


async def test_delete_marked_objects_with_a_typed_confirmation() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_browser(pilot)
        pane.open_folder("docs/")
        await settle(pilot)
        pane.table.move_cursor(pane.table.keys[0])
        await pilot.press("space", "space", "d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.typed == "delete 2"
        assert "2 object(s)" in confirm.title_text
        confirm.query_one(Input).value = "delete 2"
        await pilot.press("enter")
        modal = await finish_transfer(pilot)
        assert modal.transfers.summary() == "2 done"
        await pilot.press("enter")
        await settle(pilot)
        assert stored(app, "docs/報告書.txt") is None
        assert stored(app, "README.txt") is not None
        await wait_until(pilot, lambda: pane.loaded and pane.listing is not None)
        assert shown(pane) == []


async def test_view_text_literally_and_share_link() -> None:
    app = make_app()
    sim = app.state.session.simulator
    bucket = sim.store.get("object_storage.buckets", "us-east-1/cloudtui-site")
    put_object(sim.store, bucket, "markup.txt", b"[bold]x[/b] [/x]", "text/plain", 0.0)
    put_object(sim.store, bucket, "bin.dat", b"\x00\x01", "application/octet-stream", 0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_browser(pilot)
        assert pane.table.move_cursor("markup.txt")
        await pilot.press("v")
        view = await wait_for_screen(pilot, TextViewModal)
        assert view.text == "[bold]x[/b] [/x]"
        await pilot.press("escape")
        await settle(pilot)
        assert pane.table.move_cursor("bin.dat")
        await pilot.press("v")
        await settle(pilot)
        assert not isinstance(app.screen, TextViewModal)
        assert pane.table.move_cursor("README.txt")
        await pilot.press("s")
        share = await wait_for_screen(pilot, ShareModal)
        share.query_one(Input).value = "10"
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: "6 minutes" in str(share.query_one("#share-error").render())
        )
        assert share.url is None
        share.query_one(Input).value = "2h"
        await pilot.press("enter")
        await wait_until(pilot, lambda: share.url is not None)
        assert app.last_copied == share.url and "method=GET" in share.url
        await pilot.press("escape")


async def test_image_upload_streams_the_file_and_the_image_becomes_available(
    tmp_path: Path,
) -> None:
    import gzip

    from screens.actions.form import FormModal
    from tests.ui.helpers import demo_session
    from tui.simulator import VirtualClock

    raw = tmp_path / "disk.img"
    raw.write_bytes(b"\x00" * (3 * 1024 * 1024))
    image = tmp_path / "disk.img.gz"
    image.write_bytes(gzip.compress(raw.read_bytes()))
    clock = VirtualClock()
    app = make_app(demo_session(clock=clock))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        images = await open_area(pilot, "images")
        await pilot.press("U")
        form = await wait_for_screen(pilot, FormModal)
        form.model_form.set_value("label", "my-upload")
        form.model_form.set_value("region", "us-east")
        await pilot.press("ctrl+s")
        # A file that breaks the spec's rules is refused before anything is sent.
        await answer_path(pilot, raw)
        await wait_until(pilot, lambda: isinstance(app.screen, LocalPathModal))
        await answer_path(pilot, image)
        modal = await finish_transfer(pilot)
        assert modal.transfers.files[0].state is State.DONE
        await pilot.press("enter")
        await settle(pilot)
        store = app.state.session.simulator.store
        record = next(i for i in store.rows("images.images") if i.get("label") == "my-upload")
        assert record["status"] == "pending_upload" and record["_uploaded"]
        clock.advance(60)
        images.refresh_now()
        await settle(pilot)
        record = next(i for i in store.rows("images.images") if i.get("label") == "my-upload")
        assert record["status"] == "available" and record["size"] == 3
        row = images.table.row(record["id"])
        assert row is not None and "available" in " ".join(row.cells).lower()


async def test_failed_image_upload_says_what_to_do_and_keeps_the_address(tmp_path: Path) -> None:
    import gzip

    from screens.actions.form import FormModal
    from screens.dialogs.once import OnceModal

    image = tmp_path / "disk.img.gz"
    image.write_bytes(gzip.compress(b"\x00" * 4096))
    app = make_app()
    sim = app.state.session.simulator
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await open_area(pilot, "images")
        await pilot.press("U")
        form = await wait_for_screen(pilot, FormModal)
        form.model_form.set_value("label", "broken-upload")
        form.model_form.set_value("region", "us-east")
        await pilot.press("ctrl+s")
        sim.faults.fail_next("images.upload_data", 4, 500)  # every try fails
        await answer_path(pilot, image)
        modal = await finish_transfer(pilot)
        failed = modal.transfers.files[0]
        assert failed.state is State.FAILED and "500" in failed.reason
        await pilot.press("enter")
        once = await wait_for_screen(pilot, OnceModal)
        assert once.fields == ("upload_to",)
        texts = [str(n.message) for n in app._notifications]
        assert any("stays 'pending upload' for 24 hours" in t for t in texts)
        await pilot.press("escape")
        await settle(pilot)
        record = next(
            i for i in sim.store.rows("images.images") if i.get("label") == "broken-upload"
        )
        assert record["status"] == "pending_upload" and not record["_uploaded"]
