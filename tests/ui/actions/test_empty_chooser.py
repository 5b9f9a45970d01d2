"""A chooser with nothing to offer says why, in the input and in the chooser itself."""

from __future__ import annotations

from textual.widgets import Static

from screens.actions.form import FormModal
from tests.ui.actions.test_compute_ui import select
from tests.ui.helpers import make_app, open_area, wait_for_screen, wait_until
from tui.resources.forms import CHOICE_SOURCES, choice_context
from widgets.chooser_field import ChooserSelect
from widgets.chooser_modal import ChooserModal


def test_a_source_says_what_it_lacks_and_where() -> None:
    instances = CHOICE_SOURCES["compute_id"]
    context = choice_context({"region": "ap-northeast", "label": "archive"}, {"config_id": None})
    assert instances.why_empty(context) == "no instances in ap-northeast"
    assert instances.why_empty({}) == "no instances"
    assert CHOICE_SOURCES["image"].why_empty({}) == "no images with status available"
    buckets = CHOICE_SOURCES["bucket_in_cluster"]
    assert buckets.why_empty({"cluster": "us-east-1"}) == "no buckets in us-east-1"


async def test_attaching_a_volume_where_no_instance_runs_says_so() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        pane = await open_area(pilot, "volumes")
        volume = await select(pilot, pane, "archive_2024")
        assert volume["region"] == "ap-northeast"
        await pilot.press("a")
        modal = await wait_for_screen(pilot, FormModal)
        await pilot.pause()
        field = modal.model_form.widget_for("compute_id")
        assert isinstance(field, ChooserSelect)
        await wait_until(pilot, lambda: field.prompt != "loading…")
        assert field.prompt == "no instances in ap-northeast"

        field.focus()
        await pilot.press("enter")
        chooser = await wait_for_screen(pilot, ChooserModal)
        await pilot.pause()
        hint = str(chooser.query_one("#chooser-hint", Static).content)
        assert hint.startswith("no instances in ap-northeast")
        assert "loading" not in hint
        await pilot.press("escape", "escape")
