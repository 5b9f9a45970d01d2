"""Free inputs with likely values (``FormField.suggest``): every form's ``tags`` and the fields
whose model names a listing (``suggested(...)``) get their listings, and keep their kind (any
value may still be typed: the model decides)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.test_form_audit import forms_of_actions
from tui.resources.forms import SUGGESTION_SOURCES, form_for


def test_every_tags_input_of_every_form_suggests_the_accounts_tags() -> None:
    tag_inputs = [
        (model, f)
        for model in forms_of_actions()
        for f in form_for(model).fields
        if f.name.rsplit(".", 1)[-1] == "tags"
    ]
    assert len({model.split(":")[0] for model, _f in tag_inputs}) >= 5  # areas with tags
    for model, f in tag_inputs:
        assert f.kind == "list", model
        assert [s.endpoint for s in f.suggest] == ["tags.list"], model


def test_the_fields_a_model_marks_suggest_their_listing_and_keep_their_kind() -> None:
    cases = {
        ("managed:ContactCreate", "group"): ("contact_group", "text"),
        ("managed:ContactUpdate", "group"): ("contact_group", "text"),
        ("managed:ComputeSettingsUpdate", "ssh.ip"): ("instance_address", "text"),
        ("databases:DatabaseCreate", "allow_list"): ("public_address", "lines"),
        ("databases:DatabaseUpdate", "allow_list"): ("public_address", "lines"),
        ("domains:RecordCreate", "target"): ("record_address", "text"),
        ("domains:RecordUpdate", "target"): ("record_address", "text"),
    }
    for (model, name), (source, kind) in cases.items():
        f = form_for(model).field(name)
        assert f is not None, (model, name)
        assert f.suggest == SUGGESTION_SOURCES[source], (model, name)
        assert f.kind == kind and f.source is None and not f.choices, (model, name)


def test_a_public_address_leaves_out_the_private_ranges() -> None:
    (source,) = SUGGESTION_SOURCES["public_address"]
    item = {"label": "web-1", "ipv4": ["203.0.113.7", "192.168.1.4", "10.0.0.2", "172.20.0.1"]}
    assert [value for _text, value in source.options(item)] == ["203.0.113.7"]


def test_other_groups_suggest_nothing() -> None:
    # A domain's or an instance's display group is not a contact group.
    assert not form_for("domains:DomainCreate").field("group").suggest
    assert not form_for("compute:InstanceCreate").field("group").suggest


async def test_time_zones_countries_and_media_types_come_from_this_machine_without_a_request() -> (
    None
):
    from tui.resources.choice_items import choice_items

    class NoClient:
        async def call(self, *args: object, **kwargs: object) -> object:
            raise AssertionError("a local source sent a request")

    import zoneinfo

    cases = {("object_storage:ObjectUrlCreate", "content_type"): "text/html"}
    if zoneinfo.available_timezones():  # the machine's time zone database (tzdata)
        cases[("profile:ProfileUpdate", "timezone")] = "UTC"
        cases[("profile:PhoneCodeSend", "iso_code")] = "DE"
    for (model, name), known in cases.items():
        f = form_for(model).field(name)
        assert f is not None and f.kind == "text" and not f.choices, (model, name)
        (source,) = f.suggest
        items = await choice_items(NoClient(), source, {}, lambda _item: True, 2000)  # type: ignore[arg-type]
        values = [value for item in items for _text, value in source.options(item)]
        assert known in values and len(values) > 50, (model, name)


async def test_the_profiles_own_keys_are_offered_from_this_machines_ssh_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui.resources.choice_items import choice_items

    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHBRw170QtFanrmRo238pE+Eq4kY66k933Co+JLKw7DD me@here"
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".ssh" / "id_ed25519.pub").write_text(key + "\n")
    monkeypatch.setenv("HOME", str(tmp_path))
    f = form_for("profile:ProfileUpdate").field("authorized_keys")
    assert f is not None and f.kind == "lines"  # pasted lines still go in
    (source,) = f.suggest
    items = await choice_items(None, source, {}, lambda _item: True, 2000)  # type: ignore[arg-type]
    assert [value for item in items for _text, value in source.options(item)] == [key]
    # A new instance's keys stay ticked among the profile's and this machine's.
    assert form_for("compute:InstanceCreate").field("authorized_keys").kind == "picks"
