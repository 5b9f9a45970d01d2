"""A refused send shows why where the user looks: the first field in error gets the focus and
scrolls into view with its error line, and an error naming no field is shown on screen too.

At 80x24, where the fields in question start below the fold.
"""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from textual.widgets import Select, Static

from screens.actions.form import FormModal
from screens.dialogs.confirm import ConfirmModal
from tests.ui.helpers import (
    make_app,
    open_area,
    open_form,
    pauses,
    settle,
    wait_for_screen,
    wait_until,
)
from tests.ui.visibility import (
    assert_focus_visible,
    assert_label_visible,
    assert_visible,
    press_and_settle,
    settle_view,
    visibility_problem,
)
from tui.api.errors import ApiError, FieldError
from tui.resources.forms import form_for
from tui.simulator.seeds.loadbalancers import DEMO_CERT
from widgets.model_form import ModelForm

SMALL = (80, 24)


def error_line(form: ModelForm, name: str) -> Static:
    """The error line under the input ``name``."""
    return form.query_one(f"#row-{form.id_of(name)}").query_one(".form-error", Static)


async def choose_first(pilot: Any, form: ModelForm, name: str, where: Any = None) -> Any:
    """Choose the first value the choice ``name`` offers (that ``where`` accepts)."""
    widget = form.widget_for(name)
    assert isinstance(widget, Select)
    values: list[Any] = []

    def offered() -> bool:
        values[:] = [v for _t, v in widget._options if v is not Select.NULL and v is not None]
        return any(where is None or where(v) for v in values)

    await wait_until(pilot, offered)
    value = next(v for v in values if where is None or where(v))
    form.set_value(name, value)
    return value


async def send_from_the_top(pilot: Any, form: ModelForm, first: str, far: str) -> None:
    """Focus the form's first input, check ``far`` is out of sight, press ctrl+s."""
    form.widget_for(first).focus()
    await settle_view(pilot)
    assert visibility_problem(form.widget_for(far)), f"{far} should start below the fold"
    await press_and_settle(pilot, "ctrl+s")


def assert_error_in_view(app: Any, form: ModelForm, name: str, wanted: str) -> None:
    """The input ``name`` has the focus, and it and its error line (saying ``wanted``) show."""
    assert app.focused is form.widget_for(name), f"focus is on {app.focused!r}, not on {name}"
    assert_focus_visible(app, f"the field in error, {name}")
    assert wanted in form.error_text(name), form.error_text(name)
    assert_visible(error_line(form, name), f"the error line of {name}")


async def test_a_required_script_field_left_empty_far_down_shows_its_error_on_screen() -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        modal: FormModal = await open_form(pilot, "instances")
        form = modal.model_form
        await choose_first(pilot, form, "region")
        await choose_first(pilot, form, "type")
        await choose_first(pilot, form, "image")
        form.set_value("label", "shop-1")
        form.set_value("root_pass", "Another-long-secret-7")
        store = app.state.session.simulator.store
        lamp = next(s for s in store.rows("deployscripts.scripts") if s["label"] == "LAMP stack")
        await choose_first(pilot, form, "stackscript_id", lambda v: v == lamp["id"])
        secret = "stackscript_data.db_password"
        await wait_until(pilot, lambda: form.form.field(secret) is not None)
        await settle_view(pilot)

        await send_from_the_top(pilot, form, "region", secret)

        assert_error_in_view(app, form, secret, "required")
        assert app.screen is modal
        assert "compute.instances.create" not in app.state.session.simulator.request_log


def other_key() -> str:
    """A private key that does not belong to the demo certificate."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


async def test_a_balancer_refused_for_its_key_focuses_the_key_and_keeps_focus_in_sight() -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await open_area(pilot, "loadbalancers")
        await pilot.press("n")
        modal: FormModal = await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        await choose_first(pilot, form, "region")
        form.set_value("label", "shop-front")
        form.set_value("configs.0.port", "443")
        form.set_value("configs.0.protocol", "https")
        await pilot.pause()
        form.set_value("configs.0.ssl_cert", DEMO_CERT)
        form.set_value("configs.0.ssl_key", other_key())  # a key, but not the certificate's
        await choose_first(pilot, form, "configs.0.nodes.0.address")
        form.set_value("configs.0.nodes.0.label", "web-a")
        key = "configs.0.ssl_key"

        await send_from_the_top(pilot, form, "region", key)
        async for _ in pauses(pilot):  # the price is confirmed, then the API refuses the key
            if isinstance(app.screen, ConfirmModal):
                await press_and_settle(pilot, "y")
            if form.error_text(key):
                break
        await settle_view(pilot)

        assert app.screen is modal
        assert_error_in_view(app, form, key, "does not match")
        # Wherever the user goes from there, what has focus stays in sight.
        for step in range(20):
            await press_and_settle(pilot, "shift+tab")
            assert_focus_visible(app, f"shift+tab {step + 1} after the refusal")
            assert_label_visible(app, f"shift+tab {step + 1} after the refusal")


async def test_an_error_naming_no_field_shows_below_the_form_with_the_focus_in_sight() -> None:
    reasons = [f"The account cannot do this now ({n})." for n in range(1, 4)]

    async def refuse(_body: dict[str, Any]) -> Any:
        raise ApiError(400, "POST", "/tags", [FieldError(reason=r) for r in reasons])

    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        modal = FormModal("New tag", form_for("tags:TagCreate"), refuse, values={"label": "web"})
        app.push_screen(modal)
        await wait_for_screen(pilot, FormModal)
        await settle_view(pilot)

        await press_and_settle(pilot, "ctrl+s")
        await settle_view(pilot)

        general = modal.query_one("#form-general", Static)
        assert all(r in str(general.render()) for r in reasons)
        assert_visible(general, "the form's general error")
        assert_focus_visible(app, "after the refusal")
        modal.dismiss(None)
