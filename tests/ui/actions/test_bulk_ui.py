"""Marks, bulk actions, tags across kinds and the filter language, through the UI."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from screens.actions.bulk_progress import BulkProgressModal
from screens.actions.tag_prompt import TagPrompt
from screens.dialogs.confirm import ConfirmModal
from tests.ui.helpers import make_app, open_area, settle, started, wait_for_screen, wait_until
from tests.ui.keyboard import type_text


async def mark(pilot: Any, pane: Any, *keys: Hashable) -> None:
    """Mark the rows with ``keys`` by moving the cursor there and pressing space."""
    for key in keys:
        assert pane.table.move_cursor(key), key
        await pilot.press("space")
    await pilot.pause()


def footer_marked(pane: Any) -> str:
    return pane._bindings.key_to_bindings["ctrl+space"][0].description


async def finish_progress(pilot: Any) -> BulkProgressModal:
    modal = await wait_for_screen(pilot, BulkProgressModal)
    await wait_until(pilot, lambda: modal.summary is not None)
    return modal


async def test_bulk_reboot_skips_refused_reports_failed_and_keeps_it_marked() -> None:
    app = make_app()
    async with started(app) as pilot:
        pane = await open_area(pilot, "instances")
        sim = app.state.session.simulator
        # db-primary and web-prod-1 run; ci-runner-01 is offline (Reboot needs running).
        await mark(pilot, pane, "51200", "51201", "51205")
        assert footer_marked(pane) == "3 marked"
        assert "3 marked" in str(pane.query_one(".list-title").render())
        sim.faults.fail_next("compute.instances.reboot", 1, 500)

        await pilot.press("R")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert "3 marked instances" in confirm.title_text
        assert "1 skipped" in confirm.message
        assert "ci-runner-01 (id 51205): the instance is offline; needs running" in confirm.preview
        assert "db-primary (id 51200)" in confirm.preview
        assert sim.request_log.count("compute.instances.reboot") == 0
        await pilot.press("y")

        progress = await finish_progress(pilot)
        summary = progress.summary
        assert summary is not None
        assert (summary.done, summary.failed, summary.skipped) == (1, 1, 1)
        text = progress.text()
        assert "Injected failure" in text
        assert "1 done, 1 failed, 1 skipped" in text
        failed = [e.key for e in progress.items if e.state == "failed"]
        await pilot.press("enter")
        await settle(pilot)
        # The failed one and the skipped one stay marked; the rebooted one is unmarked.
        assert pane.table.marked == frozenset({*failed, "51205"})
        assert footer_marked(pane) == "2 marked"
        # The log holds handled requests: the faulted one never reached the handler.
        assert sim.request_log.count("compute.instances.reboot") == 1


async def test_bulk_delete_needs_the_typed_count() -> None:
    app = make_app()
    async with started(app) as pilot:
        pane = await open_area(pilot, "volumes")
        store = app.state.session.simulator.store
        await mark(pilot, pane, "46002", "46003")
        await pilot.press("d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.typed == "delete 2"
        await pilot.press(*"delete 1", "enter")
        await pilot.pause()
        assert app.screen is confirm  # the wrong count sends nothing
        assert store.get("volumes.volumes", 46002) is not None
        typed = confirm.query_one("#confirm-typed")
        typed.value = ""
        await pilot.press(*"delete 2", "enter")
        progress = await finish_progress(pilot)
        assert progress.summary is not None and progress.summary.done == 2
        await pilot.press("enter")
        await settle(pilot)
        remaining = {v["id"] for v in store.rows("volumes.volumes")}
        assert not {46002, 46003} & remaining or all(
            store.get("volumes.volumes", i)["status"] == "deleting" for i in (46002, 46003)
        )
        assert pane.table.marked == frozenset()


async def test_star_marks_only_the_rows_the_filter_shows() -> None:
    app = make_app()
    async with started(app) as pilot:
        pane = await open_area(pilot, "instances")
        await pilot.press("slash", *"web", "enter")
        await pilot.pause()
        shown = set(pane.table.keys)
        assert shown and len(shown) < len(pane.items)
        await pilot.press("asterisk")
        await pilot.pause()
        assert pane.table.marked == frozenset(shown)
        assert footer_marked(pane) == f"{len(shown)} marked"
        # Marks survive a refresh while their items exist.
        pane.refresh_now()
        await settle(pilot)
        assert pane.table.marked == frozenset(shown)
        await pilot.press("ctrl+@")
        await pilot.pause()
        assert pane.table.marked == frozenset()


async def test_filter_by_tag_and_status() -> None:
    app = make_app()
    async with started(app) as pilot:
        pane = await open_area(pilot, "instances")
        await pilot.press("slash")
        await type_text(pilot, "#production status:running")
        await pilot.press("enter")
        await wait_until(pilot, lambda: set(pane.table.keys) == {"51200", "51201", "51202"})
        assert "filter: #production status:running" in str(pane.query_one(".list-title").render())
        pane.filter_input.value = "#production web !label:web-prod-2"
        await wait_until(pilot, lambda: set(pane.table.keys) == {"51201"})
        pane.filter_input.value = "colour:red"
        await wait_until(pilot, lambda: pane.table.keys == [])
        assert "No instance has the field colour" in str(pane.query_one(".list-message").render())


async def _tag(pilot: Any, text: str, *, bulk: bool) -> None:
    await pilot.press("number_sign")
    prompt = await wait_for_screen(pilot, TagPrompt)
    prompt.query_one("#tag-input").value = text
    await pilot.press("enter")
    await wait_for_screen(pilot, ConfirmModal)
    await pilot.press("y")
    if bulk:
        await finish_progress(pilot)
        await pilot.press("enter")
    await settle(pilot)


async def test_tags_added_and_removed_across_an_instance_a_volume_and_a_domain() -> None:
    app = make_app()
    async with started(app) as pilot:
        store = app.state.session.simulator.store

        def tags(table: str, ident: int) -> list[str]:
            return list(store.get(table, ident)["tags"])

        pane = await open_area(pilot, "instances")
        await mark(pilot, pane, "51205", "51206")
        await _tag(pilot, "bulk-test", bulk=True)
        assert "bulk-test" in tags("compute.instances", 51205)
        assert tags("compute.instances", 51206) == ["bulk-test"]

        pane = await open_area(pilot, "volumes")
        await mark(pilot, pane, "46002")
        await _tag(pilot, "bulk-test", bulk=True)
        assert tags("volumes.volumes", 46002) == ["bulk-test"]
        # Unmarked: the tag action works on the row under the cursor.
        assert pane.table.marked == frozenset()
        pane.table.move_cursor("46002")  # space moved the cursor down
        await _tag(pilot, "-bulk-test", bulk=False)
        assert tags("volumes.volumes", 46002) == []

        pane = await open_area(pilot, "domains")
        await mark(pilot, pane, "128400", "128401")
        await pilot.press("number_sign")
        prompt = await wait_for_screen(pilot, TagPrompt)
        prompt.query_one("#tag-input").value = "-web"
        await pilot.press("enter")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        # staging.example.com does not carry it: skipped before anything is sent.
        assert "staging.example.com (id 128401): not tagged web" in confirm.preview
        await pilot.press("y")
        await finish_progress(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert tags("domains.domains", 128400) == ["production"]
        assert pane.table.marked == frozenset({"128401"})

        pane = await open_area(pilot, "instances")
        assert pane.table.marked == frozenset()  # done items were unmarked
        await mark(pilot, pane, "51205", "51206")
        await _tag(pilot, "-bulk-test", bulk=True)
        assert "bulk-test" not in tags("compute.instances", 51205)
        assert tags("compute.instances", 51206) == []


async def test_export_writes_the_visible_rows(tmp_path: Any) -> None:
    app = make_app()
    async with started(app) as pilot:
        pane = await open_area(pilot, "instances")
        await pilot.press("slash")
        await type_text(pilot, "#production")
        await pilot.press("enter")
        await pilot.pause()
        target = tmp_path / "prod.csv"
        await pilot.press("colon")
        await type_text(pilot, f"export csv visible {target}")
        await pilot.press("enter")
        await settle(pilot)
        lines = target.read_text().splitlines()
        assert lines[0].startswith("Label") or "Label" in lines[0]
        labels = {line.split(",")[0] for line in lines[1:]}
        assert len(lines) - 1 == len(pane.table.keys) == 3
        assert labels == {"db-primary", "web-prod-1", "web-prod-2"}


async def test_help_documents_the_filter_syntax() -> None:
    from screens.shell.help import HelpScreen

    app = make_app()
    async with started(app) as pilot:
        await open_area(pilot, "instances")
        await pilot.press("question_mark")
        help_screen = await wait_for_screen(pilot, HelpScreen)
        text = help_screen.text()
        assert "#tag" in text and "field:value" in text
        assert "table.mark_all" in text


async def test_a_tag_lists_its_objects_by_kind_and_enter_opens_one() -> None:
    from textual.widgets import TabbedContent

    from screens.details.resource_detail import ResourceDetailScreen
    from screens.lists.list_pane import ResourceListPane

    app = make_app()
    async with started(app, (120, 40)) as pilot:
        pane = await open_area(pilot, "tags")
        assert pane.table.move_cursor("production")
        await pilot.press("enter")
        screen = await wait_for_screen(pilot, ResourceDetailScreen)
        screen.query_one("#detail-tabs", TabbedContent).active = "tab-child-0"
        await settle(pilot)
        objects = screen.query_one("#child-0", ResourceListPane)
        objects.table.focus()
        kinds = [objects.items[k]["_kind"] for k in objects.table.keys]
        order = ["compute", "domain", "volume", "loadbalancer", "k8s_cluster"]
        assert kinds == sorted(kinds, key=order.index)
        # The clusters carrying the tag too, though the tag's listing leaves them out.
        assert {"compute", "domain", "volume", "k8s_cluster"} <= set(kinds)
        assert objects.table.move_cursor("volume:46000")
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, ResourceDetailScreen) and app.screen is not screen,
        )
        assert app.screen.resource.id == "volumes"
        assert app.screen.item["label"] == "pg-data"


async def test_another_screen_can_show_a_filtered_list() -> None:
    app = make_app()
    async with started(app) as pilot:
        pane = await open_area(pilot, "instances")
        pane.show_filter("status:offline")
        await pilot.pause()
        assert set(pane.table.keys) == {"51205"}
        assert pane.filter_input.value == "status:offline"
        assert not pane.filter_input.has_class("-hidden")


async def test_marked_items_without_a_grant_are_skipped_before_sending() -> None:
    from tests.ui.helpers import demo_session

    app = make_app(demo_session("restricted"))
    async with started(app) as pilot:
        pane = await open_area(pilot, "instances")
        await mark(pilot, pane, "51202", "51203")
        await pilot.press("R")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert "web-prod-2 (id 51202): you have only read_only access" in confirm.preview
        await pilot.press("y")
        progress = await finish_progress(pilot)
        assert progress.summary is not None
        assert (progress.summary.done, progress.summary.skipped) == (1, 1)
        await pilot.press("enter")
        await settle(pilot)
        assert app.state.session.simulator.request_log.count("compute.instances.reboot") == 1
        assert pane.table.marked == frozenset({"51202"})


def test_highlights_follow_the_terms() -> None:
    from screens.lists.filter import column_highlights
    from tui.resources.areas import SPECS
    from tui.resources.filter_query import parse

    spec = SPECS["compute.instances"]
    keys = [c.key for c in spec.columns]
    words = column_highlights(parse("web #production status:running !region:x"), spec)
    assert words[keys.index("label")] == ["web"]
    assert words[keys.index("tags")] == ["web", "production"]
    assert words[keys.index("status")] == ["web", "running"]
    assert words[keys.index("region")] == ["web"]


async def test_a_bulk_run_waits_out_rate_limiting() -> None:
    app = make_app()
    async with started(app) as pilot:
        pane = await open_area(pilot, "instances")
        sim = app.state.session.simulator
        await mark(pilot, pane, "51206", "51207")
        # More 429s than the two requests' own retries absorb (4 tries each): the run itself
        # waits (Retry-After 1 s) and tries again.
        sim.faults.fail_next("compute.instances.shutdown", 9, 429)
        await pilot.press("S")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        progress = await finish_progress(pilot)
        assert progress.summary is not None
        assert (progress.summary.done, progress.summary.failed) == (2, 0)
        assert progress.run is not None and progress.run.rate_waits >= 1
        await pilot.press("enter")
        await settle(pilot)
        assert sim.request_log.count("compute.instances.shutdown") == 2


async def test_the_same_set_is_marked_again_with_one_key_for_the_next_action() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "instances")
        sim = app.state.session.simulator
        assert pane.check_action("mark_again", ()) is False  # no run yet
        await mark(pilot, pane, "51200", "51201")
        await pilot.press("R")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        progress = await finish_progress(pilot)
        assert progress.summary is not None and progress.summary.done == 2
        await pilot.press("enter")
        await settle(pilot)
        assert pane.table.marked == frozenset()
        assert pane.check_action("mark_again", ()) is True  # offered in the footer
        await pilot.press("M")
        await pilot.pause()
        assert pane.table.marked == frozenset({"51200", "51201"})
        assert pane.check_action("mark_again", ()) is False  # already marked

        await pilot.press("d")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert confirm.typed == "delete 2"
        await pilot.press(*"delete", "enter")
        await pilot.pause()
        hint = str(confirm.query_one("#confirm-hint").render())
        assert "Type delete 2 exactly" in hint and "label" not in hint
        confirm.query_one("#confirm-typed").value = ""  # type: ignore[attr-defined]
        await pilot.press(*"delete 2", "enter")
        progress = await finish_progress(pilot)
        assert progress.summary is not None and progress.summary.done == 2
        await pilot.press("enter")
        await settle(pilot)
        assert sim.request_log.count("compute.instances.delete") == 2
