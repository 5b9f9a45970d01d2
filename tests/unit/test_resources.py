"""Resource specs: every area has a root, every endpoint named exists, adapters and formatting."""

from __future__ import annotations

import pytest

from tui.api.endpoints import REGISTRY
from tui.resources.adapters import compute_backups, grants, object_list, tagged_objects
from tui.resources.areas import (
    AREA_OF_SPEC,
    AREAS,
    SPECS,
    complete_command,
    resolve_command,
)
from tui.resources.format import (
    badge_text,
    copy_value,
    field_display,
    format_value,
    redact,
    sort_value,
    status_tone,
)
from tui.resources.spec import ResourceSpec

EXPECTED_AREAS = {
    "Instances",
    "Volumes",
    "Images",
    "Kernels",
    "Deployment scripts",
    "Load balancers",
    "Domains",
    "Databases",
    "Kubernetes",
    "Object storage",
    "Managed",
    "Tags",
    "Profile",
}


def test_thirteen_areas_each_with_a_root_spec() -> None:
    assert {a.title for a in AREAS} == EXPECTED_AREAS
    assert len({a.id for a in AREAS}) == 13
    for area in AREAS:
        assert area.root in SPECS, area
        for tab in area.tabs:
            assert tab in SPECS, (area.id, tab)


@pytest.mark.parametrize("spec", SPECS.values(), ids=lambda s: s.id)
def test_every_endpoint_of_a_spec_exists(spec: ResourceSpec) -> None:
    assert spec.list_endpoint in REGISTRY
    if spec.view_endpoint:
        assert spec.view_endpoint in REGISTRY
    for action in spec.actions:
        assert action.endpoint in REGISTRY, action.id
        if action.form:
            module, _, cls = action.form.partition(":")
            assert module and cls, action.form
    for child in spec.children:
        assert child.resource in SPECS, child
    for target in spec.item_specs.values():
        assert target in SPECS, target


@pytest.mark.parametrize("spec", SPECS.values(), ids=lambda s: s.id)
def test_path_parameters_are_provided(spec: ResourceSpec) -> None:
    """The list endpoint's parameters come from the parent; item endpoints add the item's."""
    listing = REGISTRY[spec.list_endpoint]
    assert set(listing.params) <= set(spec.parent_params), spec.id
    item_params = set(spec.item_params) or ({spec.id_param} if spec.id_param else set())
    for action in spec.actions:
        needed = set(REGISTRY[action.endpoint].params)
        given = set(spec.parent_params) | (item_params if action.target == "item" else set())
        assert needed <= given, (spec.id, action.id, needed - given)
    if spec.view_endpoint:
        assert set(REGISTRY[spec.view_endpoint].params) <= set(spec.parent_params) | item_params


def test_every_operation_of_both_documents_is_reachable_from_a_spec() -> None:
    used = set()
    for spec in SPECS.values():
        used |= {spec.list_endpoint, spec.view_endpoint, *(a.endpoint for a in spec.actions)}
    # Reached by hand-written screens instead (month pickers, ACL view inside the ACL form ...).
    elsewhere = {
        "compute.stats.month",
        "compute.transfer.month",
        "object_storage.buckets.access_modify",
        "object_storage.buckets.list_in_cluster",
        "object_storage.objects.acl_view",
        "profile.preferences.view",
    }
    assert set(REGISTRY) - used <= elsewhere


def test_action_ids_and_keys_are_unique_per_spec() -> None:
    ids = [a.id for s in SPECS.values() for a in s.actions]
    # The MySQL create action appears on the all-engines list and on the MySQL list.
    assert len(set(ids)) == len(ids) - 1
    reserved = {"r", "y", "J", "o", "O", "j", "k", "g", "G", "slash", "/", "?", ":"}
    reserved |= {"b"}  # bookmark, in every area
    reserved |= {"space", "asterisk", "ctrl+space", "ctrl+@"}  # marks
    for spec in SPECS.values():
        keys = [a.key for a in spec.actions if a.key]
        assert len(keys) == len(set(keys)), spec.id
        assert not set(keys) & reserved, spec.id


