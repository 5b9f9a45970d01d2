"""Form messages a user reads: titles not API names, characters not entries, no "optional"
field later reported required, and values that cannot be undone are known to the form."""

from __future__ import annotations

from tui.resources.forms import (
    build_body,
    field_errors,
    form_for,
    irreversible_changes,
    with_pickers,
)


def test_a_conditionally_required_field_says_when_instead_of_optional() -> None:
    form = form_for("domains:DomainCreate")
    soa = form.field("soa_email")
    assert soa is not None and "optional" not in soa.hint
    assert soa.hint.endswith("required for a master zone")
    result = build_body(form, {"domain": "example.com", "type": "master"})
    assert result.errors == {"soa_email": "SOA email is required for a master zone"}


def test_every_field_a_model_check_can_require_is_not_shown_optional() -> None:
    for ref in (
        "domains:DomainCreate",
        "domains:RecordCreate",
        "databases:MaintenanceWindowRequest",
        "k8s:AutoscalerRequest",
    ):
        model = form_for(ref).model
        for name in model.required_when:  # type: ignore[attr-defined]
            field = form_for(ref).field(name)
            assert field is not None, (ref, name)
            assert "optional" not in field.hint, (ref, name, field.hint)


def test_password_length_is_counted_in_characters() -> None:
    form = form_for("compute:InstanceCreate")
    values = {"region": "us-east", "type": "g6-nanode-1", "image": "compute/debian12"}
    result = build_body(form, {**values, "root_pass": "abc"})
    assert "characters" in result.errors["root_pass"]
    assert "entries" not in result.errors["root_pass"]


def test_list_length_is_still_counted_in_entries() -> None:
    form = form_for("deployscripts:DeployScriptCreate")
    result = build_body(form, {"label": "abc", "images": "", "script": "#!/bin/sh\n"})
    assert "images" in result.errors


def test_a_model_check_naming_its_field_lands_on_that_input() -> None:
    form = form_for("databases:MaintenanceWindowRequest")
    values = {"frequency": "monthly", "day_of_week": 1, "duration": 1, "hour_of_day": 1}
    result = build_body(form, values)
    assert result.errors == {"week_of_month": "Week of month is required for a monthly window"}
    assert not result.general


def test_server_errors_naming_a_field_land_on_it_in_titles() -> None:
    form = form_for("domains:DomainCreate")
    placed = field_errors(form, [{"field": None, "reason": "soa_email must be an address"}])
    assert placed.errors == {"soa_email": "SOA email must be an address"}
    indexed = field_errors(
        form_for("loadbalancers:LoadBalancerCreate"),
        [{"reason": "configs[0].port: port 80 is used twice"}],
    )
    assert indexed.general == [] and list(indexed.errors.values()) == ["Port 80 is used twice"]


def test_making_a_script_public_is_known_as_irreversible() -> None:
    form = form_for("deployscripts:DeployScriptUpdate")
    body = build_body(form, {"is_public": True}, initial={"is_public": False}).body
    assert body == {"is_public": True}
    assert irreversible_changes(form, body)
    assert not irreversible_changes(form, {"label": "x"})
    cluster = form_for("k8s:ClusterCreate")
    assert irreversible_changes(cluster, {"control_plane": {"high_availability": True}})


def test_a_disk_is_chosen_after_its_instance_when_the_action_has_none() -> None:
    form = with_pickers(form_for("images:ImageCreate"), {})
    names = [f.name for f in form.fields]
    assert names[:2] == ["compute_id", "disk_id"]
    picker = form.fields[0]
    assert not picker.send and picker.title == "Instance"
    result = build_body(form, {"compute_id": 5, "disk_id": 7})
    assert result.body == {"disk_id": 7}  # the picker is never sent
    inside = with_pickers(form_for("images:ImageCreate"), {"computeId": 5})
    assert inside.fields[0].name == "disk_id"
