"""Every screen, on the hostile data set: nothing others wrote reaches the terminal raw.

The demo account of ``--demo-data hostile`` (:mod:`tui.simulator.hostile`) carries OSC 52, CSI,
BEL, C1 controls, bidirectional overrides, markup, a 500-character word and wide characters in
every text that other people write, and in the API's error messages. Each test opens screens
with it, keyboard first where a user would, and after each one checks what the app wrote to the
terminal (:mod:`tests.ui.terminal_output`): no control character from data, no widget that drew
one raw (editors of a raw value aside: the render filter shows theirs), no table row or title
taller than its line. The walk covers every area's lists (with their tabs), the detail of an
item with each of its tabs (its Relations tab too), every dialog an action opens and every
confirmation (a delete's with what it breaks), the palette, toasts, the watchlist, the activity
log, the overview, the account check and its dialogs, the ``:xray`` trees level by level, the
bucket browser and its object viewer, and local file names in the transfer dialogs; the
cross-account list, overview and check are walked against served hostile simulators in
``tests/integration/test_hostile_fanout.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import TabbedContent
from textual.worker import WorkerCancelled, WorkerFailed

from screens.actions.run import run_action
from screens.details.resource_detail import ResourceDetailScreen
from screens.dialogs.confirm import ConfirmModal
from screens.lists.list_pane import ResourceListPane
from screens.transfers.bucket_browser import BucketBrowserPane
from screens.transfers.dialogs import LocalPathModal, TextViewModal
from tests.ui.form_walk import Samples, dialog_actions, opened, wait_for
from tests.ui.helpers import make_app, no_sleep, open_area, settle, wait_for_screen, wait_until
from tests.ui.terminal_output import assert_clean, terminal
from tests.waits import WAIT_LIMIT
from tui.api.retry import RetryPolicy
from tui.resources.areas import AREA_BY_ID, AREAS, SPECS
from tui.resources.availability import UserContext, availability
from tui.session.config import RefreshSettings, Settings
from tui.session.runtime import Session
from tui.simulator import VirtualClock
from tui.untrusted import shown

__all__ = ["terminal"]  # the fixture, used by name

pytestmark = pytest.mark.longest

SIZE = (120, 40)
DIALOGS = dialog_actions()


def hostile_app() -> Any:
    """A demo app on the hostile data set, timers quiet, on a virtual clock."""
    session = Session.for_demo(
        Settings(
            refresh=RefreshSettings(fast=60, slow=3600, max_backoff=3600),
            start_area="instances",
        ),
        "unrestricted",
        clock=VirtualClock(),
        retry=RetryPolicy(sleep=no_sleep),
        hostile=True,
    )
    return make_app(session)


async def show_tabs(pilot: Pilot[Any], recorded: list[str], where: str) -> None:
    """Show each tab of the screen's tabbed content in turn, checking each."""
    app = pilot.app
    for tabs in list(app.screen.query(TabbedContent)):
        for pane in list(tabs.query("TabPane")):
            tabs.active = pane.id or ""
            await settle(pilot)
            assert_clean(app, recorded, f"{where}, tab {pane.id}")


async def open_first_item(pilot: Pilot[Any], pane: ResourceListPane) -> bool:
    """Enter on the list's first row; True when a detail screen opened."""
    if not pane.items:
        return False
    pane.table.focus()
    await pilot.press("home", "enter")
    await settle(pilot)
    return isinstance(pilot.app.screen, ResourceDetailScreen)


