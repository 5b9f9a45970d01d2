"""The ``:check`` screen against the demo: findings grouped by severity with the saving, each
fix sending the request the API reference describes, silences kept per profile, and the
overview's count."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from textual.widgets import Input

from screens.app_surface import Change
from screens.details.resource_detail import ResourceDetailScreen
from screens.dialogs.confirm import ConfirmModal
from screens.dialogs.pick_one import PickOneModal
from screens.home.check import CheckScreen
from screens.home.check_dialogs import SilenceModal
from screens.home.overview import OverviewScreen
from tests.ui.helpers import demo_session, make_app, settle, wait_for_screen, wait_until
from tui.check.gather import LISTINGS
from tui.check.model import Severity
from tui.check.rules import BY_ID, RULES
from tui.check.run import check_account
from tui.check.silences import Silences
from tui.home.overview import SOURCES

SEVERITY_OF_WORD = {
    "✖ error": Severity.ERROR,
    "▲ warning": Severity.WARNING,
    "· info": Severity.INFO,
}


async def open_check(pilot: Any) -> CheckScreen:
    """``:check``, waited for until its first check is drawn."""
    pilot.app.run_command("check")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, CheckScreen)
    await wait_until(pilot, lambda: screen.result is not None and not screen.checking)
    await settle(pilot)
    return screen


def title(screen: CheckScreen) -> str:
    return str(screen.query_one("#check-title").render())


def put_cursor(screen: CheckScreen, rule_id: str, accept: Callable[[Any], bool]) -> Any:
    """Move the cursor to the first finding of ``rule_id`` whose object ``accept`` takes."""
    finding = next(
        f for f in screen.findings.values() if f.rule.id == rule_id and accept(f.subject.item)
    )
    assert screen.table.move_cursor(("finding", finding.id))
    return finding


def record_requests(session: Any) -> list[tuple[str, str, Any]]:
    """Every request the session's client sends from now on: (method, path, JSON body)."""
    sent: list[tuple[str, str, Any]] = []

    async def hook(request: httpx.Request) -> None:
        body = json.loads(request.content) if request.content else None
        sent.append((request.method, request.url.path, body))

    session.client._http.event_hooks["request"].append(hook)
    return sent


def assert_grouped(screen: CheckScreen) -> None:
    """Each rule's row comes first, then one row per object it found."""
    current_rule = None
    for key in screen.table.keys:
        if key[0] == "rule":
            current_rule = key[1]
        else:
            assert screen.findings[key[1]].rule.id == current_rule


async def test_findings_are_grouped_by_severity_with_the_monthly_saving() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_check(pilot)
        table = screen.table
        rows = [(key, table.row(key).cells) for key in table.keys]
        severities = [SEVERITY_OF_WORD[cells[0]] for _key, cells in rows]
        assert severities == sorted(severities, reverse=True)
        assert set(severities) == set(Severity)
        assert_grouped(screen)
        assert {key[1] for key, _cells in rows if key[0] == "rule"} == set(BY_ID)
        # Sorted by a column (the objects' labels, then their savings), the groups hold.
        await pilot.press("o", "o")
        assert table.sort_state == (1, False)
        assert_grouped(screen)
        await pilot.press("o")
        assert_grouped(screen)
        # The one priced waste of the demo: ci-runner-01 (ded-8) powered off for 12 days.
        assert "saving ≈ $144.00/month" in title(screen)
        assert "error" in title(screen) and "warning" in title(screen)


async def test_enter_opens_the_object_or_a_list_of_the_rules_objects() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_check(pilot)
        finding = put_cursor(screen, "instance-powered-off", lambda _i: True)
        await pilot.press("enter")
        detail = await wait_for_screen(pilot, ResourceDetailScreen)
        assert detail.item["id"] == finding.subject.item["id"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen)
        assert screen.table.move_cursor(("rule", "volume-unattached"))
        await pilot.press("enter")
        picker = await wait_for_screen(pilot, PickOneModal)
        volumes = [f for f in screen.findings.values() if f.rule.id == "volume-unattached"]
        assert len(picker.options) == len(volumes) > 1
        await pilot.press("enter")
        detail = await wait_for_screen(pilot, ResourceDetailScreen)
        assert detail.resource.id == "volumes"


def open_range(item: Any) -> list[str]:
    return [e for e in item["allow_list"] if e not in ("0.0.0.0/0", "::/0")]


FIXES: list[tuple[str, Callable[[Any], bool], Callable[[Any], tuple[str, str, Any]]]] = [
    # DELETE /volumes/{volumeId}: an unattached volume needs no detach first.
    (
        "volume-unattached",
        lambda v: v.get("status") != "migrating",
        lambda v: ("DELETE", f"/volumes/{v['id']}", None),
    ),
    # PUT /databases/{engine}/instances/{instanceId}: the whole allow list, less the open range.
    (
        "database-open-to-all",
        lambda _d: True,
        lambda d: (
            "PUT",
            f"/databases/{d['engine']}/instances/{d['id']}",
            {"allow_list": open_range(d)},
        ),
    ),
    # DELETE /domains/{domainId}/records/{recordId}.
    (
        "dns-record-dangling",
        lambda _r: True,
        lambda r: ("DELETE", f"/domains/{r['_parent']['domainId']}/records/{r['id']}", None),
    ),
    # DELETE /compute/instances/{computeId}.
    (
        "instance-powered-off",
        lambda _i: True,
        lambda i: ("DELETE", f"/compute/instances/{i['id']}", None),
    ),
]


