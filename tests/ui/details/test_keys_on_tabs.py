"""Keys that once did nothing on a detail screen: ``E`` on a domain's Records and Zone file
tabs edits the zone, ``h`` on a node pool runs k9s on its cluster, ``ctrl+d``/``ctrl+u``
scroll a detail's page."""

from __future__ import annotations

from pathlib import Path

import pytest

from screens.lists.pane import RefreshingPane
from tests.ui.details.test_resource_detail import open_item
from tests.ui.fake_tools import make_fake, record
from tests.ui.helpers import make_app, settle, started, wait_until
from widgets.detail_panel import DetailPanel

DOMAIN = "128400"


@pytest.fixture
def fakes(
    fake_bin: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    """``fake_bin``, with HOME the test's own and ``$EDITOR`` a fake editor."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "fake-editor")
    return fake_bin


async def test_the_zone_edit_works_from_the_records_and_zone_file_tabs(
    fakes: tuple[Path, Path],
) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "fake-editor", log_dir)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        screen = await open_item(pilot, "domains", DOMAIN)
        tabs = screen.query_one("#detail-tabs")
        for index, child in enumerate(screen.resource.children):
            tabs.active = f"tab-child-{index}"  # type: ignore[attr-defined]
            await settle(pilot)
            screen.query_one(f"#child-{index}", RefreshingPane).focus_main()
            await pilot.pause()
            assert screen._in_child_pane()
            ran = log_dir / "fake-editor.json"
            ran.unlink(missing_ok=True)
            await pilot.press("E")
            await settle(pilot)
            assert ran.exists(), f"E did not edit the zone from the {child.title} tab"
            assert record(log_dir, "fake-editor")["argv"][1].endswith("example.com.zone")
            assert app.screen is screen


async def test_h_on_a_node_pool_runs_k9s_on_its_cluster(fakes: tuple[Path, Path]) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "k9s", log_dir)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        cluster = await open_item(pilot, "k8s", "9100")
        await pilot.press("]")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        pool = app.screen
        assert pool is not cluster and pool.resource.id == "k8s.pools"
        await pilot.press("h")
        await settle(pilot)
        seen = record(log_dir, "k9s")
        # The cluster's kubeconfig, saved under the cluster's label.
        assert seen["env"]["KUBECONFIG"].endswith("cloudtui-shop-prod.yaml")
        assert "clusters:" in next(iter(seen["files"].values()))["text"]
        assert app.screen is pool


async def test_ctrl_d_and_ctrl_u_scroll_a_long_detail() -> None:
    app = make_app()
    async with started(app, (80, 24)) as pilot:
        screen = await open_item(pilot, "volumes", "46000")
        panel = screen.query_one(DetailPanel)
        assert panel.max_scroll_y > 0  # longer than the screen at 24 rows
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: panel.scroll_y > 0, what="ctrl+d scrolled")
        await pilot.press("ctrl+u")
        await wait_until(pilot, lambda: panel.scroll_y == 0, what="ctrl+u scrolled back")