async def confirmations(
    pilot: Pilot[Any], samples: Samples, area: str, recorded: list[str]
) -> None:
    """Every plain confirmation (an action with no form) of the area's specs, opened on a
    hostile item and cancelled."""
    app = pilot.app
    host = app.screen
    seen: set[str] = set()
    for spec in SPECS.values():
        if spec.id not in AREA_SPECS[area]:
            continue
        for action in spec.actions:
            if action.form or action.screen or action.confirm == "none" or action.id in seen:
                continue
            seen.add(action.id)
            items, params = await samples.items(spec.id)
            usable = [i for i in items if availability(spec, action, i, UserContext())[0]]
            item = None if action.target == "collection" else (usable or [None])[0]
            if action.target != "collection" and item is None:
                continue
            worker = host.run_worker(
                run_action(host, spec, action, item, spec.params_for(item or {}, params)),
                group="walked-confirmation",
                exit_on_error=False,
            )
            await wait_for(
                pilot,
                lambda w=worker: isinstance(app.screen, ModalScreen) or w.is_finished,
                action.id,
            )
            if isinstance(app.screen, ConfirmModal):
                assert_clean(app, recorded, f"{spec.id}/{action.id} confirmation")
            # Cancel whatever the action opened (a confirmation, or a dialog of its own).
            while app.screen is not host and isinstance(app.screen, ModalScreen):
                top = app.screen
                await pilot.press("escape")
                await wait_for(pilot, lambda top=top: app.screen is not top, f"closing {top!r}")
            with contextlib.suppress(WorkerCancelled, WorkerFailed):  # cancelled: its answer
                await asyncio.wait_for(worker.wait(), WAIT_LIMIT)
            await settle(pilot)


def _area_specs() -> dict[str, set[str]]:
    from tui.resources.areas import AREA_OF_SPEC

    out: dict[str, set[str]] = {}
    for spec_id, area in AREA_OF_SPEC.items():
        out.setdefault(area, set()).add(spec_id)
    return out


AREA_SPECS = _area_specs()


@pytest.mark.parametrize("area", [a.id for a in AREAS])
async def test_an_area_its_details_dialogs_and_confirmations_draw_only_display_text(
    area: str, terminal: list[str]
) -> None:
    app = hostile_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert_clean(app, terminal, "start")
        app.go_to_area(area)
        await settle(pilot)
        assert_clean(app, terminal, f"{area} list")
        await show_tabs(pilot, terminal, f"{area} list")
        app.go_to_area(area, AREA_BY_ID[area].root)
        await settle(pilot)
        lists = list(app.screen.query("#pane-0").results(ResourceListPane))
        if lists and await open_first_item(pilot, lists[0]):
            assert_clean(app, terminal, f"{area} detail")
            await show_tabs(pilot, terminal, f"{area} detail")
            await pilot.press("escape")
            await settle(pilot)
        samples = Samples(app.state.session.client)
        for d in (d for d in DIALOGS if d.area == area):
            async with opened(pilot, samples, d):
                assert_clean(app, terminal, f"{d.name} dialog")
        await confirmations(pilot, samples, area, terminal)


async def test_palette_toasts_bookmarks_log_and_overview_draw_only_display_text(
    terminal: list[str],
) -> None:
    app = hostile_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "instances")
        # A toast naming the item (the bookmark), then the watchlist that lists it.
        await pilot.press("home", "b")
        await settle(pilot)
        assert app.notification_log and "Bookmarked" in app.notification_log[-1][1]
        assert_clean(app, terminal, "bookmark toast")
        app.go_to_area("watchlist")
        await settle(pilot)
        assert_clean(app, terminal, "watchlist")
        # The palette, searching labels.
        app.go_to_area("instances")
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"web")
        await settle(pilot)
        assert_clean(app, terminal, "palette")
        await pilot.press("escape")
        await settle(pilot)
        # A change that goes to the activity log with the item's label, and an API error toast
        # (the hostile server's own words).
        pane = app.screen.query_one("#pane-0", ResourceListPane)
        pane.table.focus()
        await pilot.press("home", "S")  # shut down: a plain confirmation
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert_clean(app, terminal, "shut down confirmation")
        await pilot.press("y")
        await settle(pilot)
        assert_clean(app, terminal, "after a shut down")
        app.go_to_area("log")
        await settle(pilot)
        assert_clean(app, terminal, "activity log")
        await pilot.press("enter")
        await settle(pilot)
        assert_clean(app, terminal, "activity log entry")
        await pilot.press("escape")
        app.go_to_area("overview")
        await settle(pilot)
        assert_clean(app, terminal, "overview")
        await pilot.press("c")
        await settle(pilot)
        assert_clean(app, terminal, "cost")
        assert confirm is not None


