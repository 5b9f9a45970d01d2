"""Actions through the UI: generated forms (client errors, server errors, success), typed
confirmations, the "shown once" dialog, the preferences editor, and unavailable actions."""

from __future__ import annotations

from typing import Any

from textual.widgets import Select, TabbedContent

from screens.actions.form import FormModal
from screens.dialogs.commands import CommandsModal
from screens.dialogs.confirm import ConfirmModal
from screens.dialogs.once import OnceModal
from screens.editors.preferences import PreferencesModal
from screens.transfers.bucket_browser import BucketBrowserPane
from tests.ui.helpers import (
    demo_session,
    make_app,
    open_area,
    pauses,
    settle,
    wait_for_screen,
    wait_until,
)


def volume_labels(app: Any) -> set[str]:
    return {v["label"] for v in app.state.session.simulator.store.rows("volumes.volumes")}


async def confirm_price(pilot: Any) -> ConfirmModal:
    """A billed request's confirmation: it shows the price; y sends."""
    confirm: ConfirmModal = await wait_for_screen(pilot, ConfirmModal)
    assert confirm.price
    await pilot.press("y")
    return confirm


async def test_create_form_shows_client_errors_then_succeeds() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        before = volume_labels(app)
        await pilot.press("n")
        modal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form

        # Client side: a label with a space breaks the reference's pattern; nothing is sent.
        form.set_value("label", "bad label")
        form.set_value("size", "5")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is modal
        assert form.error_text("size")
        assert form.error_text("label")
        assert app.state.session.simulator.request_log.count("volumes.create") == 0

        form.set_value("label", "scratch-1")
        form.set_value("size", "30")
        form.set_value("region", "us-east")
        await pilot.press("ctrl+s")
        confirm = await confirm_price(pilot)
        assert "price not given (the API lists no volume prices)" in confirm.price
        # Then how to use it: a filesystem made (it is new), mounted, and in /etc/fstab.
        commands: CommandsModal = await wait_for_screen(pilot, CommandsModal)
        assert "mkfs.ext4 /dev/disk/by-id/scsi-0Volume_scratch-1" in commands.text
        assert "once it is attached" in commands.text  # created without an instance
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, FormModal)
        assert volume_labels(app) == before | {"scratch-1"}
        assert "scratch-1" in {item["label"] for item in pane.items.values()}
        assert app.notification_log[-1] == ("Volumes", "New volume: scratch-1")


async def test_server_field_errors_show_beside_the_input_and_keep_it() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        while pane.current_item and pane.current_item.get("status") != "active":
            await pilot.press("down")
        item = pane.current_item
        assert item is not None and item["size"] > 10
        await pilot.press("z")
        modal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        form.set_value("size", str(item["size"] - 1))  # the server refuses to shrink
        await pilot.press("ctrl+s")
        await confirm_price(pilot)
        await wait_until(pilot, lambda: form.error_text("size"))
        assert app.screen is modal
        assert form.values()["size"] == str(item["size"] - 1)
        form.set_value("size", str(item["size"] + 10))
        await pilot.press("ctrl+s")
        await confirm_price(pilot)
        grow: CommandsModal = await wait_for_screen(pilot, CommandsModal)
        assert f"resize2fs {item['filesystem_path']}" in grow.text  # its filesystem is not grown
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, FormModal)
        stored = app.state.session.simulator.store.get("volumes.volumes", item["id"])
        assert stored["size"] == item["size"] + 10


async def test_typed_confirmation_guards_an_irreversible_delete() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        item = pane.current_item
        assert item is not None
        await pilot.press("d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.typed == item["label"]
        preview = str(confirm.query_one("#confirm-preview").render())
        assert f"DELETE /volumes/{item['id']}" in preview
        await pilot.press(*"wrong")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is confirm  # a wrong label does not confirm
        confirm.query_one("#confirm-typed").value = item["label"]
        await pilot.press("enter")
        await settle(pilot)
        assert item["label"] not in volume_labels(app)
        assert str(item["id"]) not in {str(k) for k in pane.items}


async def test_cancelled_confirmation_sends_nothing() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        before = volume_labels(app)
        await pilot.press("d")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("escape")
        await settle(pilot)
        assert volume_labels(app) == before
        assert pane.current_item is not None


async def test_a_new_access_key_shows_its_secret_once() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("object_storage", "object_storage.keys")
        await settle(pilot)
        await pilot.press("n")
        modal = await wait_for_screen(pilot, FormModal)
        modal.model_form.set_value("label", "ci-deploy")
        await pilot.press("ctrl+s")
        once = await wait_for_screen(pilot, OnceModal)
        assert "secret_key" in once.fields
        secret = once.answer["secret_key"]
        assert ("secret_key", secret) not in once.rows_on_screen()  # masked until revealed
        await pilot.press("s")
        assert ("secret_key", secret) in once.rows_on_screen()
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, OnceModal)