def test_contract_action_ids_of_complete_areas() -> None:
    instances = SPECS["compute.instances"]
    expected = {
        "compute.create": "n",
        "compute.edit": "e",
        "compute.delete": "d",
        "compute.boot": "B",
        "compute.reboot": "R",
        "compute.shutdown": "S",
        "compute.resize": "z",
        "compute.rescue": "x",
        "compute.stats": "s",
        "compute.tag": "number_sign",
        "compute.ssh": "h",
        "compute.ssh_choose": "H",
    }
    assert {a.id: a.key for a in instances.actions} == expected
    assert instances.action("compute.create").grant == "global:add_computes"
    assert instances.action("compute.delete").confirm == "typed"
    assert instances.action("compute.boot").allowed_statuses == ("offline", "stopped")
    assert instances.action("compute.stats").grant == "none"
    assert {a.id for a in SPECS["compute.configs"].actions} == {
        "compute.config_create",
        "compute.config_edit",
        "compute.config_delete",
    }
    profile_ids = {a.id for s in SPECS.values() if s.id.startswith("profile") for a in s.actions}
    assert {
        "profile.edit",
        "profile.app_revoke",
        "profile.device_revoke",
        "profile.phone_send",
        "profile.phone_verify",
        "profile.phone_delete",
        "profile.preferences",
    } <= profile_ids
    assert SPECS["compute.kernels"].quick_filter == ("architecture", ("x86_64", "i386"))


def test_every_spec_is_reachable_from_an_area() -> None:
    assert set(AREA_OF_SPEC) == set(SPECS)


def test_command_aliases() -> None:
    assert resolve_command("instances").area.id == "instances"
    assert resolve_command("in").area.id == "instances"
    assert resolve_command(":domains").area.id == "domains"
    assert resolve_command("k8s").area.id == "k8s"
    assert resolve_command("KEYS").spec == "object_storage.keys"
    assert resolve_command("nope") is None
    assert resolve_command("d") is None  # ambiguous prefix
    assert "domains" in complete_command("dom")
    assert complete_command("k8")[0] == "k8s"


def test_compute_backups_adapter() -> None:
    payload = {
        "automatic": [{"id": 1, "label": "auto"}],
        "snapshot": {"current": {"id": 2, "label": "snap"}, "in_progress": None},
    }
    items = compute_backups(payload).items
    assert [(i["id"], i["slot"]) for i in items] == [(2, "snapshot (current)"), (1, "automatic")]
    assert compute_backups({}).items == []


def test_object_list_adapter_follows_the_marker() -> None:
    first = object_list({"data": [{"name": "a"}], "is_truncated": True, "next_marker": "a"})
    assert first.items == [{"name": "a"}] and first.next_query == {"marker": "a"}
    last = object_list({"data": [{"name": "b"}], "is_truncated": False, "next_marker": None})
    assert last.next_query is None


def test_tagged_objects_adapter() -> None:
    items = tagged_objects(
        {
            "data": [
                {"type": "compute", "data": {"id": 5, "label": "web-1"}},
                {"type": "domain", "data": {"id": 5, "domain": "example.org"}},
            ]
        }
    ).items
    assert [i["_key"] for i in items] == ["compute:5", "domain:5"]
    assert items[1]["_label"] == "example.org"
    spec = SPECS["tags.objects"]
    assert spec.item_specs[items[0]["_kind"]] == "compute.instances"


def test_grants_adapter() -> None:
    rows = grants(
        {
            "compute": [{"id": 1, "label": "web-1", "permissions": "read_only"}],
            "global": {"add_computes": False, "add_domains": True},
        }
    ).items
    assert ("compute", "web-1", "read_only") in [
        (r["kind"], r["label"], r["permissions"]) for r in rows
    ]
    assert ("global", "add_domains", "yes") in [
        (r["kind"], r["label"], r["permissions"]) for r in rows
    ]
    assert grants({}).items == []


