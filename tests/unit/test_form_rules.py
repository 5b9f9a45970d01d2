"""Fields that follow the choice, headless: every conditional rule beside the request models
(``shown_when``) and the cross-field rules they come with, as the form builder, the client-side
check and so the request preview read them."""

from __future__ import annotations

from typing import Any

import pytest

from tui.models.rules import GIVEN, NOT_SENT, When
from tui.resources.form_rules import hidden_names
from tui.resources.forms import (
    CHOICE_SOURCES,
    FormSpec,
    add_row,
    build_body,
    form_for,
    with_pickers,
)


def shown(form: FormSpec, values: dict[str, Any], context: dict[str, Any] | None = None) -> list:
    hidden = hidden_names(form, values, context)
    return [f.name for f in form.fields if f.name not in hidden]


# -- the rule itself ------------------------------------------------------------------------


def test_a_rule_shows_requires_and_fills_blanks_by_value() -> None:
    rule = When("type", ("MX", "SRV"), required=("SRV",), blank={"MX": ""}, notes={"MX": "m"})
    assert rule.shows("MX") and rule.shows("SRV") and not rule.shows("A")
    assert rule.needs("SRV") and not rule.needs("MX") and not rule.needs("A")
    assert rule.blank_value("MX") == "" and rule.blank_value("SRV") is NOT_SENT
    assert rule.note("MX") == "m" and rule.note("SRV") == ""
    assert When("protocol", ("https",), unset="http").decider("") == "http"
    assert rule.at("configs.0.").field == "configs.0.type"


def test_given_matches_any_value_and_none_matches_blank() -> None:
    with_image, without = When("image", (GIVEN,)), When("image", (None,))
    assert with_image.shows("compute/debian12") and not with_image.shows(None)
    assert without.shows(without.decider("  ")) and not without.shows("compute/debian12")


# -- DNS records by type --------------------------------------------------------------------

RECORD = form_for("domains:RecordCreate")
COMMON = ["type", "name", "target", "ttl_sec"]


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("A", COMMON),
        ("AAAA", COMMON),
        ("NS", COMMON),
        ("CNAME", COMMON),
        ("TXT", COMMON),
        ("PTR", COMMON),
        ("MX", [*COMMON, "priority"]),
        ("SRV", ["type", "service", "protocol", "target", "ttl_sec", "priority", "weight", "port"]),
        ("CAA", [*COMMON, "tag"]),
    ],
)
def test_each_record_type_asks_only_for_its_fields(kind: str, fields: list[str]) -> None:
    assert shown(RECORD, {"type": kind}) == fields


def test_nothing_but_the_type_before_a_type_is_chosen() -> None:
    assert shown(RECORD, {}) == ["type"]


def test_a_hidden_input_is_never_sent() -> None:
    result = build_body(RECORD, {"type": "A", "target": "203.0.113.7", "weight": "5", "tag": ""})
    assert result.body == {"type": "A", "target": "203.0.113.7"}


def test_srv_requires_its_fields_and_names_the_type() -> None:
    result = build_body(RECORD, {"type": "SRV", "target": "sip.example.org"})
    assert set(result.errors) == {"priority", "weight", "port", "service"}
    assert result.errors["weight"] == "Weight is required for SRV"


def test_srv_ranges_are_checked_before_sending() -> None:
    values = {"type": "SRV", "target": "sip", "service": "sip", "priority": "10", "weight": "5"}
    assert "port" in build_body(RECORD, {**values, "port": "70000"}).errors
    assert "priority" in build_body(RECORD, {**values, "port": "1", "priority": "256"}).errors
    ok = build_body(RECORD, {**values, "port": "5060", "protocol": "tcp"})
    assert ok.body == {**values, "priority": 10, "weight": 5, "port": 5060, "protocol": "tcp"}


