"""Offered values in the UI: a new zone's form starts with the profile's email as its SOA
contact and offers the valid seconds; the values chosen reach the server (the demo simulator).
A record's form offers the valid TTLs and the one chosen is stored."""

from __future__ import annotations

from typing import Any

from tests.ui.actions.test_form_rules_ui import options_of, record_form, sent
from tests.ui.helpers import make_app, open_form, settle, wait_until
from tui.models.domains import RECORD_TTLS, ZONE_SECONDS


async def signed_in(pilot: Any) -> None:
    """Wait until the profile is loaded (what a new form's defaults come from)."""
    await settle(pilot)
    await wait_until(pilot, lambda: pilot.app.state.user_context is not None)


async def test_a_new_zone_starts_with_the_profiles_email_and_sends_the_seconds_chosen() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await signed_in(pilot)
        email = app.state.user_context.email
        assert email  # the demo profile has one
        modal = await open_form(pilot, "domains")
        form = modal.model_form
        form.set_value("type", "master")
        await pilot.pause()
        assert form.values()["soa_email"] == email
        assert tuple(await options_of(pilot, form, "ttl_sec")) == ZONE_SECONDS
        form.set_value("domain", "offered-values.example")
        form.set_value("ttl_sec", 3600)
        form.set_value("retry_sec", 7200)
        await pilot.press("ctrl+s")
        await sent(pilot, modal)
        zones = app.state.session.simulator.store.rows("domains.domains")
        zone = next(z for z in zones if z["domain"] == "offered-values.example")
        assert (zone["soa_email"], zone["ttl_sec"], zone["retry_sec"]) == (email, 3600, 7200)


async def test_a_record_sends_the_ttl_chosen_among_the_valid_ones() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await signed_in(pilot)
        modal = await record_form(pilot)
        form = modal.model_form
        form.set_value("type", "A")
        await pilot.pause()
        assert tuple(await options_of(pilot, form, "ttl_sec")) == RECORD_TTLS
        form.set_value("name", "offered")
        form.set_value("target", "203.0.113.9")
        form.set_value("ttl_sec", 604800)
        await pilot.press("ctrl+s")
        await sent(pilot, modal)
        records = app.state.session.simulator.store.rows("domains.records")
        record = next(r for r in records if r.get("name") == "offered")
        assert record["ttl_sec"] == 604800
