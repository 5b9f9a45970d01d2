"""A new instance from where the user is: a backup row of an instance's Backups tab (chosen in
the form's backup chooser, with types too small for it marked), an image's or a deployment
script's detail; scripts and images that do not go together are marked."""

from __future__ import annotations

from textual.widgets import TabbedContent

from screens.actions.form import ON_FOCUS_PROMPT, FormModal
from screens.details.resource_detail import ResourceDetailScreen
from screens.dialogs.confirm import ConfirmModal
from screens.lists.list_pane import ResourceListPane
from tests.ui.helpers import make_app, open_form, settle, wait_for_screen, wait_until
from widgets.chooser_field import ChooserSelect
from widgets.chooser_modal import ChooserModal


async def _detail(pilot, area: str, table: str, label: str) -> ResourceDetailScreen:
    """The detail screen of the item ``label`` of ``area`` (stored in ``table``)."""
    app = pilot.app
    app.go_to_area(area)
    await settle(pilot)
    store = app.state.session.simulator.store
    item = next(r for r in store.rows(table) if r["label"] == label)
    pane = app.screen.query_one("#pane-0", ResourceListPane)
    assert pane.table.move_cursor(str(item["id"]))
    pane.table.focus()
    await pilot.press("enter")
    await settle(pilot)
    screen = app.screen
    assert isinstance(screen, ResourceDetailScreen)
    return screen


async def _backups_tab(pilot, label: str) -> ResourceListPane:
    screen = await _detail(pilot, "instances", "compute.instances", label)
    index = [c.title for c in screen.resource.children].index("Backups")
    screen.query_one("#detail-tabs", TabbedContent).active = f"tab-child-{index}"
    await settle(pilot)
    backups = screen.query_one(f"#child-{index}", ResourceListPane)
    backups.table.focus()
    await pilot.pause()
    return backups


async def test_new_instance_from_a_backup_row_opens_with_it_chosen_and_marks_small_types() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        store = app.state.session.simulator.store
        backups = await _backups_tab(pilot, "db-primary")
        snapshot = next(
            b for b in store.rows("compute.backups") if b.get("label") == "pre-upgrade [pg 16]"
        )
        assert backups.table.move_cursor(str(snapshot["id"]))
        await pilot.press("n")
        form: FormModal = await wait_for_screen(pilot, FormModal)
        values = form.model_form.values()
        assert values["backup_id"] == snapshot["id"] and values["image"] is None
        assert "backup" in form.title_text.lower()
        kind = form.model_form.widget_for("type")
        assert isinstance(kind, ChooserSelect)
        await wait_until(pilot, lambda: kind.table is not None and len(kind.table.rows) > 5)
        await wait_until(pilot, lambda: form.model_form.chosen("backup_id")[1] is not None)
        needed = sum(d["size"] for d in snapshot["disks"])
        kind.focus()
        await pilot.press("enter")
        chooser: ChooserModal = await wait_for_screen(pilot, ChooserModal)
        notes = {row.value: row.cells[-1] for row in chooser.shown}
        small = {t["id"] for t in store.rows("compute.types") if t["disk"] < needed}
        assert small, "the demo has types too small for this backup"
        assert all("backup needs" in notes[t] for t in small)
        assert all(not notes[v] for v in notes if v not in small)
        # Enter on one the API would refuse says why and keeps the chooser open.
        tiny = next(row for row in chooser.shown if row.value in small)
        chooser.panel.grid.move_cursor(row=chooser.shown.index(tiny))
        await pilot.press("enter")
        await wait_until(pilot, lambda: any("backup needs" in t for _h, t in app.notification_log))
        assert app.screen is chooser
        # One that fits is chosen.
        fits = next(row for row in chooser.shown if row.value == "std-4")
        chooser.panel.grid.move_cursor(row=chooser.shown.index(fits))
        await pilot.press("enter")
        await wait_for_screen(pilot, FormModal)
        assert form.model_form.values()["type"] == "std-4"
        # One set another way (a field filled in before the backup) says why under the input.
        form.model_form.set_value("type", tiny.value)
        await wait_until(pilot, lambda: "too small" in form.model_form.error_text("type"))
        form.model_form.set_value("type", "std-4")
        await wait_until(pilot, lambda: not form.model_form.error_text("type"))
        form.model_form.set_value("label", "restored-1")
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        created = next(r for r in store.rows("compute.instances") if r["label"] == "restored-1")
        assert created["type"] == "std-4"


async def test_the_backup_chooser_lists_backups_of_every_instance_with_their_facts() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        log = app.state.session.simulator.request_log
        form: FormModal = await open_form(pilot, "instances")
        field = form.model_form.widget_for("backup_id")
        assert isinstance(field, ChooserSelect)
        # Gathering them asks once per instance with backups: not before the input is used.
        await wait_until(pilot, lambda: loaded(form.model_form.widget_for("type")))
        assert "compute.backups.list" not in log
        assert field.prompt == ON_FOCUS_PROMPT
        field.focus()
        await wait_until(pilot, lambda: field.table is not None and len(field.table.rows) > 2)
        asked = log.count("compute.backups.list")
        assert asked == len(
            [
                i
                for i in app.state.session.simulator.store.rows("compute.instances")
                if i["backups"]["enabled"]
            ]
        )
        assert field.table is not None
        assert field.table.titles[:3] == ("Instance", "Label", "Kind")
        store = app.state.session.simulator.store
        expected = {b["id"] for b in store.rows("compute.backups")}
        assert {row.value for row in field.table.rows} == expected
        sources = {row.cells[0] for row in field.table.rows}
        assert "db-primary" in sources and len(sources) > 1
        running = next(r for r in field.table.rows if "running" in r.cells)
        assert running.cells[-1] == "not restorable yet"
        await pilot.press("escape")
        await settle(pilot)