@pytest.mark.parametrize(
    ("kind", "target", "ok"),
    [
        ("A", "203.0.113.7", True),
        ("A", "[remote_addr]", True),
        ("A", "2001:db8::1", False),
        ("A", "www.example.org", False),
        ("AAAA", "2001:db8::1", True),
        ("AAAA", "203.0.113.7", False),
        ("AAAA", "[remote_addr]", False),
        ("NS", "ns1.example.org", True),
        ("NS", "not a host", False),
        ("CNAME", "web.example.org", True),
        ("TXT", "v=spf1 -all", True),
        ("PTR", "host.example.org", True),
    ],
)
def test_targets_are_checked_by_address_family_and_host_name(
    kind: str, target: str, ok: bool
) -> None:
    name = {"CNAME": "www"}.get(kind, "")
    result = build_body(RECORD, {"type": kind, "target": target, "name": name})
    assert result.ok is ok, result.errors
    if not ok:
        assert "target" in result.errors


def test_a_cname_needs_a_name() -> None:
    result = build_body(RECORD, {"type": "CNAME", "target": "web.example.org"})
    assert set(result.errors) == {"name"}


def test_a_null_mx_is_an_empty_name_and_an_empty_target_as_the_spec_says() -> None:
    result = build_body(RECORD, {"type": "MX"})
    assert result.body == {"type": "MX", "target": ""}
    assert build_body(RECORD, {"type": "MX", "priority": "0"}).body == {
        "type": "MX",
        "target": "",
        "priority": 0,
    }
    named = build_body(RECORD, {"type": "MX", "name": "mail"})
    assert "Null MX" in named.errors["name"]
    preferred = build_body(RECORD, {"type": "MX", "priority": "10"})
    assert "Null MX" in preferred.errors["priority"]


def test_an_mx_target_is_a_host_with_a_priority() -> None:
    result = build_body(RECORD, {"type": "MX", "target": "mx.example.org", "priority": "10"})
    assert result.body == {"type": "MX", "target": "mx.example.org", "priority": 10}
    assert "target" in build_body(RECORD, {"type": "MX", "target": "mx..org"}).errors


@pytest.mark.parametrize(
    ("tag", "value", "ok"),
    [
        ("issue", "letsencrypt.org", True),
        ("issuewild", "*.letsencrypt.org", True),
        ("issuewild", "letsencrypt.org", False),
        ("iodef", "mailto:security@example.org", True),
        ("iodef", "https://example.org/caa", True),
        ("iodef", "ftp://example.org", False),
    ],
)
def test_caa_values_follow_the_tag(tag: str, value: str, ok: bool) -> None:
    result = build_body(RECORD, {"type": "CAA", "tag": tag, "target": value})
    assert result.ok is ok, result.errors


def test_caa_needs_a_tag() -> None:
    assert set(build_body(RECORD, {"type": "CAA", "target": "ca.example"}).errors) == {"tag"}


def test_the_target_hint_follows_the_type() -> None:
    from tui.resources.form_rules import deciding_values, hint_note

    target = RECORD.field("target")
    assert target is not None
    for kind, words in (("A", "IPv4"), ("AAAA", "IPv6"), ("MX", "Null MX"), ("CAA", "iodef")):
        assert words in hint_note(target, deciding_values(RECORD, {"type": kind}))


def test_a_record_edit_follows_the_type_of_the_record() -> None:
    form = form_for("domains:RecordUpdate")
    srv = {"type": "SRV", "target": "sip.example.org"}
    assert "weight" in shown(form, {}, srv)
    assert "weight" not in shown(form, {}, {"type": "A"})
    result = build_body(form, {"weight": "7", "target": "a.example"}, initial={}, context=srv)
    assert result.body is not None and result.body["weight"] == 7


# -- domains --------------------------------------------------------------------------------


