"""``E``: objects edited as one TOML document in $EDITOR (a fake editor on PATH that edits the
file deterministically, run by run), checked, confirmed, checked against the server, sent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from screens.dialogs.confirm import ConfirmModal
from screens.editors.text_edit import ConflictModal
from tests.ui.actions.test_bulk_ui import mark
from tests.ui.fake_tools import given_texts, leftovers, make_step_editor
from tests.ui.helpers import make_app, open_area, settle, started, wait_for_screen, wait_until

DB, WEB, CI = 51200, 51201, 51205


@pytest.fixture
def editor(fake_bin: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """``fake_bin``, with ``$EDITOR`` the ``fake-editor`` there."""
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "fake-editor")
    return fake_bin


async def instance(app: Any, ident: int) -> dict[str, Any]:
    found: dict[str, Any] = await app.state.session.client.call(
        "compute.instances.view", {"computeId": ident}, model=dict
    )
    return found


def updates(app: Any) -> list[Any]:
    return [r for r in app.state.session.simulator.request_log if r == "compute.instances.update"]


@asynccontextmanager
async def on_instances() -> AsyncIterator[tuple[Any, Any, Any]]:
    """The demo app at 120x40 running hand-offs, on its instances: ``(app, pilot, pane)``."""
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        yield app, pilot, await open_area(pilot, "instances")


async def test_three_marked_instances_are_one_document_and_only_changed_fields_are_sent(
    editor: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, log_dir = editor
    async with on_instances() as (app, pilot, pane):
        labels = {i: (await instance(app, i))["label"] for i in (DB, WEB, CI)}
        make_step_editor(
            bin_dir,
            "fake-editor",
            log_dir,
            [
                [
                    (f'label = "{labels[DB]}"', 'label = "db-main"'),
                    (f'label = "{labels[CI]}"', 'label = "ci-main"'),
                    ("tags = [", 'tags = ["edited", '),
                ]
            ],
        )
        await mark(pilot, pane, str(DB), str(WEB), str(CI))
        await pilot.press("E")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        (given,) = given_texts(log_dir)
        assert given.count("[[instance]]") == 3
        assert [f"id = {i}" in given for i in (DB, WEB, CI)] == [True] * 3
        assert "# one of" in given  # each field's comment names its allowed values
        assert leftovers(tmp_path) == []  # the 0600 file is gone once the editor is done
        assert updates(app) == []  # nothing sent before the confirmation
        assert "2 instances" in confirm.title_text  # web is unchanged
        assert f'PUT /compute/instances/{DB} {{"label": "db-main"' in confirm.preview
        assert '"tags": ["edited"' in confirm.preview
        assert f"/compute/instances/{WEB} " not in confirm.preview  # unchanged: not sent

        await pilot.press("y")
        await wait_until(pilot, lambda: len(updates(app)) == 2)
        await settle(pilot)
        assert (await instance(app, DB))["label"] == "db-main"
        assert (await instance(app, CI))["label"] == "ci-main"
        assert (await instance(app, WEB))["label"] == labels[WEB]
        assert "2 instances changed." in app.notification_log[-1][1]


async def test_a_document_with_problems_reopens_with_them_written_in_and_sends_once_fixed(
    editor: tuple[Path, Path],
) -> None:
    bin_dir, log_dir = editor
    async with on_instances() as (app, pilot, pane):
        label = (await instance(app, WEB))["label"]
        make_step_editor(
            bin_dir,
            "fake-editor",
            log_dir,
            [
                [(f'label = "{label}"', 'label = "x"'), ("group = ", "colour = 3\ngroup = ")],
                [("colour = 3\n", "")],
                [('label = "x"', 'label = "web-renamed"')],
            ],
        )
        assert pane.table.move_cursor(str(WEB))
        await pilot.press("E")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        first, second, third = given_texts(log_dir)
        assert "\n# ! " not in first
        # Each time, the problems are written above the lines they concern.
        lines = second.splitlines()
        at = lines.index("colour = 3")
        assert lines[at - 1].startswith("# ! colour is not a field of this instance")
        lines = third.splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith('label = "x"'))
        assert lines[at - 1].startswith("# ! label") and "colour" not in third
        assert updates(app) == []
        assert '"label": "web-renamed"' in confirm.preview
        await pilot.press("y")
        await wait_until(pilot, lambda: len(updates(app)) == 1)
        await settle(pilot)
        assert (await instance(app, WEB))["label"] == "web-renamed"


async def test_no_change_or_an_empty_file_sends_nothing_and_says_so(
    editor: tuple[Path, Path],
) -> None:
    bin_dir, log_dir = editor
    async with on_instances() as (app, pilot, pane):
        make_step_editor(bin_dir, "fake-editor", log_dir, [[], None])
        assert pane.table.move_cursor(str(WEB))
        await pilot.press("E")
        await settle(pilot)
        assert "No changes: nothing was sent." in app.notification_log[-1][1]
        await pilot.press("E")
        await settle(pilot)
        assert "The file is empty: nothing was sent." in app.notification_log[-1][1]
        assert len(given_texts(log_dir)) == 2
        assert updates(app) == []


@asynccontextmanager
async def in_conflict(editor: tuple[Path, Path]) -> AsyncIterator[tuple[Any, Any, int]]:
    """Edit web's label; while the confirmation is up, someone else changes its label and
    group on the server; confirming shows the conflict: ``(app, pilot, updates sent before)``."""
    bin_dir, log_dir = editor
    async with on_instances() as (app, pilot, pane):
        label = (await instance(app, WEB))["label"]
        edit = [[(f'label = "{label}"', 'label = "mine"')]]
        make_step_editor(bin_dir, "fake-editor", log_dir, edit)
        assert pane.table.move_cursor(str(WEB))
        await pilot.press("E")
        await wait_for_screen(pilot, ConfirmModal)
        await app.state.session.client.call(
            "compute.instances.update",
            {"computeId": WEB},
            body={"label": "theirs", "group": "elsewhere"},
            model=dict,
        )
        sent_before = len(updates(app))
        await pilot.press("y")
        modal = await wait_for_screen(pilot, ConflictModal)
        assert len(updates(app)) == sent_before  # not sent
        text = str(modal.lines())
        assert 'server: label: "' in text and '-> "theirs"' in text
        assert 'yours:  label: "' in text and '-> "mine"' in text
        yield app, pilot, sent_before


async def test_a_conflict_is_not_sent_until_chosen_keep_mine_sends_mine(
    editor: tuple[Path, Path],
) -> None:
    async with in_conflict(editor) as (app, pilot, sent_before):
        await pilot.press("enter")  # the first choice: send mine
        await wait_until(pilot, lambda: len(updates(app)) == sent_before + 1)
        await settle(pilot)
        now = await instance(app, WEB)
        assert now["label"] == "mine" and now["group"] == "elsewhere"  # only my field sent


async def test_a_conflict_taken_theirs_or_cancelled_sends_nothing(
    editor: tuple[Path, Path],
) -> None:
    async with in_conflict(editor) as (app, pilot, sent_before):
        await pilot.press("down", "enter")  # keep the server's
        await settle(pilot)
        assert len(updates(app)) == sent_before
        assert (await instance(app, WEB))["label"] == "theirs"
        assert "nothing was sent" in app.notification_log[-1][1]


async def test_a_conflict_edited_again_reopens_on_the_servers_state_with_my_change(
    editor: tuple[Path, Path],
) -> None:
    async with in_conflict(editor) as (app, pilot, sent_before):
        await pilot.press("down", "down", "enter")  # edit again
        confirm = await wait_for_screen(pilot, ConfirmModal)
        reopened = given_texts(editor[1])[-1]
        assert 'label = "mine"' in reopened and 'group = "elsewhere"' in reopened
        assert "changed on the server while you edited" in reopened
        assert '"label": "mine"' in confirm.preview and "group" not in confirm.preview
        await pilot.press("y")
        await wait_until(pilot, lambda: len(updates(app)) == sent_before + 1)
        await settle(pilot)
        assert (await instance(app, WEB))["label"] == "mine"


async def test_e_on_the_detail_screen_edits_the_item_and_a_domain_keeps_its_zone_edit(
    editor: tuple[Path, Path],
) -> None:
    from screens.details.resource_detail import ResourceDetailScreen

    bin_dir, log_dir = editor
    async with on_instances() as (_app, pilot, pane):
        make_step_editor(bin_dir, "fake-editor", log_dir, [[]])
        assert pane.table.move_cursor(str(WEB))
        await pilot.press("enter")
        await wait_for_screen(pilot, ResourceDetailScreen)
        await settle(pilot)
        await pilot.press("E")
        await settle(pilot)
        (given,) = given_texts(log_dir)
        assert given.count("[[instance]]") == 1 and f"id = {WEB}" in given
        domains = await open_area(pilot, "domains")
        assert domains.check_action("edit_text", ()) is False  # its E is the zone edit


async def test_the_document_is_made_from_the_items_as_the_server_has_them_now(
    editor: tuple[Path, Path],
) -> None:
    bin_dir, log_dir = editor
    async with on_instances() as (app, pilot, pane):
        await app.state.session.client.call(
            "compute.instances.update", {"computeId": WEB}, body={"label": "fresh"}, model=dict
        )
        assert pane.items[str(WEB)]["label"] != "fresh"  # the list has not seen it yet
        make_step_editor(bin_dir, "fake-editor", log_dir, [[('label = "fresh"', 'label = "mine"')]])
        assert pane.table.move_cursor(str(WEB))
        await pilot.press("E")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert 'label: "fresh" -> "mine"' in confirm.preview
        await pilot.press("y")
        await settle(pilot)
        assert not isinstance(app.screen, ConflictModal)
        assert (await instance(app, WEB))["label"] == "mine"


async def test_a_domains_records_tab_leaves_e_to_the_domain() -> None:
    from textual.widgets import TabbedContent

    from screens.details.resource_detail import ResourceDetailScreen

    app = make_app()
    async with started(app, (120, 40)) as pilot:
        domains = await open_area(pilot, "domains")
        assert domains.table.move_cursor("128400")
        await pilot.press("enter")
        detail = await wait_for_screen(pilot, ResourceDetailScreen)
        await settle(pilot)
        index = next(i for i, c in enumerate(detail.resource.children) if c.title == "Records")
        detail.query_one("#detail-tabs", TabbedContent).active = f"tab-child-{index}"
        await settle(pilot)
        records = detail.query_one(f"#child-{index}")
        assert records.spec.id == "domains.records"
        assert records.check_action("edit_text", ()) is False
        instances = await open_area(pilot, "instances")
        assert instances.check_action("edit_text", ()) is True