def test_formatting() -> None:
    assert format_value(2048, "mb") == "2 GB"
    assert format_value(None) == ""
    assert format_value(True) == "yes"
    assert format_value(["a", "b"], "list") == "a, b"
    assert format_value("2026-11-02T09:00:00", "datetime") == "2026-11-02 09:00"
    assert format_value("x\ny\x1b[31m") == "x␊y␛[31m"
    assert format_value("secret", "secret") != "secret"
    assert format_value("[/x]") == "[/x]"
    assert format_value(3306, "int") == "3306"
    assert sort_value(10) < sort_value(9.5 + 1)
    assert sort_value("B") > sort_value("a")
    assert sort_value(None) > sort_value("zzz")


def test_status_badges_carry_text_and_shape() -> None:
    assert status_tone("running") == "ok"
    assert status_tone("provisioning") == "busy"
    assert status_tone("failed") == "error"
    assert status_tone("offline") == "muted"
    assert badge_text("shutting_down") == "◐ shutting down"
    assert badge_text(None) == ""


def test_copy_value_prefers_address() -> None:
    spec = SPECS["compute.instances"]
    assert copy_value(spec, {"id": 1, "ipv4": ["192.0.2.1"]}) == ("ipv4.0", "192.0.2.1")
    assert copy_value(spec, {"id": 1, "ipv4": []}) == ("id", "1")


def test_redact_masks_secrets() -> None:
    data = {"username": "root", "password": "hunter2", "nested": [{"secret_key": "s"}]}
    masked = redact(data)
    assert masked["username"] == "root"
    assert "hunter2" not in str(masked) and "'s'" not in str(masked)


def test_redact_masks_script_fields_named_as_secrets() -> None:
    body = {
        "stackscript_data": {"db_pass": "p1", "API_TOKEN": "t1", "app-secret": "s1", "site": "x"},
        "check_passive": True,
        "private_ip": True,
    }
    masked = redact(body)
    assert masked["stackscript_data"]["site"] == "x"
    assert not {"p1", "t1", "s1"} & set(masked["stackscript_data"].values())
    assert masked["check_passive"] is True and masked["private_ip"] is True


def test_item_params() -> None:
    bucket = SPECS["object_storage.buckets"]
    assert bucket.params_for({"label": "b1", "cluster": "us-east-1"}) == {
        "clusterId": "us-east-1",
        "bucket": "b1",
    }
    configs = SPECS["compute.configs"]
    assert configs.params_for({"id": 7}, {"computeId": 3}) == {"computeId": 3, "configId": 7}


def test_open_target_picks_the_spec_that_opens_an_item() -> None:
    from tui.resources.areas import open_target

    assert open_target(SPECS["databases"], {"engine": "mongodb"}).id == "databases.mongodb"
    assert open_target(SPECS["compute.volumes"], {"id": 1}).id == "volumes"
    assert open_target(SPECS["tags.objects"], {"_kind": "domain"}).id == "domains"
    assert open_target(SPECS["tags.objects"], {"_kind": "firewall"}).id == "tags.objects"
    assert open_target(SPECS["domains"], {"id": 1}).id == "domains"


def test_series_are_summarised() -> None:
    assert format_value([{"x": 1, "y": 2.5}, {"x": 2, "y": 3}], "series") == "2 points, latest 3"
    assert format_value([], "series") == "no data"


def test_zero_shows_what_the_api_means_by_it() -> None:
    zone = SPECS["domains"]
    fields = {f.key: f for s in zone.sections for f in s.fields}
    assert field_display({"retry_sec": 0}, fields["retry_sec"]) == "default (14400)"
    assert field_display({"retry_sec": 7200}, fields["retry_sec"]) == "7200"
    record = SPECS["domains.records"]
    ttl = next(f for s in record.sections for f in s.fields if f.key == "ttl_sec")
    assert field_display({"ttl_sec": 0}, ttl) == "0"