async def test_the_check_screen_and_its_dialogs_draw_only_display_text(
    terminal: list[str],
) -> None:
    from screens.dialogs.pick_one import PickOneModal
    from screens.home.check import CheckScreen
    from screens.home.check_dialogs import SilenceModal

    app = hostile_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        app.run_command("check")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, CheckScreen)
        await wait_until(pilot, lambda: screen.result is not None and not screen.checking)
        await settle(pilot)
        cells = [c for k in screen.table.keys for c in screen.table.row(k).cells]
        assert any("␛" in cell for cell in cells)  # hostile labels, shown as pictures
        assert_clean(app, terminal, "check")
        # Every row once, with the panel that explains it.
        for key in screen.table.keys:
            screen.table.move_cursor(key)
            await pilot.pause()
        await settle(pilot)
        assert_clean(app, terminal, "check, every row explained")
        # A rule's objects to pick from, a fix's confirmation, the silence's reason.
        several = next(
            k for k in screen.table.keys if k[0] == "rule" and len(screen.rule_findings(k[1])) > 1
        )
        screen.table.move_cursor(several)
        await pilot.press("enter")
        await wait_for_screen(pilot, PickOneModal)
        assert_clean(app, terminal, "check, a rule's objects")
        await pilot.press("escape")
        await settle(pilot)
        fixable = next(f for f in screen.findings.values() if f.requests)
        screen.table.move_cursor(("finding", fixable.id))
        await pilot.press("f")
        await wait_for_screen(pilot, ConfirmModal)
        assert_clean(app, terminal, "check, a fix's confirmation")
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("s")
        await wait_for_screen(pilot, SilenceModal)
        await pilot.press(*"on purpose", "enter")
        await settle(pilot)
        assert_clean(app, terminal, "check, silenced")
        await pilot.press("S")
        await settle(pilot)
        assert_clean(app, terminal, "check, the silences")


async def test_edit_as_text_conflicts_and_plugin_panels_draw_only_display_text(
    terminal: list[str],
) -> None:
    from screens.dialogs.confirm import ConfirmModal as Confirm
    from screens.editors.plugins import BackgroundRun, PluginOutputModal
    from screens.editors.text_edit import ConflictModal
    from tui.plugins.run import PluginCall
    from tui.plugins.settings import PluginSettings
    from tui.textedit.conflicts import Conflict
    from tui.textedit.review import EditPlan, EditRequest, FieldChange

    app = hostile_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "instances")
        first, second = list(pane.items.values())[:2]
        mine, theirs = pane.spec.label_of(first), pane.spec.label_of(second)
        # The edit's confirmation: the diff and the requests carry others' labels.
        change = FieldChange("label", mine, theirs)
        request = EditRequest(
            "1", mine, "compute.instances.update", "PUT", "/x", {}, {"label": theirs}, (change,)
        )
        app.push_screen(
            Confirm("Change?", "", shown("\n".join(EditPlan((request,)).preview()), lines=True))
        )
        await wait_for_screen(pilot, Confirm)
        assert_clean(app, terminal, "edit as text confirmation")
        await pilot.press("escape")
        # A conflict: the server's change beside the user's.
        app.push_screen(ConflictModal([Conflict("1", mine, False, (change,), (change,))]))
        await wait_for_screen(pilot, ConflictModal)
        assert_clean(app, terminal, "edit as text conflict")
        await pilot.press("escape")
        # A background plugin's panel: its title, command and output.
        plugin = PluginSettings(key="P", areas=["in"], title="Echo", command=["echo", "{label}"])
        run = BackgroundRun(PluginCall(plugin, ("echo", mine), {}, mine))
        run.add(f"{mine}\n{theirs}\n\x1b]52;c;aGk=\x07\x1b[2J done\n")
        app.push_screen(PluginOutputModal(run))
        await wait_for_screen(pilot, PluginOutputModal)
        assert_clean(app, terminal, "plugin output panel")
        run.ended(0)
        await settle(pilot)
        assert_clean(app, terminal, "plugin output panel, ended")


