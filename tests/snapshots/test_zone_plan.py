"""The zone plan dialog at 80x24: one line per record, long lines wrapped, errors listed."""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from screens.editors.zone_edit import ZonePlanModal
from tests.snapshots.test_screens import goto, modal_picture
from tests.ui.helpers import make_app, wait_for_screen
from tui.dns.zone_plan import Change, plan_zone

RECORDS = [
    {"id": 1, "type": "A", "name": "www", "target": "203.0.113.10", "ttl_sec": 3600},
    {"id": 2, "type": "NS", "name": "eu", "target": "ns1.eu.example.net", "ttl_sec": 86400},
]

TEXT = """$ORIGIN example.com.
www 300 IN A 203.0.113.11 ; id 1
new IN A 198.51.100.9
dkim._domainkey IN TXT "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwq0lkmq5fV9lPzJlTNx8eTUG8sz1Lc3kPqDi"
host IN HINFO pc linux
"""


async def never(_change: Change) -> str | None:
    raise AssertionError("nothing is sent by a picture")


async def test_zone_plan_80x24(svg_snapshot: SnapshotAssertion) -> None:
    plan = plan_zone("example.com", RECORDS, TEXT)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await goto(pilot, "domains")
        app.push_screen(ZonePlanModal("example.com", plan, never))
        await wait_for_screen(pilot, ZonePlanModal)
        assert await modal_picture(pilot) == svg_snapshot
