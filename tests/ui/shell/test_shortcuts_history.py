"""The user's aliases and hotkeys, the ``:`` history (↑/↓, kept per profile across runs, never
a secret) and back/forward between visited screens."""

from __future__ import annotations

from typing import Any

from screens.details.resource_detail import ResourceDetailScreen
from screens.lists.resource_list import ResourceListScreen
from screens.shell.command_line import CommandLineScreen
from tests.ui.helpers import demo_session, make_app, settle, started, wait_for_screen, wait_until
from tests.ui.keyboard import type_text
from tui.history.commands import CommandHistory


async def command(pilot: Any, text: str) -> None:
    """Type ``:text`` and enter."""
    await pilot.press("colon")
    await wait_for_screen(pilot, CommandLineScreen)
    await type_text(pilot, text)
    await pilot.press("enter")
    await settle(pilot)


def line(app: Any) -> str:
    from textual.widgets import Input

    value: str = app.screen.query_one(Input).value
    return value


async def test_colon_up_recalls_earlier_commands_after_a_restart_and_never_a_secret() -> None:
    async with started(make_app()) as pilot:
        await command(pilot, "vol")
        await command(pilot, "fanout instances")
        await command(pilot, "log token=0123456789abcdef0123456789abcdef")
    profile = demo_session().profile_name
    assert CommandHistory(profile).entries == ["vol", "fanout instances"]  # no secret kept

    async with started(make_app()) as pilot:  # a new run of the same profile
        await pilot.press("colon")
        await wait_for_screen(pilot, CommandLineScreen)
        await type_text(pilot, "v")
        await pilot.press("up")
        assert line(pilot.app) == "vol"  # only those starting like the text typed
        await pilot.press("down")
        assert line(pilot.app) == "v"  # the draft again
        await pilot.press("backspace", "up")
        assert line(pilot.app) == "fanout instances"
        await pilot.press("up")
        assert line(pilot.app) == "vol"
        await pilot.press("down")
        assert line(pilot.app) == "fanout instances"
        await pilot.press("escape")


async def test_an_alias_on_the_command_line_and_a_hotkey_run_their_commands() -> None:
    session = demo_session(aliases={"v": "volumes", "lg": "log"}, hotkeys={"f6": ":v"})
    app = make_app(session)
    async with started(app) as pilot:
        await command(pilot, "v")
        assert app.current_mode == "volumes"
        await command(pilot, "lg")
        assert app.current_mode == "log"
        await pilot.press("f6")  # a hotkey's command may be an alias
        await settle(pilot)
        assert app.current_mode == "volumes"
        assert CommandHistory(session.profile_name).entries == ["v", "lg"]  # typed ones only


async def test_back_and_forward_go_between_visited_screens_like_a_browser() -> None:
    app = make_app()
    async with started(app) as pilot:
        assert app.current_mode == "instances"
        await command(pilot, "vol")
        pane = app.screen.query_one("#pane-0")
        await wait_until(pilot, lambda: pane.current_item is not None)
        pane.table.focus()
        await pilot.press("enter")
        detail = await wait_for_screen(pilot, ResourceDetailScreen)
        key = detail.resource.item_key(detail.item)
        await settle(pilot)

        await pilot.press("alt+left")
        await settle(pilot)
        assert app.current_mode == "volumes" and isinstance(app.screen, ResourceListScreen)
        await pilot.press("alt+left")
        await settle(pilot)
        assert app.current_mode == "instances"
        await pilot.press("alt+left")  # nowhere further back: nothing changes
        await settle(pilot)
        assert app.current_mode == "instances"

        await pilot.press("alt+right")
        await settle(pilot)
        assert app.current_mode == "volumes" and isinstance(app.screen, ResourceListScreen)
        await pilot.press("alt+right")  # the detail was closed by going back: opened again
        await settle(pilot)
        assert isinstance(app.screen, ResourceDetailScreen)
        assert app.screen.resource.item_key(app.screen.item) == key

        await pilot.press("alt+left")
        await settle(pilot)
        await command(pilot, "log")  # a new place after going back drops the way forward
        await pilot.press("alt+right")
        await settle(pilot)
        assert app.current_mode == "log"
