"""A pasted PEM keeps every line in the balancer form, at 80x24; a cut one is refused there."""

from __future__ import annotations

from textual import events
from textual.widgets import TextArea

from screens.actions.form import FormModal
from tests.ui.helpers import make_app, open_area, settle, wait_for_screen
from tui.models.loadbalancers import LbConfigCreate
from tui.resources.forms import build_body, form_for
from tui.simulator.seeds.loadbalancers import DEMO_CERT as CERT
from tui.simulator.seeds.loadbalancers import DEMO_KEY as KEY
from widgets.secret_input import PemSecretInput


async def test_pasted_certificate_and_key_keep_all_their_lines() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await open_area(pilot, "loadbalancers")
        await pilot.press("n")
        modal: FormModal = await wait_for_screen(pilot, FormModal)
        await pilot.pause()
        form = modal.model_form
        form.set_value("configs.0.protocol", "https")
        await pilot.pause()

        cert_input = form.widget_for("configs.0.ssl_cert")
        key_input = form.widget_for("configs.0.ssl_key")
        assert isinstance(cert_input, TextArea)
        assert isinstance(key_input, PemSecretInput)
        assert key_input.password
        for widget, text in ((cert_input, CERT), (key_input, KEY)):
            widget.focus()
            await pilot.pause()
            app.post_message(events.Paste(text))  # as the terminal sends it
            await pilot.pause()

        values = form.values()
        assert values["configs.0.ssl_cert"].strip() == CERT.strip()
        assert values["configs.0.ssl_key"].count("\\n") == KEY.strip().count("\n")
        modal.build()
        assert form.error_text("configs.0.ssl_cert") == ""
        assert form.error_text("configs.0.ssl_key") == ""
        # The same values as a port config's body: every line of both travels.
        pasted = {k.removeprefix("configs.0."): v for k, v in values.items() if "ssl" in k}
        body = build_body(form_for(LbConfigCreate), {"protocol": "https", **pasted}).body
        assert body is not None
        assert (body["ssl_cert"], body["ssl_key"]) == (CERT.strip(), KEY.strip())

        key_input.value = ""
        key_input.focus()
        await pilot.pause()
        app.post_message(events.Paste(KEY.splitlines()[0]))
        await pilot.pause()
        assert modal.build() is None
        assert "must be a PEM private key" in form.error_text("configs.0.ssl_key")
        await pilot.press("escape")