def test_a_master_zone_asks_for_the_soa_email_and_a_slave_for_master_ips() -> None:
    form = form_for("domains:DomainCreate")
    master, slave = shown(form, {"type": "master"}), shown(form, {"type": "slave"})
    assert "soa_email" in master and "master_ips" not in master
    assert "master_ips" in slave and "soa_email" not in slave
    assert set(build_body(form, {"domain": "example.org", "type": "slave"}).errors) == {
        "master_ips"
    }
    body = build_body(
        form,
        {"domain": "example.org", "type": "slave", "master_ips": "192.0.2.1", "soa_email": "x"},
    ).body
    assert body == {"domain": "example.org", "type": "slave", "master_ips": ["192.0.2.1"]}


def test_an_import_is_a_domain_and_a_remote_nameserver() -> None:
    form = form_for("domains:DomainImport")
    assert [f.name for f in form.fields] == ["domain", "remote_nameserver"]
    assert all(f.required for f in form.fields)
    bad = build_body(form, {"domain": "example.org", "remote_nameserver": "not a host"})
    assert "remote_nameserver" in bad.errors
    ok = build_body(form, {"domain": "example.org", "remote_nameserver": "ns1.example.net"})
    assert ok.ok


# -- load balancers -------------------------------------------------------------------------

LB = form_for("loadbalancers:LoadBalancerCreate")
BASE = {"region": "us-east", "configs.0.nodes.0.address": "192.168.1.5"}
NODE = {**BASE, "configs.0.nodes.0.label": "web-a"}


def test_configs_and_nodes_are_rows_not_json() -> None:
    assert not [f for f in LB.fields if f.kind == "json"]
    assert set(LB.repeats) == {"configs", "configs.0.nodes"}
    assert LB.field("configs.0.nodes.0.address") is not None


@pytest.mark.parametrize(
    ("protocol", "present", "absent"),
    [
        (None, [], ["ssl_cert", "ssl_key", "cipher_suite", "proxy_protocol"]),
        ("http", [], ["ssl_cert", "ssl_key", "cipher_suite", "proxy_protocol"]),
        ("https", ["ssl_cert", "ssl_key", "cipher_suite"], ["proxy_protocol"]),
        ("tcp", ["proxy_protocol"], ["ssl_cert", "ssl_key", "cipher_suite"]),
    ],
)
def test_config_fields_follow_the_protocol(
    protocol: str | None, present: list[str], absent: list[str]
) -> None:
    names = shown(LB, {"configs.0.protocol": protocol})
    assert all(f"configs.0.{n}" in names for n in present)
    assert not any(f"configs.0.{n}" in names for n in absent)


@pytest.mark.parametrize(
    ("check", "present"),
    [
        (None, []),
        ("none", []),
        ("connection", ["check_interval", "check_timeout", "check_attempts"]),
        ("http", ["check_interval", "check_timeout", "check_attempts", "check_path"]),
        (
            "http_body",
            ["check_interval", "check_timeout", "check_attempts", "check_path", "check_body"],
        ),
    ],
)
def test_config_fields_follow_the_health_check(check: str | None, present: list[str]) -> None:
    every = ["check_interval", "check_timeout", "check_attempts", "check_path", "check_body"]
    names = shown(LB, {"configs.0.check": check})
    assert [n for n in every if f"configs.0.{n}" in names] == present
    assert "configs.0.check_passive" in names  # passive checks are always there


def test_https_requires_certificate_and_key() -> None:
    result = build_body(LB, {**NODE, "configs.0.protocol": "https"})
    assert set(result.errors) == {"configs.0.ssl_cert", "configs.0.ssl_key"}


def test_a_certificate_typed_for_https_is_not_sent_once_the_protocol_is_http() -> None:
    values = {**NODE, "configs.0.protocol": "http", "configs.0.ssl_cert": "x"}
    body = build_body(LB, values).body
    assert body is not None and "ssl_cert" not in body["configs"][0]


def test_http_checks_require_a_path_and_http_body_a_body() -> None:
    http = build_body(LB, {**NODE, "configs.0.check": "http"})
    assert set(http.errors) == {"configs.0.check_path"}
    body = build_body(LB, {**NODE, "configs.0.check": "http_body", "configs.0.check_path": "/"})
    assert set(body.errors) == {"configs.0.check_body"}


