"""The parts of a list that hold its state apart from the table: the filter and the marks."""

from __future__ import annotations

from typing import Any

from screens.lists.filter import RowFilter
from screens.lists.marks import Marks
from tui.resources.areas import SPECS
from tui.resources.spec import Action

KERNELS = SPECS["compute.kernels"]
INSTANCES = SPECS["compute.instances"]


def test_the_quick_filter_cycles_through_its_values_then_shows_all_again() -> None:
    assert KERNELS.quick_filter is not None
    field, values = KERNELS.quick_filter
    row_filter = RowFilter(KERNELS)
    assert row_filter.quick_value is None and row_filter.quick_label == f"{field}: all"
    seen = []
    for _ in values:
        row_filter.cycle_quick()
        seen.append(row_filter.quick_value)
    assert seen == list(values)
    row_filter.cycle_quick()
    assert row_filter.quick_value is None
    row_filter.set_quick(values[-1])
    assert row_filter.quick_label == f"{field}: {values[-1]}"
    row_filter.set_quick("no such value")
    assert row_filter.quick_value is None


def test_a_list_without_a_quick_filter_says_nothing_of_one() -> None:
    row_filter = RowFilter(INSTANCES)
    row_filter.cycle_quick()
    assert row_filter.quick_value is None and row_filter.quick_label == ""


def test_the_filter_names_a_field_no_item_has() -> None:
    row_filter = RowFilter(INSTANCES)
    items: list[dict[str, Any]] = [{"label": "web-1", "status": "running"}]
    row_filter.set_text("colour:red")
    assert "colour" in row_filter.missing_fields_note(items)
    row_filter.set_text("status:running")
    assert row_filter.missing_fields_note(items) == ""
    row_filter.set_text("")
    assert row_filter.text == "" and row_filter.missing_fields_note(items) == ""


def _bulk_action() -> Action:
    return next(a for a in INSTANCES.actions if a.bulk and a.target == "item")


def test_marks_remember_the_last_run_while_its_rows_are_listed() -> None:
    marks = Marks()
    items = {1: {"id": 1}, 2: {"id": 2}, 3: {"id": 3}}
    assert Marks.marked_items(items, {3, 1, 9}) == [{"id": 1}, {"id": 3}]  # list order
    assert not marks.can_mark_again(items, set())
    marks.last_run = frozenset({1, 2, 9})
    assert marks.again(items) == {1, 2}  # 9 is no longer listed
    assert marks.can_mark_again(items, {1})
    assert not marks.can_mark_again(items, {1, 2})


def test_a_bulk_action_acts_on_marks_only_when_rows_are_marked() -> None:
    action = _bulk_action()
    assert Marks.acts_on_marks(action, {1})
    assert not Marks.acts_on_marks(action, set())


def test_whether_the_marks_offer_an_action_is_asked_once_per_context() -> None:
    marks = Marks()
    action = _bulk_action()
    asked: list[bool] = []

    def allowed() -> bool:
        asked.append(True)
        return True

    assert marks.offered(action, ("marks", 1), allowed)
    assert marks.offered(action, ("marks", 1), allowed)
    assert len(asked) == 1
    assert marks.offered(action, ("marks", 2), allowed)  # the marks, items or user changed
    assert len(asked) == 2
