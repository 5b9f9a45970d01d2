"""The choice-or-type inputs: a list field completes only the item being typed and appends a
value chosen with ctrl+o; a one-line field takes any text; a text area completes the line
being typed; and an API value with control characters is drawn as display text while the
value keeps what the account holds."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult

from tests.ui.helpers import wait_for_screen, wait_until
from tui.resources.forms import FormField
from widgets.chooser_modal import ChooserModal
from widgets.form_inputs import inputs_for
from widgets.suggest_input import SuggestArea, SuggestInput

TAGS = [("production", "production"), ("staging", "staging"), ("web", "web")]
HOSTILE = "ev\x1b]52;c;aGk=\x07il"


class _Inputs(App[None]):
    def compose(self) -> ComposeResult:
        tags = FormField("tags", "Tags", "list", suggest=(_source(),))
        group = FormField("group", "Group", "text", suggest=(_source(),))
        lines = FormField("allow_list", "Allow list", "lines", suggest=(_source(),))
        yield from inputs_for(tags, "tags", None)
        yield from inputs_for(group, "group", None)
        yield from inputs_for(lines, "lines", None)


def _source() -> Any:
    from tui.resources.forms import SUGGESTION_SOURCES

    return SUGGESTION_SOURCES["tags"][0]


def _drawn(widget: Any) -> str:
    return "".join(segment.text for segment in widget.render_line(0))


async def _chooser(pilot: Any) -> ChooserModal:
    """The chooser, once its filter takes the keys typed."""
    chooser: ChooserModal = await wait_for_screen(pilot, ChooserModal)
    await wait_until(pilot, lambda: chooser.focused is not None)
    return chooser


async def _typed(pilot: Any, text: str) -> None:
    await pilot.press(*[" " if c == " " else c for c in text])


async def _pick(pilot: Any, query: str) -> ChooserModal:
    """ctrl+o, then ``query`` typed into the chooser's filter and enter."""
    await pilot.press("ctrl+o")
    chooser = await _chooser(pilot)
    await _typed(pilot, query)
    await pilot.press("enter")
    return chooser


async def test_a_list_field_completes_the_last_item_and_right_accepts_it() -> None:
    app = _Inputs()
    async with app.run_test(size=(80, 24)) as pilot:
        tags = app.query_one("#tags", SuggestInput)
        tags.known.set("tags", TAGS)
        tags.focus()
        await _typed(pilot, "web, pro")
        # The completion is drawn after what was typed, and only the last item is completed.
        await wait_until(pilot, lambda: "web, production" in _drawn(tags))
        assert tags.value == "web, pro"
        await pilot.press("right")
        assert tags.value == "web, production"
        # An item already in the list is not offered again; free text stays as typed.
        await _typed(pilot, ", we")
        await pilot.press("end")
        assert tags.value == "web, production, we"
        await _typed(pilot, "b2")
        assert tags.value == "web, production, web2"


async def test_ctrl_o_appends_the_value_chosen_to_a_list_already_holding_one() -> None:
    app = _Inputs()
    async with app.run_test(size=(80, 24)) as pilot:
        tags = app.query_one("#tags", SuggestInput)
        tags.known.set("tags", TAGS)
        tags.focus()
        await _typed(pilot, "web")
        await pilot.press("ctrl+o")
        chooser: ChooserModal = await _chooser(pilot)
        assert [row.value for row in chooser.shown] == ["production", "staging", "web"]
        await _typed(pilot, "stag")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is not chooser)
        assert tags.value == "web, staging"
        assert tags.has_focus


async def test_a_one_line_field_takes_the_value_chosen_or_any_text() -> None:
    app = _Inputs()
    async with app.run_test(size=(80, 24)) as pilot:
        group = app.query_one("#group", SuggestInput)
        group.known.set("tags", TAGS)
        group.focus()
        await _typed(pilot, "sta")
        await pilot.press("right")
        assert group.value == "staging"
        await _pick(pilot, "web")
        await wait_until(pilot, lambda: group.value == "web")
        group.value = ""
        await _typed(pilot, "brand-new")
        await pilot.press("right")
        assert group.value == "brand-new"


async def test_a_text_area_completes_the_line_being_typed_and_adds_a_chosen_line() -> None:
    app = _Inputs()
    async with app.run_test(size=(80, 24)) as pilot:
        area = app.query_one("#lines", SuggestArea)
        area.known.set("tags", TAGS)
        area.focus()
        await _typed(pilot, "10.0.0.0/8")
        await pilot.press("enter")
        await _typed(pilot, "pro")
        await pilot.press("right")
        assert area.text == "10.0.0.0/8\nproduction"
        await _pick(pilot, "web")
        await wait_until(pilot, lambda: area.text == "10.0.0.0/8\nproduction\nweb")


async def test_a_value_with_control_characters_is_drawn_as_display_text() -> None:
    app = _Inputs()
    async with app.run_test(size=(80, 24)) as pilot:
        tags = app.query_one("#tags", SuggestInput)
        tags.known.set("tags", [(HOSTILE, HOSTILE)])
        tags.focus()
        await _typed(pilot, "ev")
        await wait_until(pilot, lambda: "il" in _drawn(tags))
        assert "\x1b" not in _drawn(tags) and "\x07" not in _drawn(tags)
        assert "␛" in _drawn(tags)
        await pilot.press("right")
        assert tags.value == HOSTILE  # what the account has
        drawn = _drawn(tags)
        assert "\x1b" not in drawn and "\x07" not in drawn and "␛]52" in drawn


async def test_the_hint_counts_the_known_values_or_says_why_there_are_none() -> None:
    app = _Inputs()
    async with app.run_test(size=(80, 24)):
        tags = app.query_one("#tags", SuggestInput)
        assert tags.known.note == "ctrl+o: tags listed once focused"
        tags.known.set("tags", TAGS)
        assert tags.known.note == "ctrl+o: 3 known tags"
        tags.known.set("tags", TAGS[:1])
        assert tags.known.note == "ctrl+o: 1 known tag"
        tags.known.failed("tags", "server error")
        assert "could not be loaded (server error)" in tags.known.note