def test_the_check_timeout_must_be_less_than_the_interval() -> None:
    values = {**NODE, "configs.0.check": "connection"}
    late = build_body(
        LB, {**values, "configs.0.check_interval": "10", "configs.0.check_timeout": "10"}
    )
    assert "less than" in late.errors["configs.0.check_timeout"]
    fine = build_body(
        LB, {**values, "configs.0.check_interval": "11", "configs.0.check_timeout": "10"}
    )
    assert fine.ok


def test_cookie_stickiness_needs_http_or_https() -> None:
    values = {**NODE, "configs.0.protocol": "tcp", "configs.0.stickiness": "http_cookie"}
    assert "configs.0.stickiness" in build_body(LB, values).errors


def test_a_config_needs_a_node_and_a_node_its_label() -> None:
    no_label = build_body(LB, {**BASE})
    assert set(no_label.errors) == {"configs.0.nodes.0.label"}
    empty = build_body(LB, {"region": "us-east", "configs.0.port": "8080"})
    assert "node" in " ".join(empty.errors.values()).lower()


def test_rows_are_added_and_a_spare_row_is_not_sent() -> None:
    form, new = add_row(LB, "configs.0.nodes")
    assert [f.name for f in new] == [
        "configs.0.nodes.1.address",
        "configs.0.nodes.1.port",
        "configs.0.nodes.1.label",
        "configs.0.nodes.1.mode",
        "configs.0.nodes.1.weight",
    ]
    assert form.rows("configs.0.nodes") == 2
    body = build_body(form, NODE).body
    assert body is not None and len(body["configs"][0]["nodes"]) == 1
    two = build_body(
        form, {**NODE, "configs.0.nodes.1.address": "192.168.1.6", "configs.0.nodes.1.label": "b"}
    )
    assert "configs.0.nodes.1.label" in two.errors  # 3..32 characters, checked per row
    form, new = add_row(form, "configs")
    assert "configs.1.nodes.0.address" in {f.name for f in new}
    assert "configs.1.nodes" in form.repeats
    assert "configs.1.ssl_cert" in {f.name for f in form.fields}


def test_two_configs_on_one_port_are_refused() -> None:
    form, _ = add_row(LB, "configs")
    values = {
        **NODE,
        "configs.1.nodes.0.address": "192.168.1.6",
        "configs.1.nodes.0.label": "web-b",
    }
    result = build_body(form, values)
    assert "used twice" in " ".join(result.errors.values())


def test_a_node_address_is_chosen_among_private_addresses() -> None:
    node = LB.field("configs.0.nodes.0.address")
    assert node is not None and node.kind == "choice" and node.source is not None
    source = node.source
    instance = {"label": "web", "region": "us-east", "ipv4": ["192.0.2.2", "192.168.128.2"]}
    assert source.options(instance) == [("192.168.128.2 — web (us-east)", "192.168.128.2")]
    assert source.accepts(instance, {"region": "us-east"})
    assert not source.accepts(instance, {"region": "eu-west"})  # the balancer's region


def test_a_managed_service_address_stays_typed() -> None:
    form = form_for("managed:ServiceCreate")
    address = form.field("address")
    assert address is not None and address.kind == "text"


# -- databases ------------------------------------------------------------------------------


def test_a_monthly_maintenance_window_asks_for_its_week() -> None:
    form = form_for("databases:MaintenanceWindowRequest")
    assert "week_of_month" not in shown(form, {"frequency": "weekly"})
    assert "week_of_month" not in shown(form, {})  # weekly by default
    assert "week_of_month" in shown(form, {"frequency": "monthly"})
    values = {"day_of_week": "1", "duration": "1", "hour_of_day": "3", "week_of_month": "2"}
    weekly = build_body(form, {**values, "frequency": "weekly"}).body
    assert weekly is not None and "week_of_month" not in weekly


