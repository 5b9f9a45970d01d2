"""Every field of every dialog can be seen while it has focus, at 80x24 and 120x40.

For each area one app opens, in turn, every dialog its resources' actions open (see
:mod:`tests.ui.form_walk`), widens it to as many inputs as it can show, and presses tab once
round all of it at one size, then again after resizing the terminal to the other: after each
key the focused widget must lie on screen and inside every container that clips it
(:func:`tests.ui.visibility.assert_focus_visible`). The choosers a form opens are walked the
same way. Each dialog is built once and walked at both sizes; the sizes alternate so both
orders occur. Dialogs opened by other flows than a spec action (transfers, the hand-off address
picker, a typed confirmation with a long request, the reason of a check's silence) are pushed
alone and walked the same way; so is the ``:check`` screen, with its findings and its silences.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from screens.actions.form import FormModal
from screens.dialogs.confirm import ConfirmModal
from screens.editors.handoff import AddressModal
from screens.editors.plugins import BackgroundRun, PluginOutputModal
from screens.editors.text_edit import ConflictModal as EditConflictModal
from screens.home.check_dialogs import SilenceModal
from screens.transfers.dialogs import ConflictModal, LocalPathModal, ShareModal
from tests.ui.form_walk import (
    DialogAction,
    Samples,
    dialog_actions,
    opened,
    quiet,
    unknown_screens,
    wait_for,
    widen,
)
from tests.ui.helpers import make_app, settle, wait_for_screen
from tests.ui.visibility import (
    assert_focus_visible,
    assert_label_visible,
    press_and_settle,
    settle_view,
)
from widgets.chooser_field import ChooserSelect
from widgets.chooser_modal import ChooserModal

# A quarter of the suite's time in 14 tests of up to half a minute: started last, they decided
# when the run ended (see tests/conftest.py).
pytestmark = pytest.mark.longest

SIZES = ((80, 24), (120, 40))

ACTIONS = dialog_actions()
AREAS_WITH_DIALOGS = sorted({d.area for d in ACTIONS})


async def walk(pilot: Pilot[Any], dialog: Any, context: str) -> None:
    """Tab once round ``dialog``'s focus chain, checking the focus can be seen after each key."""
    for step in range(len(dialog.focus_chain) + 1):
        await press_and_settle(pilot, "tab")
        where = f"{context}, tab {step + 1}"
        assert_focus_visible(pilot.app, where)
        assert_label_visible(pilot.app, where)


async def walk_both_sizes(pilot: Pilot[Any], dialog: Any, context: str) -> None:
    """Walk ``dialog`` at the terminal's size, then at the other one (left resized)."""
    size = pilot.app.size
    await settle_view(pilot)
    assert_focus_visible(pilot.app, f"{context} at {size.width}x{size.height}, as opened")
    for width, height in sorted(SIZES, key=lambda s: s != (size.width, size.height)):
        if (width, height) != (pilot.app.size.width, pilot.app.size.height):
            await pilot.resize_terminal(width, height)
        await walk(pilot, dialog, f"{context} at {width}x{height}")


async def walk_choosers(
    pilot: Pilot[Any], modal: FormModal, context: str, walked: set[Any]
) -> None:
    """Open each chooser of the form with enter and walk it (once per source of choices: the
    eight disk slots of a configuration profile show one chooser)."""
    form = modal.model_form
    for field in list(modal.query(ChooserSelect)):
        source = next(
            (f.source for f in form.form.fields if form.id_of(f.name) == field.id and f.source),
            None,
        )
        key = source.key if source is not None else field.id
        if not field.display or field.table is None or key in walked:
            continue
        walked.add(key)
        field.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChooserModal), "a chooser")
        chooser = pilot.app.screen
        await walk_both_sizes(pilot, chooser, f"{context}, chooser of {field.id}")
        await pilot.press("escape")
        await wait_for(pilot, lambda chooser=chooser: pilot.app.screen is not chooser, "closing")
        await quiet(pilot, modal)


async def walk_action(
    pilot: Pilot[Any], samples: Samples, d: DialogAction, choosers: set[Any]
) -> None:
    async with opened(pilot, samples, d) as dialog:
        if isinstance(dialog, FormModal):
            await widen(pilot, dialog)
        await walk_both_sizes(pilot, dialog, d.name)
        if isinstance(dialog, FormModal):
            await walk_choosers(pilot, dialog, d.name, choosers)


def test_every_action_flow_is_walked_or_says_why_not() -> None:
    assert not unknown_screens(), "add the flow's dialog to form_walk or to NO_INPUT_DIALOG"
    assert len(ACTIONS) > 50


@pytest.mark.parametrize("area", AREAS_WITH_DIALOGS)
async def test_every_dialog_field_is_visible_when_focused(area: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot, rounds=1)
        samples = Samples(app.state.session.client)
        choosers: set[Any] = set()
        for d in (d for d in ACTIONS if d.area == area):
            await walk_action(pilot, samples, d, choosers)


