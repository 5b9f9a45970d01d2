"""Every field of every dialog can be seen while it has focus, at 80x24 and 120x40.

For each area one app opens, in turn, every dialog its resources' actions open (see
:mod:`tests.ui.form_walk`), widens it to as many inputs as it can show, and presses tab once
round all of it at one size, then again after resizing the terminal to the other: after each
key the focused widget must lie on screen and inside every container that clips it
(:func:`tests.ui.visibility.assert_focus_visible`). The choosers a form opens are walked the
same way. Each dialog is built once and walked at both sizes; the sizes alternate so both
orders occur.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from screens.chooser import ChooserModal
from screens.form import FormModal
from tests.ui.form_walk import (
    DialogAction,
    Samples,
    dialog_actions,
    opened,
    quiet,
    unknown_screens,
    wait_for,
    widen,
)
from tests.ui.helpers import make_app, settle
from tests.ui.visibility import assert_focus_visible, press_and_settle, settle_view
from widgets.chooser_field import ChooserSelect

SIZES = ((80, 24), (120, 40))

ACTIONS = dialog_actions()
AREAS_WITH_DIALOGS = sorted({d.area for d in ACTIONS})


async def walk(pilot: Pilot[Any], dialog: Any, context: str) -> None:
    """Tab once round ``dialog``'s focus chain, checking the focus can be seen after each key."""
    for step in range(len(dialog.focus_chain) + 1):
        await press_and_settle(pilot, "tab")
        assert_focus_visible(pilot.app, f"{context}, tab {step + 1}")


async def walk_both_sizes(pilot: Pilot[Any], dialog: Any, context: str) -> None:
    """Walk ``dialog`` at the terminal's size, then at the other one (left resized)."""
    size = pilot.app.size
    await settle_view(pilot)
    assert_focus_visible(pilot.app, f"{context} at {size.width}x{size.height}, as opened")
    for width, height in sorted(SIZES, key=lambda s: s != (size.width, size.height)):
        if (width, height) != (pilot.app.size.width, pilot.app.size.height):
            await pilot.resize_terminal(width, height)
        await walk(pilot, dialog, f"{context} at {width}x{height}")


async def walk_choosers(
    pilot: Pilot[Any], modal: FormModal, context: str, walked: set[Any]
) -> None:
    """Open each chooser of the form with enter and walk it (once per source of choices: the
    eight disk slots of a configuration profile show one chooser)."""
    form = modal.model_form
    for field in list(modal.query(ChooserSelect)):
        source = next(
            (f.source for f in form.form.fields if form.id_of(f.name) == field.id and f.source),
            None,
        )
        key = source.key if source is not None else field.id
        if not field.display or field.table is None or key in walked:
            continue
        walked.add(key)
        field.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ChooserModal), "a chooser")
        chooser = pilot.app.screen
        await walk_both_sizes(pilot, chooser, f"{context}, chooser of {field.id}")
        await pilot.press("escape")
        await wait_for(pilot, lambda chooser=chooser: pilot.app.screen is not chooser, "closing")
        await quiet(pilot, modal)


async def walk_action(
    pilot: Pilot[Any], samples: Samples, d: DialogAction, choosers: set[Any]
) -> None:
    async with opened(pilot, samples, d) as dialog:
        if isinstance(dialog, FormModal):
            await widen(pilot, dialog)
        await walk_both_sizes(pilot, dialog, d.name)
        if isinstance(dialog, FormModal):
            await walk_choosers(pilot, dialog, d.name, choosers)


def test_every_action_flow_is_walked_or_says_why_not() -> None:
    assert not unknown_screens(), "add the flow's dialog to form_walk or to NO_INPUT_DIALOG"
    assert len(ACTIONS) > 50


@pytest.mark.parametrize("area", AREAS_WITH_DIALOGS)
async def test_every_dialog_field_is_visible_when_focused(area: str) -> None:
    app = make_app()
    app.animation_level = "none"  # scrolling is instant: nothing to wait for between keys
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot, rounds=1)
        samples = Samples(app.session.client)
        choosers: set[Any] = set()
        for d in (d for d in ACTIONS if d.area == area):
            await walk_action(pilot, samples, d, choosers)
