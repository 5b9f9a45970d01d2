"""Kubernetes upgrades: one minor version up, confirmed, then the node recycle offered."""

from __future__ import annotations

from screens.actions.form import FormModal
from screens.dialogs.confirm import ConfirmModal
from tests.ui.details.test_resource_detail import open_item
from tests.ui.helpers import make_app, settle, wait_for_screen, wait_until


def _cluster_id(app: object, label: str) -> str:
    rows = app.state.session.simulator.store.rows("k8s.clusters")  # type: ignore[attr-defined]
    return str(next(r["id"] for r in rows if r["label"] == label))


async def test_upgrade_offers_only_the_next_minor_confirms_and_offers_the_recycle() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_item(pilot, "k8s", _cluster_id(app, "zürich-staging"))
        assert screen.item["k8s_version"] == "1.30"
        await pilot.press("e")
        form = await wait_for_screen(pilot, FormModal)
        select = form.model_form.widget_for("k8s_version")
        await wait_until(pilot, lambda: len(select._options) > 1)  # type: ignore[attr-defined]
        offered = [v for _t, v in select._options if isinstance(v, str)]  # type: ignore[attr-defined]
        assert offered == ["1.30", "1.31"]  # the current one (unchanged) and the next minor
        select.value = "1.31"
        await pilot.press("ctrl+s")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert "upgraded to Kubernetes 1.31" in confirm.message
        assert "keep their old version until they are recycled" in confirm.message
        log = app.state.session.simulator.request_log
        assert "k8s.clusters.update" not in log  # nothing sent before the confirmation
        await pilot.press("y")
        recycle = await wait_for_screen(pilot, ConfirmModal)
        assert recycle is not confirm
        assert "Recycle all nodes" in recycle.title_text
        assert "keep the old one until they are recycled" in recycle.message
        await pilot.press("y")
        await settle(pilot)
        assert "k8s.clusters.update" in log and "k8s.clusters.recycle" in log
        assert screen.item["k8s_version"] == "1.31"


async def test_an_edit_without_a_version_change_asks_nothing_more() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await open_item(pilot, "k8s", _cluster_id(app, "zürich-staging"))
        await pilot.press("e")
        form = await wait_for_screen(pilot, FormModal)
        form.model_form.widget_for("label").value = "zurich-staging"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, (FormModal, ConfirmModal))
        log = app.state.session.simulator.request_log
        assert "k8s.clusters.update" in log and "k8s.clusters.recycle" not in log