def test_replication_is_asked_for_three_nodes_only() -> None:
    form = form_for("databases:DatabaseCreate")
    values = {"engine": "mysql/8.0.30", "label": "shop-db", "region": "us-east", "type": "std-2"}
    assert "replication_type" not in shown(form, {**values, "cluster_size": 1})
    assert "replication_type" in shown(form, {**values, "cluster_size": 3})
    three = build_body(form, {**values, "cluster_size": 3, "replication_type": "none"})
    assert "replication_type" in three.errors
    one = build_body(form, {**values, "cluster_size": 1, "replication_type": "asynch"}).body
    assert one is not None and "replication_type" not in one


def test_only_mysql_engines_are_offered_for_a_new_database() -> None:
    engine = form_for("databases:DatabaseCreate").field("engine")
    assert engine is not None and engine.source is not None
    assert engine.source.accepts({"engine": "mysql", "version": "8.0.30"})
    assert not engine.source.accepts({"engine": "mongodb", "version": "7.0"})


# -- Kubernetes node pools ------------------------------------------------------------------


def test_node_pools_are_rows_with_type_count_and_autoscaler() -> None:
    form = form_for("k8s:ClusterCreate")
    assert "node_pools" in form.repeats
    names = shown(form, {})
    pool = [n for n in names if n.startswith("node_pools.0.") and "disks" not in n]
    assert pool == [
        "node_pools.0.count",
        "node_pools.0.type",
        "node_pools.0.autoscaler.enabled",
        "node_pools.0.tags",
    ]
    assert form.field("node_pools.0.type").source is not None  # type: ignore[union-attr]
    on = shown(form, {"node_pools.0.autoscaler.enabled": True})
    assert "node_pools.0.autoscaler.min" in on and "node_pools.0.autoscaler.max" in on
    values = {
        "label": "prod",
        "k8s_version": "1.31",
        "region": "us-east",
        "node_pools.0.count": "3",
        "node_pools.0.type": "std-2",
        "node_pools.0.autoscaler.enabled": True,
        "node_pools.0.autoscaler.min": "4",
        "node_pools.0.autoscaler.max": "2",
    }
    errors = build_body(form, values).errors
    assert errors == {"node_pools.0.autoscaler.min": "Min must not exceed max"}
    form2, _ = add_row(form, "node_pools")
    values.update({"node_pools.0.autoscaler.min": "1", "node_pools.1.count": "1"})
    values["node_pools.1.type"] = "std-4"
    body = build_body(form2, values).body
    assert body is not None
    assert [p["type"] for p in body["node_pools"]] == ["std-2", "std-4"]
    assert body["node_pools"][0]["autoscaler"] == {"enabled": True, "min": 1, "max": 2}


def test_high_availability_is_irreversible_inside_the_cluster_form() -> None:
    from tui.resources.forms import irreversible_changes

    form = form_for("k8s:ClusterCreate")
    assert irreversible_changes(form, {"control_plane": {"high_availability": True}})
    assert not irreversible_changes(form, {"control_plane": {"high_availability": False}})


# -- object storage keys --------------------------------------------------------------------


def test_key_bucket_access_rows_choose_cluster_bucket_and_permission() -> None:
    form = form_for("object_storage:StorageKeyCreate")
    cluster = form.field("bucket_access.0.cluster")
    bucket = form.field("bucket_access.0.bucket_name")
    permission = form.field("bucket_access.0.permissions")
    assert cluster is not None and cluster.source == CHOICE_SOURCES["cluster"]
    assert bucket is not None and bucket.source is not None
    # The bucket list follows the cluster chosen in the same row.
    assert bucket.source.same_as == {"cluster": "bucket_access.0.cluster"}
    assert bucket.source.depends_on == {"bucket_access.0.cluster"}
    assert permission is not None and {v for _t, v in permission.choices} == {
        "read_only",
        "read_write",
    }
    form2, new = add_row(form, "bucket_access")
    second = next(f for f in new if f.name == "bucket_access.1.bucket_name")
    assert second.source is not None
    assert second.source.same_as == {"cluster": "bucket_access.1.cluster"}
    unlimited = build_body(form2, {"label": "ci"}).body
    assert unlimited == {"label": "ci"}  # spare rows are not sent: an unlimited key
    limited = build_body(
        form2,
        {
            "bucket_access.0.cluster": "us-east-1",
            "bucket_access.0.bucket_name": "assets",
            "bucket_access.0.permissions": "read_only",
        },
    ).body
    assert limited == {
        "bucket_access": [
            {"cluster": "us-east-1", "bucket_name": "assets", "permissions": "read_only"}
        ]
    }


