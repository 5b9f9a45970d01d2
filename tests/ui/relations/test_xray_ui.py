"""``:xray``: the trees of clusters, balancers and instances, expanded from the keyboard, enter
opening the object of a node."""

from __future__ import annotations

from typing import Any

import pytest

from screens.details.resource_detail import ResourceDetailScreen
from screens.relations.xray import XrayScreen
from screens.shell.command_line import run_command
from tests.ui.helpers import make_app, settle, wait_for_screen, wait_until


def visible(screen: XrayScreen) -> list[str]:
    """The tree's lines as shown, indented by depth."""
    tree = screen.xray_tree
    lines = []
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        if node is not None and node.data is not None:
            lines.append("  " * node.data.depth + node.label.plain)
    return lines


async def open_xray(pilot: Any, word: str) -> XrayScreen:
    run_command(pilot.app, f"xray {word}")
    screen = await wait_for_screen(pilot, XrayScreen)
    await settle(pilot)
    await wait_until(pilot, lambda: screen.xray is not None, what="the tree loaded")
    return screen


async def test_balancers_expand_to_ports_nodes_and_instances_and_enter_opens_one() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await open_xray(pilot, "balancers")
        assert visible(screen)[0] == "load balancer staging-api"
        tree = screen.xray_tree
        tree.focus()
        await pilot.press("down", "down")  # from no line to the first, then web-frontend
        await pilot.press("right")
        await settle(pilot)
        assert visible(screen)[1:4] == [
            "load balancer web-frontend",
            "  port 80 (http)",
            "  port 443 (https)",
        ]
        await pilot.press("down", "space")
        await settle(pilot)
        lines = visible(screen)
        assert "    balancer node web-1" in lines, lines
        web2 = lines.index("    balancer node web-2")
        tree.cursor_line = web2
        await pilot.press("l")
        await settle(pilot)
        lines = visible(screen)
        assert lines[web2 + 1] == "      instance web-prod-1", lines
        # left collapses, then goes up to the parent
        await pilot.press("left")
        await settle(pilot)
        assert "      instance web-prod-1" not in visible(screen)
        tree.cursor_line = web2
        await pilot.press("right")
        await settle(pilot)
        tree.cursor_line = web2 + 1
        await pilot.press("enter")
        await settle(pilot)
        opened = app.screen
        assert isinstance(opened, ResourceDetailScreen)
        assert opened.resource.id == "compute.instances" and opened.item["id"] == 51201
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen


@pytest.mark.parametrize(
    ("word", "first", "child"),
    [
        ("clusters", "cluster shop-prod", "pool"),
        ("instances", "instance analytics-worker", "config"),
    ],
)
async def test_clusters_and_instances_expand_a_level(word: str, first: str, child: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = await open_xray(pilot, word)
        lines = visible(screen)
        assert first in lines, lines
        tree = screen.xray_tree
        tree.focus()
        tree.cursor_line = lines.index(first)
        await pilot.press("space")
        await settle(pilot)
        below = visible(screen)[lines.index(first) + 1]
        assert below.startswith(f"  {child}"), visible(screen)


async def test_an_unknown_tree_says_which_words_it_takes() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        run_command(app, "xray volumes")
        await settle(pilot)
        assert not isinstance(app.screen, XrayScreen)
        assert "xray clusters | balancers | instances" in app.notification_log[-1][1]
