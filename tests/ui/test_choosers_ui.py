"""Choosers in forms (type to filter, enter picks) and "New instance" from a deployment script
whose user-defined fields become inputs."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Select, SelectionList

from screens.chooser import ChooserModal
from screens.confirm import ConfirmModal
from screens.form import FormModal
from tests.ui.helpers import make_app, open_form, settle, started, wait_for_screen, wait_until
from widgets.chooser_field import ChooserSelect


def loaded(select: Any, at_least: int = 2) -> bool:
    return len(select._options) > at_least


async def test_the_type_chooser_filters_by_typing_and_enter_picks() -> None:
    app = make_app()
    async with started(app, (80, 24)) as pilot:
        form: FormModal = await open_form(pilot, "instances")
        field = form.model_form.widget_for("type")
        assert isinstance(field, ChooserSelect)
        await wait_until(pilot, lambda: field.table is not None and len(field.table.rows) > 5)
        field.focus()
        await pilot.pause()
        await pilot.press("d", "e", "d")
        chooser: ChooserModal = await wait_for_screen(pilot, ChooserModal)
        await wait_until(pilot, lambda: chooser.query_one(Input).value == "ded")
        assert [row.value for row in chooser.shown] == ["ded-2", "ded-4", "ded-8"]
        await pilot.press("down", "enter")
        await wait_for_screen(pilot, FormModal)
        assert form.model_form.values()["type"] == "ded-4"
        await pilot.press("escape")
        await settle(pilot)


async def test_escape_leaves_the_choice_as_it_was_and_labels_stay_literal() -> None:
    app = make_app()
    async with started(app, (80, 24)) as pilot:
        form: FormModal = await open_form(pilot, "instances")
        field = form.model_form.widget_for("image")
        assert isinstance(field, ChooserSelect)
        await wait_until(pilot, lambda: field.table is not None)
        field.focus()
        await pilot.press("enter")
        chooser: ChooserModal = await wait_for_screen(pilot, ChooserModal)
        assert chooser.shown[0].group == "private"  # the account's own images first
        await pilot.press("z", "z", "z", "q")
        await wait_until(pilot, lambda: not chooser.shown)
        await pilot.press("enter")  # nothing to pick: the chooser stays
        assert app.screen is chooser
        await pilot.press("escape")
        await wait_for_screen(pilot, FormModal)
        assert form.model_form.values()["image"] is None
        await pilot.press("escape")
        await settle(pilot)


async def test_new_instance_from_a_deployment_script_sends_its_fields() -> None:
    app = make_app()
    async with started(app) as pilot:
        form: FormModal = await open_form(pilot, "instances")
        model_form = form.model_form
        assert model_form.form.field("stackscript_data") is None  # no raw JSON
        scripts = model_form.widget_for("stackscript_id")
        await wait_until(pilot, lambda: loaded(scripts, 1))
        store = app.session.simulator.store
        lamp = next(s for s in store.rows("deployscripts.scripts") if s["label"] == "LAMP stack")
        for name, value in {
            "region": "us-east",
            "type": "std-2",
            "label": "shop-1",
            "image": "compute/debian12",
            "root_pass": "Another-long-secret-7",
            "stackscript_id": lamp["id"],
        }.items():
            model_form.set_value(name, value)
        await wait_until(pilot, lambda: model_form.form.field("stackscript_data.php_version"))
        php = model_form.widget_for("stackscript_data.php_version")
        site = model_form.widget_for("stackscript_data.site_name")
        secret = model_form.widget_for("stackscript_data.db_password")
        assert isinstance(php, Select) and php.value == "8.3"  # the default, chosen
        assert {v for _t, v in php._options if v is not Select.NULL} == {"8.2", "8.3"}
        assert isinstance(site, Input) and site.value == "My site"
        assert isinstance(secret, Input) and secret.password  # masked
        f = model_form.form.field("stackscript_data.db_password")
        assert f is not None and f.required

        await pilot.press("ctrl+s")  # no answer for the password: refused beside it
        await pilot.pause()
        assert "required" in model_form.error_text("stackscript_data.db_password")
        assert "compute.instances.create" not in app.session.simulator.request_log

        model_form.set_value("stackscript_data.db_password", "db-secret-99")
        model_form.set_value("stackscript_data.php_version", "8.2")
        await pilot.press("ctrl+s")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert "db-secret-99" not in confirm.preview  # masked in the request preview
        assert '"php_version": "8.2"' in confirm.preview
        await pilot.press("y")
        await settle(pilot)
        assert not isinstance(app.screen, FormModal)
        created = next(r for r in store.rows("compute.instances") if r.get("label") == "shop-1")
        assert created["_stackscript_id"] == lamp["id"]
        assert created["_stackscript_data"] == {
            "db_password": "db-secret-99",
            "site_name": "My site",
            "php_version": "8.2",
        }


async def test_choosing_another_script_replaces_the_fields() -> None:
    app = make_app()
    async with started(app) as pilot:
        form: FormModal = await open_form(pilot, "instances")
        model_form = form.model_form
        await wait_until(pilot, lambda: loaded(model_form.widget_for("stackscript_id"), 1))
        rows = app.session.simulator.store.rows("deployscripts.scripts")
        lamp = next(s for s in rows if s["label"] == "LAMP stack")
        hardening = next(s for s in rows if "hardening" in s["label"])
        model_form.set_value("stackscript_id", lamp["id"])
        await wait_until(pilot, lambda: model_form.form.field("stackscript_data.site_name"))
        model_form.set_value("stackscript_id", hardening["id"])
        await wait_until(pilot, lambda: model_form.form.field("stackscript_data.ssh_port"))
        names = [f.name for f in model_form.form.fields if f.name.startswith("stackscript_data.")]
        assert names == ["stackscript_data.ssh_port", "stackscript_data.admin_user"]
        assert len(model_form.query(".form-extra-group")) == 1
        model_form.set_value("stackscript_id", None)
        await wait_until(pilot, lambda: model_form.form.field("stackscript_data.ssh_port") is None)
        assert not model_form.query(".form-extra-group")
        # The script's own tick lists went with it (the keys' and users' lists stay).
        ticks = [t.id or "" for t in model_form.query(SelectionList)]
        assert not [i for i in ticks if "stackscript_data" in i]
        assert sorted(ticks) == ["field-authorized_keys", "field-authorized_users"]
        await pilot.press("escape")
        await settle(pilot)


async def test_a_many_of_field_is_a_multi_choice_sent_comma_separated() -> None:
    from tui.simulator.handlers.deployscripts import new_script

    app = make_app()
    store = app.session.simulator.store
    script = new_script(
        store,
        username=next(iter(store.table("users"))),
        label="web modules",
        images=["any/all"],
        script='#!/bin/sh\n# <UDF name="modules" label="Modules" manyOf="ssl,rewrite,headers" '
        'default="ssl" />\n',
        now_iso="2026-01-01T00:00:00",
    )
    async with started(app) as pilot:
        form: FormModal = await open_form(pilot, "instances")
        model_form = form.model_form
        await wait_until(pilot, lambda: loaded(model_form.widget_for("stackscript_id"), 1))
        for name, value in {
            "region": "us-east",
            "type": "std-2",
            "label": "mods-1",
            "image": "compute/debian12",
            "root_pass": "Another-long-secret-7",
            "stackscript_id": script["id"],
        }.items():
            model_form.set_value(name, value)
        await wait_until(pilot, lambda: model_form.form.field("stackscript_data.modules"))
        modules = model_form.widget_for("stackscript_data.modules")
        assert isinstance(modules, SelectionList)
        assert list(modules.selected) == ["ssl"]  # the default, ticked
        modules.focus()
        await pilot.press("down", "space")  # tick "rewrite" from the keyboard
        await pilot.pause()
        assert model_form.values()["stackscript_data.modules"] == ["ssl", "rewrite"]
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        created = next(r for r in store.rows("compute.instances") if r.get("label") == "mods-1")
        assert created["_stackscript_data"] == {"modules": "ssl,rewrite"}


async def test_a_volume_region_chooser_offers_only_regions_with_block_storage() -> None:
    app = make_app()
    store = app.session.simulator.store
    west = store.get("compute.regions", "us-west")
    west["capabilities"] = [c for c in west["capabilities"] if c != "Block Storage"]
    async with started(app) as pilot:
        form: FormModal = await open_form(pilot, "volumes")
        region = form.model_form.widget_for("region")
        assert isinstance(region, ChooserSelect)
        await wait_until(pilot, lambda: region.table is not None and len(region.table.rows) > 3)
        assert region.table is not None
        offered = {row.value for row in region.table.rows}
        assert "us-east" in offered and "us-west" not in offered
        await pilot.press("escape")
        await settle(pilot)


async def test_a_chooser_opened_before_its_choices_arrive_shows_them_when_they_do() -> None:
    app = make_app()
    async with started(app, (80, 24)) as pilot:
        form: FormModal = await open_form(pilot, "instances")
        field = form.model_form.widget_for("type")
        assert isinstance(field, ChooserSelect)
        await wait_until(pilot, lambda: field.table is not None and len(field.table.rows) > 5)
        arrived = list(field.items)
        # As when the list is still loading: no rows yet.
        form.model_form.set_choices("type", [], items=[])
        field.focus()
        await pilot.press("enter")
        chooser: ChooserModal = await wait_for_screen(pilot, ChooserModal)
        assert chooser.shown == []
        source = form.form.field("type").source  # type: ignore[union-attr]
        assert source is not None
        form.model_form.set_choices("type", [source.option(i) for i in arrived], items=arrived)
        await pilot.pause()
        assert app.screen is chooser
        assert {row.value for row in chooser.shown} == {i["id"] for i in arrived}
        await pilot.press("escape")
        await wait_for_screen(pilot, FormModal)
        await pilot.press("escape")
        await settle(pilot)
