"""Free form inputs with known values (``FormField.suggest``): the values load when the input
is first focused, never when the form opens; a prefix typed is completed and → accepts it;
ctrl+o appends a value chosen; any other text is still taken; a failed listing leaves a working
input whose hint says why it offers nothing. The ``#`` tag prompt offers the account's tags."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from screens.actions.form import FormModal
from screens.actions.tag_prompt import TagPrompt
from tests.ui.helpers import make_app, open_area, open_form, settle, wait_for_screen, wait_until
from tui.resources.forms import ChoiceSource, form_for
from widgets.chooser_modal import ChooserModal
from widgets.suggest_input import SuggestArea, SuggestInput


def _label(form: Any, name: str) -> str:
    return str(form.row_of(name).query_one(".form-label").render())


async def _typed(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space", ",": "comma"}.get(c, c) for c in text])


async def _choose(pilot: Any, query: str) -> None:
    chooser: ChooserModal = await wait_for_screen(pilot, ChooserModal)
    await wait_until(pilot, lambda: chooser.focused is not None)
    await _typed(pilot, query)
    await pilot.press("enter")
    await wait_until(pilot, lambda: pilot.app.screen is not chooser)


async def test_a_new_volume_loads_the_tags_on_focus_completes_and_appends_them() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        log = app.state.session.simulator.request_log
        modal: FormModal = await open_form(pilot, "volumes")
        form = modal.model_form
        # The form's own choices load at open; the tags only once their input is focused.
        await wait_until(pilot, lambda: "compute.regions.list" in log)
        asked = log.count("tags.list")
        tags = form.widget_for("tags")
        assert isinstance(tags, SuggestInput)
        assert "ctrl+o: tags listed once focused" in _label(form, "tags")
        await pilot.pause()
        assert log.count("tags.list") == asked
        tags.focus()
        await wait_until(pilot, lambda: tags.known.options)
        assert log.count("tags.list") == asked + 1
        assert f"ctrl+o: {len(tags.known.options)} known tags" in _label(form, "tags")
        await _typed(pilot, "produ")
        await pilot.press("right")
        assert tags.value == "production"
        await _typed(pilot, ", ")
        await pilot.press("ctrl+o")
        await _choose(pilot, "database")
        assert tags.value == "production, database"
        await _typed(pilot, ", my-own-tag")
        assert form.values()["tags"] == "production, database, my-own-tag"


async def test_a_failed_tag_listing_leaves_a_working_input_that_says_why() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.state.session.simulator.faults.fail_next("tags.list", 1, 500)
        modal: FormModal = await open_form(pilot, "volumes")
        form = modal.model_form
        tags = form.widget_for("tags")
        tags.focus()
        await wait_until(pilot, lambda: "could not be loaded" in _label(form, "tags"))
        await _typed(pilot, "prod")
        await pilot.press("right")
        assert tags.value == "prod"  # nothing completed, the text stays
        await pilot.press("ctrl+o")
        chooser: ChooserModal = await wait_for_screen(pilot, ChooserModal)
        assert not chooser.shown
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is modal)
        assert tags.value == "prod"


async def test_the_tag_prompt_completes_and_offers_the_accounts_tags() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await open_area(pilot, "volumes")
        await pilot.press("number_sign")
        prompt: TagPrompt = await wait_for_screen(pilot, TagPrompt)
        await wait_until(pilot, lambda: "known tags" in prompt.tag_input.known.note)
        assert prompt.tag_input.known.note.startswith("ctrl+o: ")
        await _typed(pilot, "stag")
        await pilot.press("right")
        assert prompt.tag_input.value == "staging"
        prompt.tag_input.value = ""
        await pilot.press("ctrl+o")
        await _choose(pilot, "web")
        assert prompt.tag_input.value == "web"
        await pilot.press("escape")


KNOWN = [("203.0.113.7 — web-1", "203.0.113.7"), ("on-call", "on-call")]


@pytest.mark.parametrize(
    ("model", "name", "prefix", "decide"),
    [
        ("managed:ContactCreate", "group", "on-", {}),
        ("managed:ComputeSettingsUpdate", "ssh.ip", "203.", {}),
        ("databases:DatabaseCreate", "allow_list", "203.", {}),
        ("domains:RecordCreate", "target", "203.", {"type": "A"}),
    ],
)
async def test_each_free_field_with_known_values_loads_them_on_focus(
    model: str, name: str, prefix: str, decide: dict[str, Any]
) -> None:
    asked: list[ChoiceSource] = []

    async def load(source: ChoiceSource, _values: Mapping[str, Any]) -> list[tuple[str, Any]]:
        asked.append(source)
        return KNOWN

    async def submit(_body: dict[str, Any]) -> None:
        return None

    spec = form_for(model)
    suggest = spec.field(name).suggest
    assert suggest
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        modal = FormModal("Form", spec, submit, load_choices=load)
        app.push_screen(modal)
        await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        for decider, value in decide.items():
            form.set_value(decider, value)
        await pilot.pause()
        assert not any(source in suggest for source in asked)
        widget = form.widget_for(name)
        assert isinstance(widget, SuggestInput | SuggestArea)
        widget.focus()
        await wait_until(pilot, lambda: widget.known.options)
        assert "ctrl+o: 2 known" in _label(form, name)
        assert all(source in asked for source in suggest)
        await _typed(pilot, prefix)
        await pilot.press("right")
        value = form.values()[name]
        assert value in ("on-call", "203.0.113.7"), value


async def test_the_tag_prompt_over_marked_rows_offers_the_accounts_tags() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = await open_area(pilot, "volumes")
        for key in list(pane.items)[:2]:
            assert pane.table.move_cursor(key)
            await pilot.press("space")
        await pilot.press("number_sign")
        prompt: TagPrompt = await wait_for_screen(pilot, TagPrompt)
        assert "2 marked" in prompt.title_text
        await wait_until(pilot, lambda: "known tags" in prompt.tag_input.known.note)
        await _typed(pilot, "datab")
        await pilot.press("end")
        assert prompt.tag_input.value == "database"
        await pilot.press("escape")


@pytest.mark.parametrize(
    ("model", "name", "prefix", "completed", "noun"),
    [
        ("profile:ProfileUpdate", "timezone", "Europe/Berl", "Europe/Berlin", "time zones"),
        ("object_storage:ObjectUrlCreate", "content_type", "text/htm", "text/html", "media types"),
    ],
)
async def test_time_zones_and_media_types_are_offered_from_this_machine(
    model: str, name: str, prefix: str, completed: str, noun: str
) -> None:
    import zoneinfo

    from tui.resources.choice_items import choice_items

    if name == "timezone" and "Europe/Berlin" not in zoneinfo.available_timezones():
        pytest.skip("no time zone database on this machine")
    app = make_app()

    async def load(source: ChoiceSource, _values: Mapping[str, Any]) -> list[tuple[str, Any]]:
        client = app.state.session.client
        items = await choice_items(client, source, {}, lambda _item: True, 2000)
        return [option for item in items for option in source.options(item)]

    async def submit(_body: dict[str, Any]) -> None:
        return None

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        modal = FormModal("Form", form_for(model), submit, load_choices=load)
        app.push_screen(modal)
        await wait_for_screen(pilot, FormModal)
        form = modal.model_form
        widget = form.widget_for(name)
        assert isinstance(widget, SuggestInput)
        widget.focus()
        await wait_until(pilot, lambda: widget.known.options)
        assert f"known {noun}" in _label(form, name)
        await _typed(pilot, prefix)
        await pilot.press("right")
        assert form.values()[name] == completed
