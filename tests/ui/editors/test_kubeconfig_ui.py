"""Saving a cluster's kubeconfig from its Kubeconfig tab."""

from __future__ import annotations

import base64
import stat
from pathlib import Path
from typing import Any

from textual.widgets import Checkbox, Input, TabbedContent

from screens.editors.kubeconfig import SaveKubeconfigModal
from screens.lists.singleton_pane import SingletonPane
from tests.ui.details.test_resource_detail import open_item
from tests.ui.helpers import make_app, settle, wait_for_screen, wait_until
from widgets.detail_panel import DetailPanel


async def kubeconfig_tab(pilot: Any) -> SingletonPane:
    """The Kubeconfig tab of cluster 9100, shown, with the keys on it."""
    screen = await open_item(pilot, "k8s", "9100")
    index = [c.title for c in screen.resource.children].index("Kubeconfig")
    screen.query_one("#detail-tabs", TabbedContent).active = f"tab-child-{index}"
    await settle(pilot)
    pane = screen.query_one(f"#child-{index}", SingletonPane)
    pane.query_one(DetailPanel).focus()
    return pane


async def test_save_writes_the_decoded_kubeconfig_privately_and_never_over_a_file(
    tmp_path: Path,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = await kubeconfig_tab(pilot)
        target = tmp_path / "kube" / "shop.yaml"
        target.parent.mkdir()
        target.write_text("someone else's config")

        await pilot.press("w")
        modal = await wait_for_screen(pilot, SaveKubeconfigModal)
        assert "shop-prod" in modal.query_one(Input).value  # named after the cluster
        modal.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is modal  # exists: refused until "replace" is ticked
        assert target.read_text() == "someone else's config"

        modal.query_one(Checkbox).value = True
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not isinstance(app.screen, SaveKubeconfigModal))
        expected = base64.b64decode(pane.item["kubeconfig"]).decode()
        assert target.read_text() == expected
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
        title, message = app.notification_log[-1]
        assert title == "Kubeconfig saved" and str(target) in message
        assert expected not in message


async def test_an_unwritable_path_reopens_the_dialog_with_the_reason(tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await kubeconfig_tab(pilot)
        blocked = tmp_path / "a-file"
        blocked.write_text("x")

        await pilot.press("w")
        modal = await wait_for_screen(pilot, SaveKubeconfigModal)
        modal.query_one(Input).value = str(blocked / "config.yaml")
        await pilot.press("ctrl+s")

        await wait_until(
            pilot, lambda: isinstance(app.screen, SaveKubeconfigModal) and app.screen is not modal
        )
        again = app.screen
        assert again.query_one(Input).value == str(blocked / "config.yaml")  # kept as typed
        assert "Could not write" in str(again.query_one("#form-general").render())
