"""The user's ``[[plugins]]``: keys in the footer and help of their areas, the foreground
hand-off, the background panel, the confirmation, and an item's value never run as code."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from screens.dialogs.confirm import ConfirmModal
from screens.editors.plugins import PluginOutputModal
from screens.shell.help import binding_rows
from tests.ui.fake_tools import make_fake, record
from tests.ui.helpers import (
    demo_session,
    make_app,
    open_area,
    settle,
    started,
    wait_for_screen,
    wait_until,
)

WEB = "51201"

PING = {
    "key": "P",
    "areas": ["instances"],
    "title": "Ping",
    "command": ["ping", "-c1", "{ipv4}"],
    "confirm": False,
}


def hostile_plugin() -> dict[str, Any]:
    """A shell plugin that reads the label as data ("$1" and the environment)."""
    return {
        "key": "ctrl+l",
        "areas": ["in"],
        "title": "Echo label",
        "command": ["sh", "-c", 'echo "label=$1"; echo "env=$CLOUDTUI_LABEL"', "sh", "{label}"],
        "mode": "background",
        "confirm": True,
    }


def canaries(folder: Path) -> list[Path]:
    """The files a hostile label would have made, had any part of it run."""
    return sorted(folder.glob("canary*"))


def link_tools(bin_dir: Path, *names: str) -> None:
    """Put the real ``names`` on the (fake-only) PATH."""
    for name in names:
        found = shutil.which(name, path=os.defpath)
        assert found, name
        (bin_dir / name).symlink_to(found)


async def test_a_foreground_plugin_runs_ping_on_the_selected_instance_and_comes_back(
    fake_bin: tuple[Path, Path],
) -> None:
    bin_dir, log_dir = fake_bin
    make_fake(bin_dir, "ping", log_dir)
    app = make_app(demo_session(plugins=[PING]))
    async with started(app, (120, 40), handoffs=True) as pilot:
        pane = await open_area(pilot, "instances")
        assert pane.table.move_cursor(WEB)
        await settle(pilot)
        footer = {b.binding.key: b.binding.description for b in app.screen.active_bindings.values()}
        assert footer.get("P") == "Ping"
        assert any(row[1] == "Ping" and row[2] == "plugin.ping" for row in binding_rows(app.screen))
        screen = app.screen
        await pilot.press("P")
        await settle(pilot)
        seen = record(log_dir, "ping")
        assert seen["argv"][1:] == ["-c1", "192.0.2.2"]
        assert seen["env"]["CLOUDTUI_ID"] == WEB
        assert "CLOUDTUI_TOKEN" not in seen["env"]
        assert app.screen is screen

        volumes = await open_area(pilot, "volumes")
        # Offered only in its areas.
        assert not any(
            b.binding.id == "plugin.ping" for b in volumes.screen.active_bindings.values()
        )


async def test_a_hostile_label_reaches_a_shell_plugin_as_data_and_is_never_run(
    fake_bin: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, _log_dir = fake_bin
    link_tools(bin_dir, "sh", "touch", "rm")
    canary = tmp_path / "canary"
    app = make_app(demo_session(plugins=[hostile_plugin()]))
    async with started(app, (120, 40)) as pilot:
        pane = await open_area(pilot, "instances")
        assert pane.table.move_cursor(WEB)
        hostile = f"x; touch {canary}-1; $(touch {canary}-2) `touch {canary}-3` ~"
        pane.current_item["label"] = hostile

        await pilot.press("ctrl+l")
        confirm = await wait_for_screen(pilot, ConfirmModal)
        assert "sh -c" in confirm.preview and "touch" in confirm.preview
        await pilot.press("n")  # no: nothing runs
        await settle(pilot)
        assert not isinstance(app.screen, PluginOutputModal)

        await pilot.press("ctrl+l")
        await wait_for_screen(pilot, ConfirmModal)
        await pilot.press("y")
        panel = await wait_for_screen(pilot, PluginOutputModal)
        await wait_until(pilot, lambda: panel.run.status is not None or panel.run.problem)
        await settle(pilot)
        assert panel.run.status == 0, panel.run.problem
        assert f"label={hostile}" in panel.text() and f"env={hostile}" in panel.text()
        assert canaries(tmp_path) == []  # no part of the label ran
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, PluginOutputModal)
        assert any("exited with status 0" in message for _t, message in app.notification_log)


async def test_a_plugin_on_a_built_in_key_leaves_the_built_in_key_alone(
    fake_bin: tuple[Path, Path],
) -> None:
    bin_dir, log_dir = fake_bin
    make_fake(bin_dir, "ping", log_dir)
    clash = {**PING, "key": "J", "title": "Clash"}
    app = make_app(demo_session(plugins=[clash]))
    async with started(app, (120, 40), handoffs=True) as pilot:
        pane = await open_area(pilot, "instances")
        assert pane.table.move_cursor(WEB)
        ids = {b.binding.id for b in app.screen.active_bindings.values()}
        assert "list.json" in ids and "plugin.clash" not in ids
        await pilot.press("J")
        await settle(pilot)
        assert type(app.screen).__name__ == "JsonViewScreen"
        assert not (log_dir / "ping.json").exists()
