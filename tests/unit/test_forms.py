"""Forms generated from request models: inputs, conversion, validation and error placement."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field, StringConstraints

from tui.api.errors import FieldError
from tui.models.base import Password, RequestModel
from tui.resources.forms import (
    build_body,
    field_errors,
    form_for,
    generate_password,
    initial_values,
)


class Schedule(BaseModel):
    """A window."""

    day: Annotated[int, Field(ge=1, le=7)]
    """Day of the week."""
    hour: int | None = None
    """Hour (UTC)."""


class Interface(BaseModel):
    """One interface."""

    purpose: Literal["public", "vlan"]
    """What it is for."""
    label: str | None = None
    """VLAN label."""


class Sample(RequestModel):
    """A sample request."""

    label: Annotated[str, StringConstraints(min_length=3, max_length=64)]
    """Label, 3 to 64 characters."""
    region: str
    """Region id."""
    size: Annotated[int, Field(ge=10, le=100)] | None = None
    """Size in GB."""
    mode: Literal["a", "b"] = "a"
    """Mode."""
    booted: bool = True
    """Boot at once."""
    tags: list[str] | None = None
    """Tags."""
    ids: list[int] | None = None
    """Ids."""
    root_pass: Password | None = None
    """Root password."""
    data: dict[str, str] | None = None
    """Free data."""
    schedule: Schedule | None = None
    """Maintenance."""
    interfaces: Annotated[list[Interface], Field(max_length=3)] | None = None
    """Interfaces."""


def test_inputs_follow_the_annotations() -> None:
    form = form_for(Sample)
    kinds = {f.name: f.kind for f in form.fields}
    assert kinds["label"] == "text"
    assert kinds["region"] == "choice"  # choices loaded from the API
    assert form.field("region").source.endpoint == "compute.regions.list"  # type: ignore[union-attr]
    assert kinds["size"] == "int"
    assert kinds["mode"] == "choice"
    assert form.field("mode").choices == (("a", "a"), ("b", "b"))  # type: ignore[union-attr]
    assert kinds["booted"] == "bool"
    assert kinds["tags"] == "list"
    assert kinds["root_pass"] == "secret"
    assert kinds["data"] == "json"
    assert kinds["schedule.day"] == "int" and form.field("schedule.day").group == "Schedule"  # type: ignore[union-attr]
    # A list of at most 3 objects is 3 repeated groups.
    assert [n for n in kinds if n.startswith("interfaces.")] == [
        "interfaces.0.purpose",
        "interfaces.0.label",
        "interfaces.1.purpose",
        "interfaces.1.label",
        "interfaces.2.purpose",
        "interfaces.2.label",
    ]
    label = form.field("label")
    assert label is not None and label.required and label.help == "Label, 3 to 64 characters."
    assert "3..64 chars" in label.hint
    assert form.secret_names == ("root_pass",)


def test_a_valid_create_body_sends_only_what_was_given() -> None:
    form = form_for(Sample)
    result = build_body(
        form,
        {
            "label": " web-1 ",
            "region": "us-east",
            "size": "20",
            "booted": True,  # the default: not sent
            "tags": "a, b,,c ",
            "ids": "1,2",
            "root_pass": "s3cret-pass",
            "data": '{"k": "v"}',
            "schedule.day": "3",
            "interfaces.0.purpose": "public",
            "interfaces.1.purpose": "vlan",
            "interfaces.1.label": "backend",
        },
    )
    assert result.ok, result
    assert result.body == {
        "label": "web-1",
        "region": "us-east",
        "size": 20,
        "tags": ["a", "b", "c"],
        "ids": [1, 2],
        "root_pass": "s3cret-pass",
        "data": {"k": "v"},
        "schedule": {"day": 3},
        "interfaces": [{"purpose": "public"}, {"purpose": "vlan", "label": "backend"}],
    }


def test_client_side_errors_name_the_inputs() -> None:
    form = form_for(Sample)
    missing = build_body(form, {"label": "", "region": None})
    assert set(missing.errors) == {"label", "region"}
    assert missing.body is None
    bad = build_body(form, {"label": "ab", "region": "r", "size": "5", "data": "{oops"})
    assert "data" in bad.errors and "JSON" in bad.errors["data"]
    bad = build_body(form, {"label": "ab", "region": "r", "size": "5"})
    assert "at least 3" in bad.errors["label"]
    assert "size" in bad.errors
    wrong_number = build_body(form, {"label": "abc", "region": "r", "size": "ten"})
    assert wrong_number.errors == {"size": "Size must be a whole number"}
    # A group that is used needs its required inputs; an unused one is left out.
    group = build_body(form, {"label": "abc", "region": "r", "interfaces.1.label": "x"})
    assert group.errors == {"interfaces.1.purpose": "Purpose is required"}


def test_edit_forms_send_only_changes_and_whole_nested_objects() -> None:
    form = form_for(Sample)
    item = {"label": "web-1", "region": "us-east", "tags": ["a"], "schedule": {"day": 2, "hour": 4}}
    initial = initial_values(form, item)
    assert initial["tags"] == "a" and initial["schedule.day"] == "2"
    # Required fields are always sent; the others only when changed.
    required = {"label": "web-1", "region": "us-east"}
    unchanged = build_body(form, dict(initial), initial=initial)
    assert unchanged.ok and unchanged.body == required
    changed = dict(initial, **{"schedule.hour": "5"})
    assert build_body(form, changed, initial=initial).body == {
        **required,
        "schedule": {"day": 2, "hour": 5},
    }
    cleared = dict(initial, tags="")
    assert build_body(form, cleared, initial=initial).body == {**required, "tags": []}


class Update(RequestModel):
    """Changes."""

    label: str | None = None
    """Label."""
    description: str | None = None
    """Description."""


def test_an_untouched_edit_form_sends_nothing_and_a_cleared_field_sends_null() -> None:
    form = form_for(Update)
    initial = initial_values(form, {"label": "a", "description": "old"})
    assert build_body(form, dict(initial), initial=initial).body == {}
    cleared = build_body(form, dict(initial, description=""), initial=initial)
    assert cleared.body == {"description": None}


def test_server_errors_land_on_the_same_inputs() -> None:
    form = form_for(Sample)
    result = field_errors(
        form,
        [
            FieldError("label already in use", "label"),
            FieldError("bad day", "schedule.day"),
            FieldError("too many", "interfaces[1].purpose"),
            FieldError("the account has an outstanding balance"),
            FieldError("unknown thing", "nonsense"),
        ],
    )
    assert result.errors == {
        "label": "Label already in use",  # the input's title, not the API name
        "schedule.day": "bad day",
        "interfaces.1.purpose": "too many",
    }
    assert result.general == ["the account has an outstanding balance", "Nonsense: unknown thing"]


def test_secrets_are_never_prefilled() -> None:
    form = form_for(Sample)
    assert initial_values(form, {"root_pass": "x"})["root_pass"] == ""


@pytest.mark.parametrize("length", [8, 32, 128])
def test_generated_passwords_are_strong(length: int) -> None:
    password = generate_password(length)
    assert len(password) == length
    assert any(c.islower() for c in password) and any(c.isupper() for c in password)
    assert any(c.isdigit() for c in password) and any(not c.isalnum() for c in password)
    assert generate_password(length) != password


def test_every_form_of_every_spec_builds() -> None:
    from tui.resources.areas import SPECS

    for spec in SPECS.values():
        for action in spec.actions:
            if action.form:
                form = form_for(action.form)
                assert form.fields, action.id
                assert all(f.title for f in form.fields)
