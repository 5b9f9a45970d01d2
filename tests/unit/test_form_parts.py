"""Inputs that are no field of the request (a balancer node's port, sent inside its address)
and lists ticked among the API's items instead of typed (keys, users, credentials, ids)."""

from __future__ import annotations

from tui.resources.forms import build_body, form_for, initial_values

NODE = form_for("loadbalancers:LbNodeCreate")
NODE_EDIT = form_for("loadbalancers:LbNodeUpdate")
BALANCER = form_for("loadbalancers:LoadBalancerCreate")


def test_a_node_asks_its_port_right_after_its_address_and_never_sends_it_alone() -> None:
    names = [f.name for f in NODE.fields]
    assert names[:2] == ["address", "port"]
    port = NODE.field("port")
    assert port is not None and port.kind == "int" and not port.send
    assert port.joins == "address" and (port.ge, port.le) == (1, 65535)
    assert "configs.0.nodes.0.port" in {f.name for f in BALANCER.fields}
    for form in (NODE, NODE_EDIT):
        address = form.field("address")
        assert address is not None and address.source is not None
        assert address.source.endpoint == "compute.instances.list"


def test_the_port_is_sent_inside_the_address() -> None:
    values = {"address": "192.168.128.2", "label": "web-1"}
    assert build_body(NODE, {**values, "port": "8080"}).body == {
        "address": "192.168.128.2:8080",
        "label": "web-1",
    }
    assert build_body(NODE, values).body == values  # no port: the config's own
    six = build_body(NODE, {**values, "address": "fd00::5", "port": "8080"}).body
    assert six is not None and six["address"] == "[fd00::5]:8080"


def test_a_bad_port_is_reported_on_the_port() -> None:
    values = {"address": "192.168.128.2", "label": "web-1"}
    assert build_body(NODE, {**values, "port": "70000"}).errors == {
        "port": "Backend port must be 1..65535"
    }
    assert build_body(NODE, {**values, "port": "http"}).errors == {
        "port": "Backend port must be a whole number"
    }
    typed = build_body(NODE, {**values, "address": "192.168.128.2:80", "port": "8080"})
    assert typed.errors == {
        "port": "Backend port differs from the port the address already holds (80)"
    }
    # Without an address, the address is what is missing (the port waits for it).
    assert set(build_body(NODE, {"label": "web-1", "port": "8080"}).errors) == {"address"}


def test_a_balancer_with_two_nodes_on_8080_in_one_form() -> None:
    from tui.resources.forms import add_row

    form, _ = add_row(BALANCER, "configs.0.nodes")
    values = {
        "region": "us-east",
        "configs.0.port": "80",
        "configs.0.nodes.0.address": "192.168.128.2",
        "configs.0.nodes.0.port": "8080",
        "configs.0.nodes.0.label": "web-1",
        "configs.0.nodes.1.address": "192.168.128.3",
        "configs.0.nodes.1.port": "8080",
        "configs.0.nodes.1.label": "web-2",
    }
    result = build_body(form, values)
    assert result.ok, result.errors
    assert result.body is not None
    nodes = result.body["configs"][0]["nodes"]
    assert [n["address"] for n in nodes] == ["192.168.128.2:8080", "192.168.128.3:8080"]


def test_an_edited_node_splits_its_address_and_sends_a_changed_port_inside_it() -> None:
    stored = {"address": "192.168.128.2:8080", "label": "web-1", "mode": "accept", "weight": 50}
    initial = initial_values(NODE_EDIT, stored)
    assert (initial["address"], initial["port"]) == ("192.168.128.2", "8080")
    assert build_body(NODE_EDIT, {**initial, "port": "9090"}, initial=initial).body == {
        "address": "192.168.128.2:9090"
    }
    assert build_body(NODE_EDIT, {**initial, "port": ""}, initial=initial).body == {
        "address": "192.168.128.2"
    }
    # Only what changed is sent: an untouched address stays out of a label edit.
    assert build_body(NODE_EDIT, {**initial, "label": "web-9"}, initial=initial).body == {
        "label": "web-9"
    }
    plain = initial_values(NODE_EDIT, {**stored, "address": "192.168.128.2"})
    assert (plain["address"], plain["port"]) == ("192.168.128.2", "")


def test_keys_users_credentials_and_tagged_ids_are_ticked_not_typed() -> None:
    ticked = {
        ("compute:InstanceCreate", "authorized_keys"): "profile.view",
        ("compute:InstanceCreate", "authorized_users"): "profile.view",
        ("compute:DiskCreate", "authorized_keys"): "profile.view",
        ("managed:ServiceCreate", "credentials"): "managed.credentials.list",
        ("managed:ServiceUpdate", "credentials"): "managed.credentials.list",
        ("tags:TagCreate", "computes"): "compute.instances.list",
        ("tags:TagCreate", "domains"): "domains.list",
        ("tags:TagCreate", "volumes"): "volumes.list",
        ("tags:TagCreate", "loadbalancers"): "loadbalancers.list",
    }
    for (model, name), endpoint in ticked.items():
        f = form_for(model).field(name)
        assert f is not None and f.kind == "picks", (model, name)
        assert f.source is not None and f.source.endpoint == endpoint, (model, name)
    group = form_for("managed:ServiceCreate").field("consultation_group")
    assert group is not None and group.kind == "choice" and group.source is not None
    assert group.source.distinct and group.source.value == "group"


def test_ticked_ids_are_sent_as_numbers() -> None:
    form = form_for("tags:TagCreate")
    result = build_body(form, {"label": "web", "computes": [51201, 51202], "domains": []})
    assert result.body == {"label": "web", "computes": [51201, 51202]}
    # Typed when the list could not be loaded: comma-separated numbers.
    typed = build_body(form, {"label": "web", "volumes": "7, 9"})
    assert typed.body == {"label": "web", "volumes": [7, 9]}
    assert "volumes" in build_body(form, {"label": "web", "volumes": "7, nine"}).errors
    keys = build_body(
        form_for("compute:InstanceCreate"),
        {
            "region": "us-east",
            "type": "std-2",
            "image": "compute/debian12",
            "root_pass": "a-long-password-1",
            "authorized_keys": [
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHBRw170QtFanrmRo238pE+Eq4kY66k933Co+JLKw7DD a@b"
            ],
            "authorized_users": ["demo"],
        },
    )
    assert keys.ok, keys.errors
    assert keys.body is not None and keys.body["authorized_users"] == ["demo"]


def test_an_instance_without_a_private_address_is_a_choice_that_chooses_nothing() -> None:
    address = NODE.field("address")
    assert address is not None and address.source is not None
    source = address.source
    public_only = {"id": 9, "label": "ftp", "region": "us-west", "ipv4": ["192.0.2.11"]}
    [item] = source.expand(public_only)
    assert source.option(item)[1] == ""  # never None: a blank chooser highlights that value
    assert source.expand(item) == [item]  # expanded once
    assert source.facts is not None and source.facts.refuse is not None
    assert source.facts.refuse(item).startswith("no private IPv4 address")
    picked = build_body(NODE, {"address": source.option(item)[1], "label": "web-1"})
    assert picked.errors == {"address": "Address is required"}