async def test_new_instance_from_an_image_detail_opens_with_the_image_chosen() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _detail(pilot, "images", "images.images", "Debian 12")
        await pilot.press("i")
        form: FormModal = await wait_for_screen(pilot, FormModal)
        model_form = form.model_form
        assert model_form.values()["image"] == "compute/debian12"
        await wait_until(pilot, lambda: loaded(model_form.widget_for("stackscript_id")))
        for name, value in {
            "region": "us-east",
            "type": "std-2",
            "label": "from-image-1",
            "root_pass": "Another-long-secret-7",
        }.items():
            model_form.set_value(name, value)
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        store = app.state.session.simulator.store
        created = next(r for r in store.rows("compute.instances") if r["label"] == "from-image-1")
        assert created["image"] == "compute/debian12"


def loaded(select, at_least: int = 1) -> bool:
    return (
        isinstance(select, ChooserSelect)
        and select.table is not None
        and (len(select.table.rows) > at_least)
    )


async def test_new_instance_from_a_script_marks_images_it_does_not_support() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _detail(pilot, "deployscripts", "deployscripts.scripts", "LAMP stack")
        await pilot.press("i")
        form: FormModal = await wait_for_screen(pilot, FormModal)
        model_form = form.model_form
        store = app.state.session.simulator.store
        lamp = next(s for s in store.rows("deployscripts.scripts") if s["label"] == "LAMP stack")
        assert model_form.values()["stackscript_id"] == lamp["id"]
        image = model_form.widget_for("image")
        await wait_until(pilot, lambda: loaded(image, 3))
        await wait_until(pilot, lambda: model_form.chosen("stackscript_id")[1] is None)
        image.focus()
        await pilot.press("enter")
        chooser: ChooserModal = await wait_for_screen(pilot, ChooserModal)
        notes = {row.value: row.cells[-1] for row in chooser.shown}
        assert notes["compute/alpine3.20"].endswith("not in the chosen script")
        assert notes["compute/debian12"] == ""
        chooser.panel.grid.move_cursor(
            row=[r.value for r in chooser.shown].index("compute/debian12")
        )
        await pilot.press("enter")
        await wait_for_screen(pilot, FormModal)
        # With an image, the script shows (still chosen) and asks for its fields.
        await wait_until(pilot, lambda: model_form.form.field("stackscript_data.site_name"))
        site = f"#{model_form.id_of('stackscript_data.site_name')}"
        await wait_until(pilot, lambda: model_form.query(site))  # its inputs are mounting
        await pilot.pause()
        assert model_form.values()["stackscript_id"] == lamp["id"]
        await pilot.press("escape")
        await settle(pilot)


async def test_the_script_chooser_marks_scripts_without_the_chosen_image() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form: FormModal = await open_form(pilot, "instances")
        model_form = form.model_form
        scripts = model_form.widget_for("stackscript_id")
        await wait_until(pilot, lambda: loaded(scripts, 2))
        model_form.set_value("image", "compute/debian12")
        await pilot.pause()
        scripts.focus()
        await pilot.press("enter")
        chooser: ChooserModal = await wait_for_screen(pilot, ChooserModal)
        rows = {row.text.split(" (#")[0]: row for row in chooser.shown}
        notes = {name: row.cells[-1] for name, row in rows.items()}
        assert (
            notes["café terminal setup"] == "not for compute/debian12: runs on compute/alpine3.20"
        )
        assert notes["Docker host"] == "" and notes["LAMP stack"] == ""
        # The mark is in the script's own cell (after the group), shown at every width.
        assert rows["café terminal setup"].cells[1].startswith("✗ ")
        assert rows["café terminal setup"].refused and not rows["Docker host"].refused
        await pilot.press("escape")
        await pilot.press("escape")
        await settle(pilot)


async def test_a_new_script_chooses_its_images_from_the_image_list() -> None:
    from textual.widgets import SelectionList

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        form: FormModal = await open_form(pilot, "deployscripts")
        model_form = form.model_form
        picks = model_form.widget_for("images")
        assert isinstance(picks, SelectionList)
        await wait_until(pilot, lambda: picks.option_count > 3)
        values = [picks.get_option_at_index(i).value for i in range(picks.option_count)]
        assert values[0] == "any/all" and "compute/debian12" in values
        assert "private/31004" not in values  # still pending upload: not deployable
        picks.focus()
        for _ in range(3):  # to the second row, from the keyboard
            if picks.highlighted == 1:
                break
            await pilot.press("down")
        await pilot.press("space")
        await pilot.pause()
        assert model_form.values()["images"] == [values[1]]
        # Ticked and unticked differ by shape (NO_COLOR users see them too).
        # (The highlighted row carries the cursor mark in front: "❯ ".)
        row = ["".join(s.text for s in picks.render_line(y))[2:] for y in range(3)]
        assert row[0].startswith("▐ ▌ ") and row[1].startswith("▐X▌ "), row
        model_form.set_value("label", "hello script")
        model_form.set_value("script", "#!/bin/sh\necho hello\n")
        await pilot.press("ctrl+s")
        await settle(pilot)
        store = app.state.session.simulator.store
        made = next(s for s in store.rows("deployscripts.scripts") if s["label"] == "hello script")
        assert made["images"] == [values[1]]