async def test_an_api_error_toast_draws_only_display_text(terminal: list[str]) -> None:
    app = hostile_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await open_area(pilot, "instances")
        from tui.api.errors import ApiError

        with pytest.raises(ApiError) as refused:
            await app.state.session.client.call(
                "compute.instances.view", {"computeId": 1}, model=dict
            )
        app.show_failure(refused.value)
        await settle(pilot)
        assert "␛]52" in app.notification_log[-1][1]  # the server's words, made visible
        assert_clean(app, terminal, "error toast")


async def test_bucket_browser_object_viewer_and_local_file_names(
    terminal: list[str], tmp_path: Path
) -> None:
    app = hostile_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        buckets = await open_area(pilot, "object_storage")
        site = next(k for k in buckets.table.keys if "cloudtui-site" in str(k))
        assert buckets.table.move_cursor(site)
        await pilot.press("enter")
        await settle(pilot)
        detail = app.screen
        detail.query_one("#detail-tabs", TabbedContent).active = "tab-child-0"  # Objects
        await settle(pilot)
        browser = detail.query_one("#child-0", BucketBrowserPane)
        await wait_until(pilot, lambda: browser.loaded)
        assert_clean(app, terminal, "bucket browser")
        readme = next(k for k in browser.table.keys if str(k).startswith("README.txt"))
        assert browser.table.move_cursor(readme)
        browser.table.focus()
        await pilot.press("v")
        view = await wait_for_screen(pilot, TextViewModal)
        assert "␛]52" in view.text  # the contents, made visible
        assert_clean(app, terminal, "object viewer")
        await pilot.press("escape")
        await settle(pilot)
        # Local names of files other people made (a download keeps an object's name).
        for name in ("report\x1b]52;c;aGk=\x07.txt", "clear\x1b[2J.txt", "evil\u202etxt.exe"):
            (tmp_path / name).write_text("x")
        app.push_screen(LocalPathModal("Upload from", f"{tmp_path}/", "existing"))
        await wait_for_screen(pilot, LocalPathModal)
        await pilot.press("tab")
        await settle(pilot)
        assert_clean(app, terminal, "local file names")


@pytest.mark.parametrize("word", ["clusters", "balancers", "instances"])
async def test_xray_trees_draw_only_display_text(word: str, terminal: list[str]) -> None:
    from screens.relations.xray import XrayScreen
    from screens.shell.command_line import run_command

    app = hostile_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        run_command(app, f"xray {word}")
        screen = await wait_for_screen(pilot, XrayScreen)
        await settle(pilot)
        await wait_until(pilot, lambda: screen.xray is not None)
        assert screen.xray is not None and screen.xray.roots, f"xray {word} is empty"
        assert_clean(app, terminal, f"xray {word}")
        screen.xray_tree.focus()
        # Open the first node of each level: the labels of every level are drawn.
        await pilot.press("down")
        for depth in range(3):
            await pilot.press("right")
            await settle(pilot)
            assert_clean(app, terminal, f"xray {word}, level {depth + 1} open")
            await pilot.press("down")


async def test_known_tags_completed_and_chosen_draw_only_display_text(
    terminal: list[str],
) -> None:
    from screens.actions.tag_prompt import TagPrompt
    from widgets.chooser_modal import ChooserModal

    app = hostile_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await open_area(pilot, "instances")
        await pilot.press("number_sign")
        prompt: TagPrompt = await wait_for_screen(pilot, TagPrompt)
        await wait_until(pilot, lambda: "known tags" in prompt.tag_input.known.note)
        await pilot.press(*"data")  # the hostile demo's tags with escapes start so
        await wait_until(pilot, lambda: "\x1b" in (prompt.tag_input.completion("data") or ""))
        await pilot.pause()
        assert_clean(app, terminal, "a tag completed")
        await pilot.press("right")
        assert "\x1b" in prompt.tag_input.value  # the tag as the account has it
        await pilot.pause()
        assert_clean(app, terminal, "a tag accepted")
        await pilot.press("ctrl+o")
        await wait_for_screen(pilot, ChooserModal)
        await pilot.pause()
        assert_clean(app, terminal, "the known tags chooser")
        await pilot.press("escape")
        await pilot.press("escape")