@pytest.mark.parametrize(("rule_id", "accept", "expected"), FIXES, ids=[f[0] for f in FIXES])
async def test_a_fix_sends_the_request_of_the_reference_and_the_finding_goes(
    rule_id: str,
    accept: Callable[[Any], bool],
    expected: Callable[[Any], tuple[str, str, Any]],
) -> None:
    session = demo_session()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_check(pilot)
        assert session.simulator is not None
        before = sum(f.saving or 0.0 for f in screen.findings.values())
        finding = put_cursor(screen, rule_id, accept)
        method, path, body = expected(finding.subject.item)
        sent = record_requests(session)
        await pilot.press("f")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert f"{method} " in confirm.preview and path in confirm.preview
        if confirm.typed is not None:
            confirm.query_one("#confirm-typed", Input).value = confirm.typed
            await pilot.press("enter")
        else:
            await pilot.press("y")
        await wait_until(pilot, lambda: screen.runs > 1 and not screen.checking)
        await settle(pilot)
        writes = [(m, p, b) for m, p, b in sent if m != "GET"]
        assert len(writes) == 1
        sent_method, sent_path, sent_body = writes[0]
        assert (sent_method, sent_body) == (method, body)
        assert sent_path.endswith(path)
        assert finding.id not in screen.findings
        # Noted for the activity log's undo, as any change sent from the app.
        noted = [c.title for c in app.state.undo_journal.changes]
        assert noted == [f"{finding.rule.fix.title}: {finding.subject.label}"]
        after = sum(f.saving or 0.0 for f in screen.findings.values())
        assert before - after == pytest.approx(finding.saving or 0.0)
        if finding.saving:
            assert "saving ≈ $0.00/month" in title(screen)


async def test_a_fix_is_not_sent_when_the_confirmation_is_cancelled() -> None:
    session = demo_session()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_check(pilot)
        finding = put_cursor(screen, "k8s-upgrade-available", lambda _c: True)
        sent = record_requests(session)
        await pilot.press("f")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("n")
        await settle(pilot)
        assert [s for s in sent if s[0] != "GET"] == []
        assert finding.id in screen.findings


async def test_silence_list_and_unsilence_are_kept_for_the_profile() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_check(pilot)
        finding = put_cursor(screen, "image-expiring", lambda _i: True)
        await pilot.press("s")
        dialog = await wait_for_screen(pilot, SilenceModal)
        await pilot.press("enter")  # no reason: refused
        await settle(pilot)
        assert app.screen is dialog
        await pilot.press(*"kept for the audit")
        await pilot.press("enter")
        await settle(pilot)
        assert finding.id not in screen.findings
        assert "1 silenced" in title(screen)
        path = app.state.check_silences.path
        # Kept on disk for this profile: a new reader of the file knows it.
        assert Silences("DEMO", folder=path.parent).reason_for(finding.id) == "kept for the audit"
        # A new check leaves it silenced.
        screen.refresh_all()
        await wait_until(pilot, lambda: not screen.checking)
        assert finding.id not in screen.findings
        assert [f.id for f in screen.result.silenced] == [finding.id]
        # Listed, then heard of again.
        await pilot.press("S")
        await settle(pilot)
        assert screen.table.keys == [("silence", finding.id)]
        cells = screen.table.row(("silence", finding.id)).cells
        assert cells[0] == "image-expiring" and cells[2] == "kept for the audit"
        await pilot.press("u")
        await settle(pilot)
        assert screen.table.keys == []
        assert Silences("DEMO", folder=path.parent).entries() == []
        await pilot.press("S")
        await settle(pilot)
        assert finding.id in screen.findings
        assert ("finding", finding.id) in screen.table.keys


async def test_the_overview_counts_the_findings_of_the_lists_it_shows() -> None:
    session = demo_session(start_area="overview")
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        await wait_until(pilot, lambda: screen.check is not None)
        await settle(pilot)
        # Independently: the rules whose every listing the overview loads, run headless.
        rules = [r for r in RULES if all(n in SOURCES and n in LISTINGS for n in r.needs)]
        expected = await check_account(
            session.client,
            name="DEMO",
            now=app.state.now(),
            important_tags=session.settings.check.important_tags,
            rules=rules,
        )
        assert 0 < len(expected.findings) < len(RULES)
        shown = str(screen.query_one("#ov-check").render())
        for severity in Severity:
            count = expected.count(severity)
            word = severity.word + ("" if count == 1 or severity is Severity.INFO else "s")
            assert f"{count} {word}" in shown
        assert "saving ≈ $144.00/month" in shown
        assert f"{len(RULES) - len(rules)} rules need more lists" in shown


async def test_a_change_sent_elsewhere_is_checked_again_when_the_check_is_shown() -> None:
    session = demo_session()
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_check(pilot)
        finding = put_cursor(screen, "domain-without-records", lambda _d: True)
        app.go_to_area("volumes")
        await settle(pilot)
        # Another screen deletes the domain, and says so as every change does.
        await session.client.call("domains.delete", finding.subject.params, model=dict)
        app.change_signal.publish(Change())
        runs = screen.runs
        app.go_to_area("check")
        await wait_until(pilot, lambda: screen.runs > runs and not screen.checking)
        await settle(pilot)
        assert finding.id not in screen.findings