async def test_preferences_are_validated_before_saving() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("profile")
        await settle(pilot)
        await pilot.press("f")
        modal = await wait_for_screen(pilot, PreferencesModal)
        modal.editor.text = '{"theme": '
        await pilot.press("ctrl+s")
        await pilot.pause()
        general = str(modal.query_one("#form-general").render())
        assert "Not valid JSON" in general
        assert app.screen is modal
        modal.editor.text = '{"theme": "dark", "columns": ["label", "status"]}'
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, PreferencesModal)
        client = app.state.session.client
        assert await client.call("profile.preferences.view", model=dict) == {
            "theme": "dark",
            "columns": ["label", "status"],
        }


async def test_read_only_token_greys_out_changes() -> None:
    app = make_app(demo_session("readonly"))
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        assert pane.check_action("run_action", ("volumes.create",)) is None
        await pilot.press("n")
        await pilot.pause()
        title, message = app.notification_log[-1]
        assert title == "New volume: not available"
        assert "volumes:read_write" in message
        assert not isinstance(app.screen, FormModal)


async def options_of(pilot: Any, form: Any, name: str, at_least: int = 1) -> list[Any]:
    """The values a choice input offers, once loaded."""
    widget = form.widget_for(name)
    async for _ in pauses(pilot):
        values = [v for _text, v in widget._options if v is not None and v is not Select.NULL]
        if len(values) >= at_least:
            return values
    raise AssertionError(f"{name} offered no choices")


async def test_a_mysql_database_is_created_from_the_offered_engines() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        app.go_to_area("databases")
        await settle(pilot)
        await pilot.press("n")
        modal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        engines = await options_of(pilot, form, "engine")
        assert engines and all(str(e).startswith("mysql/") for e in engines)
        form.set_value("engine", engines[0])
        form.set_value("label", "qa-db")
        form.set_value("region", (await options_of(pilot, form, "region"))[0])
        form.set_value("type", (await options_of(pilot, form, "type"))[0])
        await pilot.press("ctrl+s")
        confirm = await confirm_price(pilot)
        # Left empty, the allow list lets nobody in: the confirmation says so.
        assert "refuse every connection" in confirm.message
        await settle(pilot)
        assert not isinstance(app.screen, FormModal)
        rows = app.state.session.simulator.store.rows("databases.instances")
        assert any(r.get("label") == "qa-db" for r in rows)


async def test_attach_offers_the_configs_of_the_instance_chosen() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        while pane.current_item and pane.current_item.get("compute_id"):
            await pilot.press("down")  # a free volume
        assert pane.current_item is not None
        await pilot.press("a")
        modal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        assert form.values()["persist_across_boots"] is True  # the API's default, shown
        instances = await options_of(pilot, form, "compute_id")
        assert await options_of(pilot, form, "config_id", at_least=0) == []
        form.set_value("compute_id", instances[0])
        configs = await options_of(pilot, form, "config_id")
        store = app.state.session.simulator.store
        expected = {
            c["id"] for c in store.rows("compute.configs") if c["_compute_id"] == instances[0]
        }
        assert set(configs) == expected


async def test_object_acl_form_opens_on_the_current_acl() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        buckets = await open_area(pilot, "object_storage")
        assert buckets.table.move_cursor("cloudtui-site.us-east-1.objstore.example.net")
        await pilot.press("enter")
        await settle(pilot)
        detail = app.screen
        detail.query_one("#detail-tabs", TabbedContent).active = "tab-child-0"  # Objects
        await settle(pilot)
        objects = detail.query_one("#child-0", BucketBrowserPane)
        objects.open_folder("site/")  # the Objects tab browses folders
        await settle(pilot)
        assert objects.table.move_cursor("site/index.html")
        objects.table.focus()
        await pilot.press("a")
        modal = await wait_for_screen(pilot, FormModal)
        # The seeded object is public-read: the form shows it, not a guess.
        assert modal.model_form.values()["acl"] == "public-read"
        assert app.state.session.simulator.request_log.count("object_storage.objects.acl_view") == 1
        modal.model_form.set_value("acl", "private")
        await pilot.press("ctrl+s")
        await settle(pilot)
        site = {"clusterId": "us-east-1", "bucket": "cloudtui-site"}
        acl = await app.state.session.client.call(
            "object_storage.objects.acl_view", site, query={"name": "site/index.html"}
        )
        assert acl.acl == "private"
