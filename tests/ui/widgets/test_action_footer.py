"""The footer greys keys in place when the row under the cursor offers other actions."""

from __future__ import annotations

from typing import Any

from textual.widgets._footer import FooterKey

from tests.ui.actions.test_compute_ui import instances, select
from tests.ui.helpers import make_app, settle, wait_until
from widgets.action_footer import ActionFooter, keys_that_fit


def key_states(app: Any) -> dict[str, bool]:
    footer = app.screen.query_one(ActionFooter)
    return {key.action: key.has_class("-disabled") for key in footer.query(FooterKey)}


async def test_cursor_moves_update_footer_keys_in_place() -> None:
    app = make_app()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        pane = await instances(pilot)
        labels = {item["status"]: item["label"] for item in pane.items.values()}
        await select(pilot, pane, labels["running"])
        await settle(pilot)
        footer = app.screen.query_one(ActionFooter)
        widgets = list(footer.query(FooterKey))
        running = key_states(app)

        await select(pilot, pane, labels["offline"])
        await wait_until(pilot, lambda: key_states(app) != running)
        offline = key_states(app)
        changed = {action for action in running if running[action] != offline[action]}
        assert changed, "a stopped instance offers other actions than a running one"
        # Same key widgets: only their state changed, nothing was rebuilt.
        assert list(footer.query(FooterKey)) == widgets
        disabled_now = {a for a in changed if offline[a]}
        for key in footer.query(FooterKey):
            if key.action in disabled_now:
                assert key._disabled

        await select(pilot, pane, labels["running"])
        await wait_until(pilot, lambda: key_states(app) == running)


async def test_the_footer_says_when_keys_are_cut_off_and_names_help() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(ActionFooter)
        assert footer.has_class("-overflow")
        assert "? all keys" in str(footer.query_one(".footer-more").render())
        await pilot.resize_terminal(300, 60)  # every instance key fits
        await settle(pilot)
        assert not footer.has_class("-overflow")


def test_keys_are_left_out_whole_from_the_last_one() -> None:
    assert keys_that_fit([10, 10, 10], 30, hint=5) == [True, True, True]
    assert keys_that_fit([10, 10, 10], 29, hint=5) == [True, True, False]
    assert keys_that_fit([10, 10, 10], 24, hint=5) == [True, False, False]
    # A narrow key after one left out is left out too: the order is the priority.
    assert keys_that_fit([10, 20, 2], 25, hint=5) == [True, False, False]


async def test_at_80_columns_no_key_label_is_cut_and_the_hint_covers_nothing() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await instances(pilot)
        await settle(pilot)
        footer = app.screen.query_one(ActionFooter)
        hint = footer.query_one(".footer-more")
        keys = [k for k in footer.query(FooterKey) if not k.has_class("-command-palette")]
        shown = [k for k in keys if k.display]
        assert footer.has_class("-overflow")
        assert shown and len(shown) < len(keys)
        for key in shown:
            assert key.region.right <= hint.region.x, f"{key.description} runs under the hint"
        await pilot.resize_terminal(300, 60)
        await settle(pilot)
        assert all(k.display for k in keys)
        assert not footer.has_class("-overflow")