# -- managed services -----------------------------------------------------------------------

SERVICE = form_for("managed:ServiceCreate")
SERVICE_BASE = {"label": "shop", "timeout": "10"}


@pytest.mark.parametrize(
    ("kind", "address", "ok"),
    [
        ("url", "https://shop.example.org/health", True),
        ("url", "shop.example.org:443", False),
        ("tcp", "db.example.org:5432", True),
        ("tcp", "https://db.example.org", False),
        ("tcp", "db.example.org", False),
    ],
)
def test_service_address_format_follows_the_type(kind: str, address: str, ok: bool) -> None:
    result = build_body(SERVICE, {**SERVICE_BASE, "service_type": kind, "address": address})
    assert result.ok is ok, result.errors
    if not ok:
        assert "address" in result.errors


def test_service_address_hint_follows_the_type() -> None:
    from tui.resources.form_rules import deciding_values, hint_note

    address = SERVICE.field("address")
    assert address is not None
    assert "http" in hint_note(address, deciding_values(SERVICE, {"service_type": "url"}))
    assert "host:port" in hint_note(address, deciding_values(SERVICE, {"service_type": "tcp"}))


# -- instances, volumes, images -------------------------------------------------------------

INSTANCE = form_for("compute:InstanceCreate")
IMAGE_ONLY = ["root_pass", "authorized_keys", "authorized_users", "stackscript_id", "swap_size"]


def test_an_instance_from_an_image_asks_for_its_password_keys_and_script() -> None:
    names = shown(INSTANCE, {"image": "compute/debian12"})
    assert all(n in names for n in IMAGE_ONLY)
    assert "backup_id" not in names
    assert "stackscript_data" not in names  # until a script is chosen
    assert "stackscript_data" in shown(INSTANCE, {"image": "x", "stackscript_id": 5})
    result = build_body(INSTANCE, {"region": "us-east", "type": "std-1", "image": "x"})
    assert set(result.errors) == {"root_pass"}


def test_an_instance_without_image_offers_a_backup_or_stays_empty() -> None:
    names = shown(INSTANCE, {})
    assert "backup_id" in names
    assert not any(n in names for n in IMAGE_ONLY)
    base = {"region": "us-east", "type": "std-1", "booted": True}
    empty = build_body(INSTANCE, {**base, "root_pass": "x"})
    assert empty.body == {"region": "us-east", "type": "std-1"}
    backup = build_body(INSTANCE, {**base, "backup_id": "7"})
    assert backup.body == {"region": "us-east", "type": "std-1", "backup_id": 7}


def test_volume_create_and_attach_offer_instances_of_the_region() -> None:
    for model in ("volumes:VolumeCreate", "volumes:VolumeAttach"):
        field = form_for(model).field("compute_id")
        assert field is not None and field.source is not None
        assert field.source.same_as == {"region": "region"}
        assert not field.source.accepts({"region": "eu-west"}, {"region": "us-east"})


def test_a_new_image_chooses_the_instance_then_one_of_its_disks() -> None:
    form = with_pickers(form_for("images:ImageCreate"), {})
    assert [f.name for f in form.fields][:2] == ["compute_id", "disk_id"]
    picker, disk = form.fields[0], form.fields[1]
    assert not picker.send
    assert disk.source is not None and disk.source.depends_on == {"compute_id"}
