"""Nothing typed on a button vanishes, and the focus marker ``❯`` follows the focus onto it.

Every dialog an action opens (:mod:`tests.ui.form_walk`), and the dialogs opened otherwise
(confirmations, the error screen, the tag prompt), is walked: for each button, the focus goes to
the text field before it, tab moves it onto the button, the button shows ``❯`` and no form row
does, and a character typed then either lands in a text field (which then has the focus) or is
named in a "Not typed" notification. An MX record's priority typed at its Send button reaches
the request.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from screens.actions.form import FormModal
from screens.actions.tag_prompt import TagPrompt
from screens.dialogs.confirm import ConfirmModal
from screens.dialogs.error import ErrorScreen
from screens.home.check_dialogs import SilenceModal
from screens.keys.not_typed import TITLE
from tests.ui.actions.test_form_rules_ui import record_form
from tests.ui.form_walk import Samples, dialog_actions, opened
from tests.ui.helpers import make_app, settle, wait_until
from tests.ui.keyboard import key_of, screen_text, type_fast
from tests.ui.visibility import press_and_settle, settle_view
from tests.waits import WAIT_LIMIT
from widgets.marked_button import FOCUS_MARKER, MarkedButton
from widgets.text_entry import text_field

pytestmark = pytest.mark.longest  # every dialog of the app, opened one after the other

ACTIONS = dialog_actions()
AREAS_WITH_DIALOGS = sorted({d.area for d in ACTIONS})

CANDIDATES = "7x.q"
"""Characters typed on a button: the first one the screen binds to nothing is used."""


def marked(button: Button) -> bool:
    """True when ``button`` shows the focus marker."""
    return str(button.render()).startswith(FOCUS_MARKER)


def marked_rows(screen: Any) -> list[Any]:
    """Form rows whose marker says they have the focus."""
    return [m for m in screen.query(".form-marker") if str(m.content).strip() == FOCUS_MARKER]


def text_values(screen: Any) -> dict[Any, str]:
    """Every text field of ``screen`` and what it holds."""
    out: dict[Any, str] = {}
    for widget in screen.query("Input, TextArea"):
        field = text_field(widget)
        if field is not None:
            out[field] = field.value if hasattr(field, "value") else field.text
    return out


async def typed(pilot: Pilot[Any], chars: str) -> None:
    """Type ``chars`` in one burst and return once the app has dealt with every key."""
    app = pilot.app
    type_fast(app, [key_of(c) for c in chars])
    reached = asyncio.Event()
    app.call_later(reached.set)  # behind the keys in the app's queue
    await asyncio.wait_for(reached.wait(), WAIT_LIMIT)
    await wait_until(pilot, lambda: app.key_gate.idle, what="the typed keys dealt with")
    await settle_view(pilot)


def unbound_character(screen: Any) -> str:
    """A character that no binding of ``screen`` takes where the focus is now."""
    bound = screen.active_bindings
    return next(c for c in CANDIDATES if key_of(c) not in bound)


async def type_on(pilot: Pilot[Any], button: Button, context: str) -> None:
    """Type one character with ``button`` focused: it lands in a text field or is named."""
    app = pilot.app
    screen = button.screen
    char = unbound_character(screen)
    before = text_values(screen)
    notes = len(app.notification_log)
    await typed(pilot, char)
    told = [m for t, m in app.notification_log[notes:] if t == TITLE and f"“{char}”" in m]
    focused = app.focused
    changed = [f for f, v in text_values(screen).items() if before.get(f) != v]
    landed = changed == [focused] and char in (getattr(focused, "value", None) or focused.text)
    label = str(button.label).strip()
    assert landed or told, f"{context}: {char!r} typed on {label} vanished without a word"
    if not told:
        assert not marked(button), f"{context}: {label} keeps the marker after the focus left"


async def walk_buttons(pilot: Pilot[Any], dialog: Any, context: str) -> int:
    """Tab onto every button of ``dialog`` from the text field before it and type on it.

    Returns:
        How many buttons were walked.
    """
    app = pilot.app
    walked = 0
    for button in list(dialog.query(MarkedButton)):
        chain = dialog.focus_chain
        if button not in chain:
            continue  # disabled (a confirmation's button until its label is typed)
        index = chain.index(button)
        before = [w for w in chain[:index] if text_field(w) is not None]
        start = before[-1] if before else chain[index - 1]
        start.focus()
        await settle_view(pilot, context)
        for _tab in chain:
            if app.focused is button:
                break
            await press_and_settle(pilot, "tab")
        label = str(button.label).strip()
        where = f"{context}, button {label}"
        assert app.focused is button, f"{where}: tab never reached it"
        assert marked(button), f"{where}: focused but shows no {FOCUS_MARKER}"
        assert not marked_rows(dialog), f"{where}: a form row still shows {FOCUS_MARKER}"
        await type_on(pilot, button, where)
        walked += 1
    return walked


@pytest.mark.parametrize("area", AREAS_WITH_DIALOGS)
async def test_nothing_typed_on_a_dialogs_buttons_vanishes(area: str) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, rounds=1)
        samples = Samples(app.state.session.client)
        for d in (d for d in ACTIONS if d.area == area):
            async with opened(pilot, samples, d) as dialog:
                walked = await walk_buttons(pilot, dialog, d.name)
                # Send and Cancel at least, in a form; a picker may have no button at all.
                assert walked >= (2 if isinstance(dialog, FormModal) else 0), d.name


def lone_dialogs() -> list[Any]:
    """Dialogs with buttons that no spec action opens directly."""
    return [
        ConfirmModal("Reboot web-1", "It restarts.", "POST /linode/instances/1/reboot"),
        ConfirmModal("Delete web-1", "It goes for good.", "DELETE /x/1", typed="web-1"),
        ErrorScreen("Something failed", RuntimeError("boom")),
        TagPrompt("Tag web-1", ["production"]),
        SilenceModal('Silence "Volume not attached" on archive_2024'),
    ]


async def test_nothing_typed_on_the_buttons_of_other_dialogs_vanishes() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for dialog in lone_dialogs():
            app.push_screen(dialog)
            await wait_until(pilot, lambda dialog=dialog: app.screen is dialog and dialog.focused)
            await settle_view(pilot)
            assert await walk_buttons(pilot, dialog, type(dialog).__name__) >= 1
            dialog.dismiss(None)
            await wait_until(pilot, lambda dialog=dialog: app.screen is not dialog)


async def test_a_tag_typed_on_in_two_goes_keeps_its_first_part() -> None:
    # The tag input selects its text when focused: typing after the focus went back must
    # not replace what was typed before.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        prompt = TagPrompt("Tag web-1")
        app.push_screen(prompt)
        await wait_until(pilot, lambda: prompt.focused is not None)
        await typed(pilot, "prod")
        await press_and_settle(pilot, "tab")
        assert app.focused is prompt.query_one("#tag-add")
        await typed(pilot, "uction")
        assert prompt.query_one("#tag-input").value == "production"
        assert app.focused is prompt.query_one("#tag-input")


async def mx_form_at_send(pilot: Pilot[Any]) -> FormModal:
    """A new MX record's form, its target filled, tabbed from Priority onto Send."""
    modal = await record_form(pilot)
    form = modal.model_form
    form.set_value("type", "MX")
    await pilot.pause()
    form.set_value("target", "mx2.example.org")
    form.widget_for("priority").focus()
    await settle_view(pilot)
    await press_and_settle(pilot, "tab")  # priority is the last input: Send is next
    assert pilot.app.focused is modal.query_one("#form-send")
    return modal


async def test_an_mx_priority_typed_at_send_reaches_the_request() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        modal = await mx_form_at_send(pilot)
        assert "❯ Send" in screen_text(app)
        await typed(pilot, "10")
        priority = modal.model_form.widget_for("priority")
        assert priority.value == "10"
        assert app.focused is priority
        before = len(app.state.session.simulator.store.rows("domains.records"))
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: not modal.is_attached, what="the form sent")
        await settle(pilot)
        rows = app.state.session.simulator.store.rows("domains.records")
        assert len(rows) == before + 1
        assert (rows[-1]["type"], rows[-1]["priority"]) == ("MX", 10)


async def test_a_letter_the_priority_refuses_is_named() -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        modal = await mx_form_at_send(pilot)
        await typed(pilot, "y")
        assert modal.model_form.widget_for("priority").value == ""
        title, message = app.notification_log[-1]
        assert title == TITLE and "“y”" in message and "whole numbers" in message
        assert app.focused is modal.model_form.widget_for("priority")
