"""What the user sees under faults: a change whose answer was lost, a stalled refresh, a form
that keeps its input, and an API that comes back by itself."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from screens.actions.form import FormModal
from screens.dialogs.confirm import ConfirmModal
from tests.ui.helpers import demo_session, make_app, open_area, settle, wait_for_screen, wait_until
from tui.api.retry import RetryPolicy
from tui.refresh import MAYBE_DONE
from tui.simulator.faults import LOSE, STALL
from widgets.status_bar import status_parts


def _select(pane: Any, label: str) -> Any:
    key = next(k for k, item in pane.items.items() if item.get("label") == label)
    pane.table.move_cursor(key)
    return key


async def test_a_plain_action_whose_answer_was_lost_says_maybe_and_refreshes() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        sim = app.state.session.simulator
        attached = next(v for v in pane.items.values() if v.get("compute_id"))
        key = _select(pane, attached["label"])
        await pilot.pause()
        sim.faults.fail_next("volumes.detach", 1, LOSE)
        lists_before = sim.request_log.count("volumes.list")
        await pilot.press("D")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        await settle(pilot)
        assert sim.request_log.count("volumes.detach") == 1  # never resent by itself
        said = " ".join(message for _title, message in app.notification_log)
        assert MAYBE_DONE in said.lower()
        # The list was fetched again and shows that the detach did happen.
        assert sim.request_log.count("volumes.list") > lists_before
        assert pane.items[key].get("compute_id") is None


async def test_a_form_whose_answer_was_lost_keeps_its_input_and_asks_before_resending() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        sim = app.state.session.simulator
        _select(pane, "cafe-media")
        await pilot.pause()
        await pilot.press("c")
        form = await wait_for_screen(pilot, FormModal)
        form.model_form.set_value("label", "cafe-media-copy")
        sim.faults.fail_next("volumes.clone", 1, LOSE)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: form.maybe_sent or isinstance(app.screen, ConfirmModal))
        if isinstance(app.screen, ConfirmModal):
            await pilot.press("y")  # a billed request shows its price first
        await wait_until(pilot, lambda: form.maybe_sent and not form.sending)
        await pilot.pause()
        assert app.screen is form
        assert form.model_form.values().get("label") == "cafe-media-copy"
        general = str(form.query_one("#form-general").content)
        assert MAYBE_DONE in general.lower()
        # Sending again asks first; saying no sends nothing.
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("escape")
        await wait_for_screen(pilot, FormModal)
        assert sim.request_log.count("volumes.clone") == 1
        await pilot.press("escape")
        await settle(pilot)
        labels = [v.get("label") for v in pane.items.values()]
        assert labels.count("cafe-media-copy") == 1  # the list shows it was carried out


async def test_a_stalled_refresh_is_retried_and_the_status_bar_says_so() -> None:
    session = demo_session()
    released = asyncio.Event()

    async def held(_seconds: float) -> None:
        await released.wait()

    session.client.retry = RetryPolicy(sleep=held)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        sim = app.state.session.simulator
        sim.faults.stall_seconds = 2.0
        session.client._http.timeout = httpx.Timeout(0.05)
        sim.faults.fail_next("volumes.list", 1, STALL)
        pane.refresh_now()
        await wait_until(pilot, lambda: app.state.api_health == "retrying")
        text = " ".join(t for t, _c in status_parts(app.state))
        assert "no answer in time: retrying GET /volumes" in text
        released.set()
        await settle(pilot)
        assert app.state.api_health == "online"
        assert not any("retrying" in t for t, _c in status_parts(app.state))


async def test_an_unknown_status_and_an_unknown_field_from_a_newer_api_are_shown() -> None:
    from screens.dialogs.json_view import JsonViewScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sim = app.state.session.simulator
        record = next(r for r in sim.store.rows("compute.instances") if r["label"] == "cafe-web")
        record["status"] = "teleporting"
        record["quantum_state"] = {"entangled": True}
        pane = await open_area(pilot, "instances")
        pane.refresh_now()
        await settle(pilot)
        key = _select(pane, "cafe-web")
        await pilot.pause()
        row = pane.table._data.rows[key]
        assert "◇ teleporting" in row.cells and row.tone == "neutral"
        await pilot.press("J")
        screen = await wait_for_screen(pilot, JsonViewScreen)
        assert '"quantum_state"' in screen.text and '"entangled": true' in screen.text
        await pilot.press("escape")
        await settle(pilot)
