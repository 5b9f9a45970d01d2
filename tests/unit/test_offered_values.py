"""Values the reference lists are offered, not typed: a zone's and a record's seconds, a
configuration profile's root device. The form offers them as a drop-down; the value chosen
reaches the body; the model still takes any value it took (the server rounds seconds up)."""

from __future__ import annotations

import pytest

from tui.models.compute import ConfigCreate
from tui.models.domains import RECORD_TTLS, ZONE_SECONDS, DomainCreate
from tui.resources.availability import UserContext, user_defaults
from tui.resources.forms import build_body, form_for

ZONE_FORMS = ("domains:DomainCreate", "domains:DomainUpdate")
SECONDS = ("expire_sec", "refresh_sec", "retry_sec", "ttl_sec")


@pytest.mark.parametrize("model", ZONE_FORMS)
@pytest.mark.parametrize("name", SECONDS)
def test_a_zone_form_offers_the_valid_seconds_with_0_as_the_default(model: str, name: str) -> None:
    field = form_for(model).field(name)
    assert field is not None and field.kind == "choice"
    assert tuple(value for _text, value in field.choices) == ZONE_SECONDS
    zero = dict((value, text) for text, value in field.choices)[0]
    assert zero.startswith("0: default")


@pytest.mark.parametrize("model", ("domains:RecordCreate", "domains:RecordUpdate"))
def test_a_record_form_offers_the_valid_ttls(model: str) -> None:
    field = form_for(model).field("ttl_sec")
    assert field is not None and field.kind == "choice"
    assert tuple(value for _text, value in field.choices) == RECORD_TTLS
    assert dict(field.choices)["3600 (1 hour)"] == 3600


def test_a_chosen_ttl_reaches_the_body_and_the_model_still_takes_any_value() -> None:
    form = form_for("domains:DomainCreate")
    values = {"domain": "example.org", "type": "master", "soa_email": "a@example.org"}
    result = build_body(form, {**values, "ttl_sec": 3600, "refresh_sec": 0})
    assert result.ok, result.errors
    assert result.body is not None
    assert result.body["ttl_sec"] == 3600 and result.body["refresh_sec"] == 0
    # The server rounds any other value up: the drop-down narrows the form, not the model.
    assert DomainCreate(domain="example.org", type="master", soa_email="a@b.org", ttl_sec=1000)


@pytest.mark.parametrize("model", ("compute:ConfigCreate", "compute:ConfigUpdate"))
def test_a_config_form_offers_the_devices_sda_to_sdh_as_root(model: str) -> None:
    field = form_for(model).field("root_device")
    assert field is not None and field.kind == "choice"
    assert [value for _text, value in field.choices] == [f"/dev/sd{c}" for c in "abcdefgh"]


def test_a_chosen_root_device_reaches_the_body() -> None:
    form = form_for("compute:ConfigCreate")
    values = {"label": "boot-b", "devices.sda.disk_id": 1, "root_device": "/dev/sdb"}
    result = build_body(form, values)
    assert result.body is not None and result.body.get("root_device") == "/dev/sdb", result
    assert ConfigCreate.model_validate({**result.body, "root_device": "/dev/vda"})


def test_a_new_zone_starts_with_the_profiles_email_when_it_is_known() -> None:
    assert user_defaults(UserContext(email="me@example.org")) == {"soa_email": "me@example.org"}
    assert user_defaults(UserContext()) == {}