async def _no_url(_seconds: int) -> str:
    return "https://example.invalid/shared"


def lone_dialogs(tmp_path: Path) -> list[Any]:
    """Dialogs with inputs that no spec action opens directly."""
    many = "\n".join(f"  DELETE /volumes/{n}" for n in range(60))
    return [
        LocalPathModal("Download 3 objects to", str(tmp_path), "directory"),
        ConflictModal(tmp_path / "report.csv"),
        ShareModal("reports/2026/summary.csv", _no_url),
        AddressModal(
            "ssh root@ which address of web-1?", [("private", f"10.0.0.{n}") for n in range(30)]
        ),
        ConfirmModal("Delete 60 volumes", "They go for good.", many, typed="60 volumes"),
        SilenceModal('Silence "Volume not attached" on archive_2024'),
        # A delete's impact with the clean-up it offers: a tick between preview and input.
        ConfirmModal(
            "Delete instance web-1",
            "It breaks 60 things (listed below); 60 clean-up requests offered.",
            many,
            typed="web-1",
            option="Clean up too: send the 60 requests listed at the end once it succeeded",
        ),
        EditConflictModal([_conflict(n) for n in range(12)]),
        PluginOutputModal(_background_run()),
    ]


def _conflict(n: int) -> Any:
    from tui.textedit.conflicts import Conflict
    from tui.textedit.review import FieldChange

    change = FieldChange("label", f"web-{n}", f"web-{n}-theirs")
    return Conflict(str(n), f"web-{n}", False, (change,), (change,))


def _background_run() -> BackgroundRun:
    from tui.plugins.run import PluginCall
    from tui.plugins.settings import PluginSettings

    plugin = PluginSettings(key="P", areas=["in"], title="Ping", command=["ping", "{ipv4}"])
    run = BackgroundRun(PluginCall(plugin, ("ping", "192.0.2.1"), {}, "web-1"))
    run.add("".join(f"64 bytes from 192.0.2.1: icmp_seq={n}\n" for n in range(200)))
    return run


async def test_dialogs_opened_outside_spec_actions_keep_the_focus_in_sight(tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot, rounds=1)
        for dialog in lone_dialogs(tmp_path):
            app.push_screen(dialog)
            await wait_for_screen(pilot, type(dialog))
            await walk_both_sizes(pilot, dialog, type(dialog).__name__)
            dialog.dismiss(None)
            await wait_for(pilot, lambda dialog=dialog: app.screen is not dialog, "closing")


async def test_the_check_screen_keeps_the_focus_in_sight() -> None:
    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot)
        app.run_command("check")
        await settle(pilot)
        screen = app.screen
        assert type(screen).__name__ == "CheckScreen"
        await walk_both_sizes(pilot, screen, "CheckScreen")
        await pilot.press("S")  # the silences, in the same table
        await walk_both_sizes(pilot, screen, "CheckScreen, silences")


async def keys_in_sight(pilot: Pilot[Any], keys: tuple[str, ...], where: str) -> None:
    """Press ``keys`` at each size in turn, the focus in sight after each."""
    app = pilot.app
    for width, height in (*SIZES, SIZES[0]):
        await pilot.resize_terminal(width, height)
        await settle_view(pilot)
        assert_focus_visible(app, f"{where} at {width}x{height}")
        for key in keys:
            await press_and_settle(pilot, key)
            await settle(pilot)
            assert_focus_visible(app, f"{where} at {width}x{height} after {key}")


async def test_the_relations_tab_and_the_xray_tree_keep_the_focus_in_sight() -> None:
    from textual.widgets import DataTable, TabbedContent

    from screens.lists.list_pane import ResourceListPane
    from screens.relations.tab import RelationsPane
    from screens.relations.xray import XrayScreen
    from screens.shell.command_line import run_command
    from tests.ui.helpers import wait_until

    app = make_app()
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot)
        app.go_to_area("instances")
        await settle(pilot)
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        assert pane.table.move_cursor("51201")
        pane.table.focus()
        await pilot.press("enter")
        await settle(pilot)
        app.screen.query_one("#detail-tabs", TabbedContent).active = "tab-relations"
        await settle(pilot)
        relations = app.screen.query_one(RelationsPane)
        await wait_until(pilot, lambda: relations.loaded)
        relations.query_one(DataTable).focus()
        await keys_in_sight(pilot, ("end", "home"), "the Relations tab")
        run_command(app, "xray balancers")
        xray = await wait_for_screen(pilot, XrayScreen)
        await settle(pilot)
        xray.xray_tree.focus()
        await keys_in_sight(pilot, ("down", "right", "down", "space", "end"), "xray balancers")
