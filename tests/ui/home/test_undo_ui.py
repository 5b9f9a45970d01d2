"""Undo of an applied zone plan: its record changes are taken back together, last first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from screens.dialogs.confirm import ConfirmModal
from screens.editors.handoff import captured_runner
from screens.editors.zone_edit import ZonePlanModal
from screens.home.activity_log import ActivityLogScreen
from tests.ui.editors import test_editor_ui
from tests.ui.editors.test_editor_ui import DOMAIN, line_of, records
from tests.ui.fake_tools import make_fake
from tests.ui.helpers import make_app, open_area, settle, wait_for_screen, wait_until
from tui.dns.zone_text import render_zone_text

editor = test_editor_ui.editor


def shapes(found: dict[int, dict[str, Any]]) -> set[tuple[Any, ...]]:
    """The records without their ids (a recreated record has a new one)."""
    return {(r["type"], r["name"], r["target"], r["ttl_sec"]) for r in found.values()}


async def test_an_applied_zone_plan_is_undone_as_one_change(editor: tuple[Path, Path]) -> None:
    bin_dir, log_dir = editor
    app = make_app()
    app.handoff_runner = captured_runner
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        before = await records(app)
        text = render_zone_text("example.com", before.values())
        sip = line_of(text, 8630005)
        edits = [
            (sip, sip.replace("203.0.113.40", "203.0.113.41")),
            (line_of(text, 8630006) + "\n", ""),
            ("$ORIGIN example.com.\n", "$ORIGIN example.com.\nnew 300 IN A 198.51.100.9\n"),
        ]
        make_fake(bin_dir, "fake-editor", log_dir, edits=edits)
        pane = await open_area(pilot, "domains")
        assert pane.table.move_cursor(str(DOMAIN))
        await pilot.press("E")
        modal = await wait_for_screen(pilot, ZonePlanModal)
        await pilot.press("y")
        await wait_until(pilot, lambda: modal.state == "done")
        assert modal.applied == 3
        await pilot.press("escape")
        await settle(pilot)
        assert shapes(await records(app)) != shapes(before)

        app.go_to_area("log")
        await settle(pilot)
        log = app.screen
        assert isinstance(log, ActivityLogScreen)
        assert [log.table.cells_at(i)[-1] for i in range(3)] == ["u undoes"] * 3
        log.table.focus()
        await pilot.press("u")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert "(3 changes)" in confirm.shown_title
        methods = [line.split()[0] for line in confirm.preview.splitlines() if line[:1].isupper()]
        assert methods == ["DELETE", "PUT", "POST"]  # the create first, the delete last
        await pilot.press("y")
        await settle(pilot)
        assert shapes(await records(app)) == shapes(before)
        assert [log.table.cells_at(i)[-1] for i in range(3, 6)] == ["undone"] * 3


async def test_an_entry_opened_says_in_full_why_it_cannot_be_undone() -> None:
    from screens.home.activity_log import EntryScreen
    from tui.api.changes import ChangeEvent
    from tui.home.undo import NOT_DECLARED

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        path = "volumes/46000/resize"
        entry = app.state.activity.record(ChangeEvent("POST", path, True, target="pg-data"))
        app.state.undo_journal.note(
            "Resize volume pg-data", "volumes.some_irreversible", {}, {}, None, {}, entry=entry
        )
        app.go_to_area("log")
        await settle(pilot)
        log = app.screen
        assert isinstance(log, ActivityLogScreen)
        log.table.focus()
        await pilot.press("enter")
        opened = await wait_for_screen(pilot, EntryScreen)
        body = str(opened.query_one(".text-modal-body").render())
        assert f"cannot: {NOT_DECLARED}" in " ".join(body.split()), body
        await pilot.press("escape")
        await settle(pilot)
