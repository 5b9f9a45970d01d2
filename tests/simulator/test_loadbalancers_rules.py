"""Load balancer rules: validation with field-named errors, TLS, nodes, cascades, permissions.

Each refusal also asserts that the state is unchanged afterwards.
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Callable
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.simulator.rules import refusal_check
from tests.simulator.rules import refused as _refused
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.simulator import Simulator
from tui.simulator.seed import grant_restricted
from tui.simulator.seeds.loadbalancers import (
    DEMO_CERT,
    DEMO_CERT_COMMON_NAME,
    DEMO_CERT_FINGERPRINT,
    DEMO_KEY,
)

REGIONS = ("us-east", "eu-west", "eu-central")
BALANCERS = "loadbalancers.balancers"
CONFIGS = "loadbalancers.configs"
NODES = "loadbalancers.nodes"


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """The region ids used here, in case the compute area has not seeded its catalog."""
    for rid in REGIONS:
        sim.store.table("compute.regions").setdefault(
            rid, {"id": rid, "label": rid, "country": "us", "status": "ok", "capabilities": []}
        )


# -- helpers --------------------------------------------------------------------------------


def lb_id(sim: Simulator, label: str) -> int:
    return int(next(r["id"] for r in sim.store.rows(BALANCERS) if r["label"] == label))


def cfg_id(sim: Simulator, balancer: int, port: int) -> int:
    return int(
        next(
            c["id"]
            for c in sim.store.rows(CONFIGS)
            if c["_balancer_id"] == balancer and c["port"] == port
        )
    )


def node_ids(sim: Simulator, config: int) -> list[int]:
    return [int(n["id"]) for n in sim.store.rows(NODES) if n["_config_id"] == config]


def _state(sim: Simulator) -> dict[str, Any]:
    return copy.deepcopy(
        {
            "tables": {k: v for k, v in sim.store.tables.items() if k.startswith("loadbalancers.")},
            "users": sim.store.tables.get("users"),
            "events": sim.store.events,
        }
    )


_bad = refusal_check(_state)
"""The call is refused with ``status``, names ``field``, and changes nothing."""


def _unchanged_refusal(sim: Simulator) -> Callable[..., Any]:
    """A _refused wrapper asserting the state is unchanged (for errors without a field)."""

    async def run(*args: Any, **kwargs: Any) -> ApiError:
        before = _state(sim)
        err = await _refused(*args, **kwargs)
        assert _state(sim) == before
        return err

    return run


def escaped(pem: str) -> str:
    """A PEM text with its line breaks written as backslash-n (the reference's form)."""
    return pem.strip().replace("\n", "\\n")


def make_pair(common_name: str = "other.example.org") -> tuple[str, str]:
    """A fresh self-signed EC certificate and its key (EC keys are fast to generate)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    start = datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(7)
        .not_valid_before(start)
        .not_valid_after(start + datetime.timedelta(days=365))
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    return cert.public_bytes(serialization.Encoding.PEM).decode(), key_pem


def one_node(address: str = "192.168.50.1", label: str = "node-1") -> list[dict[str, Any]]:
    return [{"address": address, "label": label}]


# -- authentication, scopes, pagination -----------------------------------------------------


async def test_anonymous_and_unscoped_tokens_refused(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    await _refused(client_for("anonymous"), "loadbalancers.list", status=401)
    # The read-only demo token carries no loadbalancers scope at all.
    readonly = client_for("readonly")
    await _refused(readonly, "loadbalancers.list", status=403)
    refuse = _unchanged_refusal(sim)
    await refuse(readonly, "loadbalancers.create", body={"region": "us-east"}, status=403)


async def test_page_size_bounds(client: ApiClient, sim: Simulator) -> None:
    for size in (24, 101):
        with pytest.raises(ApiError) as info:
            await client.call("loadbalancers.list", query={"page_size": size}, model=dict)
        assert info.value.status == 400 and "page_size" in info.value.field_errors()
    bid = lb_id(sim, "web-frontend")
    ok = await client.call(
        "loadbalancers.configs.list", {"loadbalancerId": bid}, query={"page_size": 25}, model=dict
    )
    assert ok["results"] == 2


# -- balancer fields ------------------------------------------------------------------------


@pytest.mark.parametrize("label", ["ab", "x" * 33, "tab\there", 42])
async def test_label_length_3_to_32(client: ApiClient, sim: Simulator, label: Any) -> None:
    await _bad(
        client, sim, "loadbalancers.create", None, {"region": "us-east", "label": label}, "label"
    )
    bid = lb_id(sim, "web-frontend")
    await _bad(
        client, sim, "loadbalancers.update", {"loadbalancerId": bid}, {"label": label}, "label"
    )


async def test_label_accepts_ascii_letters_digits_dashes_underscores(client: ApiClient) -> None:
    made = await client.call(
        "loadbalancers.create", body={"region": "us-east", "label": "qa_Omega-2"}, model=dict
    )
    assert made["label"] == "qa_Omega-2"
    edge = await client.call(
        "loadbalancers.create", body={"region": "us-east", "label": "x" * 32}, model=dict
    )
    assert edge["label"] == "x" * 32


async def test_label_unique_on_the_account(client: ApiClient, sim: Simulator) -> None:
    await _bad(
        client,
        sim,
        "loadbalancers.create",
        None,
        {"region": "us-east", "label": "WEB-FRONTEND"},
        "label",
    )
    bid = lb_id(sim, "zurich-intern")
    await _bad(
        client,
        sim,
        "loadbalancers.update",
        {"loadbalancerId": bid},
        {"label": "web-frontend"},
        "label",
    )
    # Keeping one's own label is not a clash.
    same = await client.call(
        "loadbalancers.update", {"loadbalancerId": bid}, body={"label": "zurich-intern"}, model=dict
    )
    assert same["label"] == "zurich-intern"


@pytest.mark.parametrize("throttle", [-1, 21, "5", True, 2.5])
async def test_client_conn_throttle_0_to_20(
    client: ApiClient, sim: Simulator, throttle: Any
) -> None:
    body = {"region": "us-east", "client_conn_throttle": throttle}
    await _bad(client, sim, "loadbalancers.create", None, body, "client_conn_throttle")
    bid = lb_id(sim, "web-frontend")
    await _bad(
        client,
        sim,
        "loadbalancers.update",
        {"loadbalancerId": bid},
        {"client_conn_throttle": throttle},
        "client_conn_throttle",
    )


async def test_client_conn_throttle_edges_accepted(client: ApiClient) -> None:
    for value in (0, 20):
        made = await client.call(
            "loadbalancers.create",
            body={"region": "us-east", "client_conn_throttle": value},
            model=dict,
        )
        assert made["client_conn_throttle"] == value


@pytest.mark.parametrize("body", [{}, {"region": "mars-1"}, {"region": 5}])
async def test_region_required_and_known(client: ApiClient, sim: Simulator, body: Any) -> None:
    await _bad(client, sim, "loadbalancers.create", None, body, "region")


async def test_unknown_fields_refused(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "web-frontend")
    await _bad(
        client, sim, "loadbalancers.create", None, {"region": "us-east", "ipv4": "x"}, "ipv4"
    )
    await _bad(
        client,
        sim,
        "loadbalancers.update",
        {"loadbalancerId": bid},
        {"region": "eu-west"},
        "region",
    )
    cid = cfg_id(sim, bid, 80)
    await _bad(
        client,
        sim,
        "loadbalancers.configs.update",
        {"loadbalancerId": bid, "configId": cid},
        {"loadbalancer_id": 1},
        "loadbalancer_id",
    )


@pytest.mark.parametrize(
    ("transfer", "field"),
    [
        ({"in": -1}, "transfer.in"),
        ({"out": "many"}, "transfer.out"),
        ({"in": 1, "out": 2, "total": 4}, "transfer.total"),
        ({"up": 1}, "transfer.up"),
        ("lots", "transfer"),
    ],
)
async def test_transfer_update_rules(
    client: ApiClient, sim: Simulator, transfer: Any, field: str
) -> None:
    bid = lb_id(sim, "web-frontend")
    await _bad(
        client, sim, "loadbalancers.update", {"loadbalancerId": bid}, {"transfer": transfer}, field
    )


async def test_transfer_total_is_the_sum(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "staging-api")
    out = await client.call(
        "loadbalancers.update", {"loadbalancerId": bid}, body={"transfer": {"out": 100}}, model=dict
    )
    assert out["transfer"] == {"in": 912.5, "out": 100.0, "total": 1012.5}


async def test_answers_carry_the_documented_fields(client: ApiClient, sim: Simulator) -> None:
    made = await client.call(
        "loadbalancers.create",
        body={
            "region": "eu-central",
            "label": "fields",
            "configs": [{"port": 81, "nodes": one_node()}],
        },
        model=dict,
    )
    for key in (
        "id",
        "label",
        "region",
        "ipv4",
        "ipv6",
        "hostname",
        "client_conn_throttle",
        "tags",
        "transfer",
        "created",
        "updated",
    ):
        assert key in made, key
    assert made["transfer"] == {"in": 0.0, "out": 0.0, "total": 0.0}
    assert made["ipv4"] and made["ipv4"] in made["hostname"].replace("-", ".")
    others = [r["ipv4"] for r in sim.store.rows(BALANCERS) if r["id"] != made["id"]]
    assert made["ipv4"] not in others
    configs = await client.call(
        "loadbalancers.configs.list", {"loadbalancerId": made["id"]}, model=dict
    )
    assert configs["data"][0]["nodes_status"] == {"up": 0, "down": 0}
    assert not any(k.startswith("_") for k in configs["data"][0])


# -- configs --------------------------------------------------------------------------------


@pytest.mark.parametrize("port", [0, 65536, "80"])
async def test_config_port_1_to_65535(client: ApiClient, sim: Simulator, port: Any) -> None:
    bid = lb_id(sim, "zurich-intern")
    await _bad(
        client, sim, "loadbalancers.configs.create", {"loadbalancerId": bid}, {"port": port}, "port"
    )


async def test_config_ports_unique_per_balancer(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "web-frontend")
    params = {"loadbalancerId": bid}
    await _bad(client, sim, "loadbalancers.configs.create", params, {"port": 443}, "port")
    # The default port 80 is taken too.
    await _bad(client, sim, "loadbalancers.configs.create", params, {}, "port")
    cid = cfg_id(sim, bid, 80)
    await _bad(
        client,
        sim,
        "loadbalancers.configs.update",
        {"loadbalancerId": bid, "configId": cid},
        {"port": 443},
        "port",
    )
    await _bad(
        client,
        sim,
        "loadbalancers.create",
        None,
        {
            "region": "us-east",
            "configs": [
                {"port": 8000, "nodes": one_node()},
                {"port": 8000, "nodes": one_node()},
            ],
        },
        "configs[1].port",
    )
    # The same port on another balancer is fine.
    other = lb_id(sim, "zurich-intern")
    made = await client.call(
        "loadbalancers.configs.create", {"loadbalancerId": other}, body={"port": 443}, model=dict
    )
    assert made["port"] == 443


@pytest.mark.parametrize("seconds", [0, 31, "5"])
async def test_check_timeout_1_to_30(client: ApiClient, sim: Simulator, seconds: Any) -> None:
    bid = lb_id(sim, "zurich-intern")
    await _bad(
        client,
        sim,
        "loadbalancers.configs.create",
        {"loadbalancerId": bid},
        {"port": 9000, "check_timeout": seconds, "check_interval": 60},
        "check_timeout",
    )


async def test_check_timeout_less_than_interval(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "zurich-intern")
    params = {"loadbalancerId": bid}
    await _bad(
        client,
        sim,
        "loadbalancers.configs.create",
        params,
        {"port": 9000, "check_timeout": 10, "check_interval": 10},
        "check_timeout",
    )
    # Only the interval sent: the default timeout (30) is not below it; the interval is named.
    await _bad(
        client,
        sim,
        "loadbalancers.configs.create",
        params,
        {"port": 9000, "check_interval": 30},
        "check_interval",
    )
    web = lb_id(sim, "web-frontend")
    cid = cfg_id(sim, web, 80)  # timeout 5, interval 10
    await _bad(
        client,
        sim,
        "loadbalancers.configs.update",
        {"loadbalancerId": web, "configId": cid},
        {"check_interval": 5},
        "check_interval",
    )
    ok = await client.call(
        "loadbalancers.configs.update",
        {"loadbalancerId": web, "configId": cid},
        body={"check_interval": 6},
        model=dict,
    )
    assert (ok["check_timeout"], ok["check_interval"]) == (5, 6)


@pytest.mark.parametrize("attempts", [0, 31])
async def test_check_attempts_1_to_30(client: ApiClient, sim: Simulator, attempts: Any) -> None:
    web = lb_id(sim, "web-frontend")
    cid = cfg_id(sim, web, 80)
    await _bad(
        client,
        sim,
        "loadbalancers.configs.update",
        {"loadbalancerId": web, "configId": cid},
        {"check_attempts": attempts},
        "check_attempts",
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"algorithm": "random"}, "algorithm"),
        ({"check": "ping"}, "check"),
        ({"cipher_suite": "modern"}, "cipher_suite"),
        ({"protocol": "udp"}, "protocol"),
        ({"proxy_protocol": "v3"}, "proxy_protocol"),
        ({"stickiness": "ip"}, "stickiness"),
        ({"check_passive": "yes"}, "check_passive"),
        ({"check": "http"}, "check_path"),
        ({"check": "http", "check_path": "healthz"}, "check_path"),
        ({"check": "http_body", "check_path": "/"}, "check_body"),
        ({"protocol": "tcp", "stickiness": "http_cookie"}, "stickiness"),
    ],
)
async def test_config_choices_and_check_rules(
    client: ApiClient, sim: Simulator, body: dict[str, Any], field: str
) -> None:
    bid = lb_id(sim, "zurich-intern")
    await _bad(
        client,
        sim,
        "loadbalancers.configs.create",
        {"loadbalancerId": bid},
        {"port": 9000, **body},
        field,
    )


async def test_proxy_protocol_needs_tcp(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "zurich-intern")
    for version in ("v1", "v2"):
        await _bad(
            client,
            sim,
            "loadbalancers.configs.create",
            {"loadbalancerId": bid},
            {"port": 9000, "proxy_protocol": version},
            "proxy_protocol",
        )
    # Switching a v2 config away from tcp names the protocol.
    staging = lb_id(sim, "staging-api")
    cid = cfg_id(sim, staging, 8080)
    await _bad(
        client,
        sim,
        "loadbalancers.configs.update",
        {"loadbalancerId": staging, "configId": cid},
        {"protocol": "http"},
        "protocol",
    )
    made = await client.call(
        "loadbalancers.configs.create",
        {"loadbalancerId": bid},
        body={"port": 9001, "protocol": "tcp", "proxy_protocol": "v1"},
        model=dict,
    )
    assert made["proxy_protocol"] == "v1"


# -- TLS ------------------------------------------------------------------------------------


async def test_https_requires_cert_and_key(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "zurich-intern")
    params = {"loadbalancerId": bid}
    err = await _bad(
        client,
        sim,
        "loadbalancers.configs.create",
        params,
        {"port": 443, "protocol": "https"},
        "ssl_cert",
    )
    assert "ssl_key" in err.field_errors()
    await _bad(
        client,
        sim,
        "loadbalancers.configs.create",
        params,
        {"port": 443, "protocol": "https", "ssl_cert": DEMO_CERT},
        "ssl_key",
    )
    # Switching an http config to https without a certificate.
    web = lb_id(sim, "web-frontend")
    cid = cfg_id(sim, web, 80)
    await _bad(
        client,
        sim,
        "loadbalancers.configs.update",
        {"loadbalancerId": web, "configId": cid},
        {"protocol": "https"},
        "ssl_cert",
    )


@pytest.mark.parametrize("protocol", ["http", "tcp"])
@pytest.mark.parametrize("field", ["ssl_cert", "ssl_key"])
async def test_http_and_tcp_refuse_cert_and_key(
    client: ApiClient, sim: Simulator, protocol: str, field: str
) -> None:
    bid = lb_id(sim, "zurich-intern")
    value = DEMO_CERT if field == "ssl_cert" else DEMO_KEY
    await _bad(
        client,
        sim,
        "loadbalancers.configs.create",
        {"loadbalancerId": bid},
        {"port": 9000, "protocol": protocol, field: value},
        field,
    )
    cid = cfg_id(sim, bid, 5432)
    await _bad(
        client,
        sim,
        "loadbalancers.configs.update",
        {"loadbalancerId": bid, "configId": cid},
        {field: value},
        field,
    )


async def test_answers_redact_and_derive_from_the_certificate(
    client: ApiClient, sim: Simulator
) -> None:
    bid = lb_id(sim, "zurich-intern")
    cert, key = make_pair("api.example.org")
    made = await client.call(
        "loadbalancers.configs.create",
        {"loadbalancerId": bid},
        body={"port": 443, "protocol": "https", "ssl_cert": cert, "ssl_key": key},
        model=dict,
    )
    assert made["ssl_cert"] == "<REDACTED>" and made["ssl_key"] == "<REDACTED>"
    parsed = x509.load_pem_x509_certificate(cert.encode())
    expected = ":".join(f"{b:02X}" for b in parsed.fingerprint(hashes.SHA256()))
    assert made["ssl_commonname"] == "api.example.org"
    assert made["ssl_fingerprint"] == expected
    listed = await client.call("loadbalancers.configs.list", {"loadbalancerId": bid}, model=dict)
    text = repr(listed)
    assert "BEGIN" not in text and "PRIVATE" not in text
    web = lb_id(sim, "web-frontend")
    seeded = await client.call(
        "loadbalancers.configs.view",
        {"loadbalancerId": web, "configId": cfg_id(sim, web, 443)},
        model=dict,
    )
    assert seeded["ssl_commonname"] == DEMO_CERT_COMMON_NAME
    assert seeded["ssl_fingerprint"] == DEMO_CERT_FINGERPRINT
    assert seeded["ssl_key"] == "<REDACTED>"


async def test_escaped_line_breaks_accepted(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "zurich-intern")
    made = await client.call(
        "loadbalancers.configs.create",
        {"loadbalancerId": bid},
        body={
            "port": 443,
            "protocol": "https",
            "ssl_cert": escaped(DEMO_CERT),
            "ssl_key": escaped(DEMO_KEY),
        },
        model=dict,
    )
    assert "\\n" in escaped(DEMO_CERT)
    assert made["ssl_fingerprint"] == DEMO_CERT_FINGERPRINT
    stored = sim.store.get(CONFIGS, made["id"])
    assert stored is not None and "\\n" not in stored["_ssl_cert"]


@pytest.mark.parametrize(
    ("cert", "field"),
    [
        ("not a certificate", "ssl_cert"),
        ("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----", "ssl_cert"),
        (DEMO_CERT + DEMO_KEY, "ssl_cert"),
    ],
)
async def test_unparseable_certificate_refused(
    client: ApiClient, sim: Simulator, cert: str, field: str
) -> None:
    bid = lb_id(sim, "zurich-intern")
    await _bad(
        client,
        sim,
        "loadbalancers.configs.create",
        {"loadbalancerId": bid},
        {"port": 443, "protocol": "https", "ssl_cert": cert, "ssl_key": DEMO_KEY},
        field,
    )


async def test_unparseable_or_encrypted_key_refused(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "zurich-intern")
    params = {"loadbalancerId": bid}
    body = {"port": 443, "protocol": "https", "ssl_cert": DEMO_CERT}
    await _bad(
        client, sim, "loadbalancers.configs.create", params, {**body, "ssl_key": "nope"}, "ssl_key"
    )
    key = serialization.load_pem_private_key(DEMO_KEY.encode(), password=None)
    locked = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"passphrase"),
    ).decode()
    await _bad(
        client, sim, "loadbalancers.configs.create", params, {**body, "ssl_key": locked}, "ssl_key"
    )


async def test_key_must_match_certificate(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "zurich-intern")
    _cert, other_key = make_pair()
    await _bad(
        client,
        sim,
        "loadbalancers.configs.create",
        {"loadbalancerId": bid},
        {"port": 443, "protocol": "https", "ssl_cert": DEMO_CERT, "ssl_key": other_key},
        "ssl_key",
    )
    # Only a new certificate sent: it is the one that fails to match the stored key.
    web = lb_id(sim, "web-frontend")
    other_cert, _key = make_pair()
    await _bad(
        client,
        sim,
        "loadbalancers.configs.update",
        {"loadbalancerId": web, "configId": cfg_id(sim, web, 443)},
        {"ssl_cert": other_cert},
        "ssl_cert",
    )


async def test_redacted_placeholder_keeps_stored_pair(client: ApiClient, sim: Simulator) -> None:
    web = lb_id(sim, "web-frontend")
    params = {"loadbalancerId": web, "configId": cfg_id(sim, web, 443)}
    current = await client.call("loadbalancers.configs.view", params, model=dict)
    body = {k: current[k] for k in ("port", "protocol", "ssl_cert", "ssl_key", "algorithm")}
    body["algorithm"] = "source"
    out = await client.call("loadbalancers.configs.update", params, body=body, model=dict)
    assert out["algorithm"] == "source" and out["ssl_fingerprint"] == DEMO_CERT_FINGERPRINT
    stored = sim.store.get(CONFIGS, params["configId"])
    assert stored is not None and stored["_ssl_key"] == DEMO_KEY


async def test_new_pair_replaces_and_http_drops_it(client: ApiClient, sim: Simulator) -> None:
    web = lb_id(sim, "web-frontend")
    params = {"loadbalancerId": web, "configId": cfg_id(sim, web, 443)}
    cert, key = make_pair("new.example.org")
    out = await client.call(
        "loadbalancers.configs.update", params, body={"ssl_cert": cert, "ssl_key": key}, model=dict
    )
    assert out["ssl_commonname"] == "new.example.org"
    plain = await client.call(
        "loadbalancers.configs.update",
        params,
        body={"protocol": "http", "stickiness": "none"},
        model=dict,
    )
    assert plain["ssl_cert"] is None and plain["ssl_fingerprint"] is None
    stored = sim.store.get(CONFIGS, params["configId"])
    assert stored is not None and stored["_ssl_cert"] is None and stored["_ssl_key"] is None


# -- nodes ----------------------------------------------------------------------------------


def _node_params(sim: Simulator) -> dict[str, int]:
    bid = lb_id(sim, "staging-api")
    return {"loadbalancerId": bid, "configId": cfg_id(sim, bid, 8080)}


@pytest.mark.parametrize(
    "address",
    [
        "8.8.8.8",
        "127.0.0.1",
        "169.254.1.1",
        "192.0.2.10",
        "2001:db8::1",
        "not-an-ip",
        "192.168.1.5:0",
        "192.168.1.5:65536",
        "192.168.1.5:http",
        "fd00::5]:80",
        "[fd00::5]",
        "",
        7,
    ],
)
async def test_node_address_must_be_private(
    client: ApiClient, sim: Simulator, address: Any
) -> None:
    params = _node_params(sim)
    await _bad(
        client,
        sim,
        "loadbalancers.nodes.create",
        params,
        {"address": address, "label": "node-x"},
        "address",
    )
    node = node_ids(sim, params["configId"])[0]
    await _bad(
        client,
        sim,
        "loadbalancers.nodes.update",
        {**params, "nodeId": node},
        {"address": address},
        "address",
    )


@pytest.mark.parametrize(
    "address",
    ["10.8.0.99", "10.8.0.99:9000", "172.20.1.1", "192.168.7.7:80", "fd00::5", "[fd00::6]:8080"],
)
async def test_node_address_forms_accepted(client: ApiClient, sim: Simulator, address: str) -> None:
    made = await client.call(
        "loadbalancers.nodes.create",
        _node_params(sim),
        body={"address": address, "label": "node-ok"},
        model=dict,
    )
    assert made["address"] == address


async def test_node_address_and_label_required(client: ApiClient, sim: Simulator) -> None:
    params = _node_params(sim)
    await _bad(client, sim, "loadbalancers.nodes.create", params, {"label": "node-x"}, "address")
    await _bad(client, sim, "loadbalancers.nodes.create", params, {"address": "10.8.0.90"}, "label")


@pytest.mark.parametrize("label", ["ab", "x" * 33, "new\nline"])
async def test_node_label_3_to_32(client: ApiClient, sim: Simulator, label: Any) -> None:
    params = _node_params(sim)
    await _bad(
        client,
        sim,
        "loadbalancers.nodes.create",
        params,
        {"address": "10.8.0.90", "label": label},
        "label",
    )
    node = node_ids(sim, params["configId"])[0]
    await _bad(
        client,
        sim,
        "loadbalancers.nodes.update",
        {**params, "nodeId": node},
        {"label": label},
        "label",
    )


@pytest.mark.parametrize("mode", ["standby", "ACCEPT", 1])
async def test_node_modes(client: ApiClient, sim: Simulator, mode: Any) -> None:
    params = _node_params(sim)
    body = {"address": "10.8.0.90", "label": "node-x", "mode": mode}
    await _bad(client, sim, "loadbalancers.nodes.create", params, body, "mode")


async def test_node_every_mode_accepted(client: ApiClient, sim: Simulator) -> None:
    params = _node_params(sim)
    for n, mode in enumerate(("accept", "reject", "drain", "backup")):
        made = await client.call(
            "loadbalancers.nodes.create",
            params,
            body={"address": f"10.8.1.{n + 1}", "label": f"mode-{mode}", "mode": mode},
            model=dict,
        )
        assert made["mode"] == mode


@pytest.mark.parametrize("weight", [0, 256, "10", 1.5, True])
async def test_node_weight_1_to_255(client: ApiClient, sim: Simulator, weight: Any) -> None:
    params = _node_params(sim)
    body = {"address": "10.8.0.90", "label": "node-x", "weight": weight}
    await _bad(client, sim, "loadbalancers.nodes.create", params, body, "weight")
    node = node_ids(sim, params["configId"])[0]
    await _bad(
        client,
        sim,
        "loadbalancers.nodes.update",
        {**params, "nodeId": node},
        {"weight": weight},
        "weight",
    )


async def test_node_backend_unique_per_config(client: ApiClient, sim: Simulator) -> None:
    params = _node_params(sim)  # port 8080; api-a is 10.8.0.21
    await _bad(
        client,
        sim,
        "loadbalancers.nodes.create",
        params,
        {"address": "10.8.0.21", "label": "dup"},
        "address",
    )
    # The same backend written with the config's port.
    await _bad(
        client,
        sim,
        "loadbalancers.nodes.create",
        params,
        {"address": "10.8.0.21:8080", "label": "dup"},
        "address",
    )
    ok = await client.call(
        "loadbalancers.nodes.create",
        params,
        body={"address": "10.8.0.21:9090", "label": "other-port"},
        model=dict,
    )
    assert ok["address"] == "10.8.0.21:9090"


async def test_node_status_follows_the_instance(client: ApiClient, sim: Simulator) -> None:
    params = _node_params(sim)
    sim.store.put(
        "compute.instances",
        990777,
        {
            "id": 990777,
            "label": "backend",
            "status": "running",
            "ipv4": ["203.0.113.99", "10.9.9.9"],
        },
    )
    made = await client.call(
        "loadbalancers.nodes.create",
        params,
        body={"address": "10.9.9.9:8080", "label": "tracked"},
        model=dict,
    )
    assert made["status"] == "UP"
    inst = sim.store.get("compute.instances", 990777)
    assert inst is not None
    inst["status"] = "offline"
    seen = await client.call(
        "loadbalancers.nodes.view", {**params, "nodeId": made["id"]}, model=dict
    )
    assert seen["status"] == "DOWN"
    config = await client.call("loadbalancers.configs.view", params, model=dict)
    # Seeded: api-a UP, api-b UP, api-canary DOWN; plus this DOWN one.
    assert config["nodes_status"] == {"up": 2, "down": 2}
    stranger = await client.call(
        "loadbalancers.nodes.create",
        params,
        body={"address": "10.200.0.1", "label": "stranger"},
        model=dict,
    )
    assert stranger["status"] == "unknown"


# -- create with configs --------------------------------------------------------------------


async def test_create_with_configs_is_all_or_nothing(client: ApiClient, sim: Simulator) -> None:
    body = {
        "region": "us-east",
        "label": "atomic",
        "configs": [
            {"port": 80, "nodes": one_node()},
            {
                "port": 81,
                "nodes": [
                    {"address": "10.0.0.1", "label": "ok-1"},
                    {"address": "8.8.8.8", "label": "bad"},
                ],
            },
        ],
    }
    await _bad(client, sim, "loadbalancers.create", None, body, "configs[1].nodes[1].address")
    body["configs"][1]["nodes"].pop()
    made = await client.call("loadbalancers.create", body=body, model=dict)
    configs = [c for c in sim.store.rows(CONFIGS) if c["_balancer_id"] == made["id"]]
    assert sorted(c["port"] for c in configs) == [80, 81]
    assert sum(len(node_ids(sim, c["id"])) for c in configs) == 2


@pytest.mark.parametrize(
    ("configs", "field"),
    [
        ([{"port": 80}], "configs[0].nodes"),
        ([{"port": 80, "nodes": []}], "configs[0].nodes"),
        ([{"port": 80, "nodes": "x"}], "configs[0].nodes"),
        ("x", "configs"),
        ([5], "configs[0]"),
        ([{"port": 80, "protocol": "https", "nodes": one_node()}], "configs[0].ssl_cert"),
        ([{"port": 80, "colour": 1, "nodes": one_node()}], "configs[0].colour"),
        (
            [
                {
                    "nodes": [
                        {"address": "10.0.0.1", "label": "a-1"},
                        {"address": "10.0.0.1", "label": "a-2"},
                    ]
                }
            ],
            "configs[0].nodes[1].address",
        ),
        ([{"nodes": [{"address": "10.0.0.1"}]}], "configs[0].nodes[0].label"),
    ],
)
async def test_create_config_rules_name_nested_fields(
    client: ApiClient, sim: Simulator, configs: Any, field: str
) -> None:
    await _bad(
        client, sim, "loadbalancers.create", None, {"region": "us-east", "configs": configs}, field
    )


async def test_create_with_https_config(client: ApiClient, sim: Simulator) -> None:
    made = await client.call(
        "loadbalancers.create",
        body={
            "region": "us-east",
            "configs": [
                {
                    "port": 443,
                    "protocol": "https",
                    "ssl_cert": escaped(DEMO_CERT),
                    "ssl_key": escaped(DEMO_KEY),
                    "nodes": one_node("192.168.9.9:443"),
                }
            ],
        },
        model=dict,
    )
    cid = cfg_id(sim, made["id"], 443)
    config = await client.call(
        "loadbalancers.configs.view", {"loadbalancerId": made["id"], "configId": cid}, model=dict
    )
    assert config["ssl_fingerprint"] == DEMO_CERT_FINGERPRINT


async def test_config_create_may_bring_nodes(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "zurich-intern")
    params = {"loadbalancerId": bid}
    await _bad(
        client,
        sim,
        "loadbalancers.configs.create",
        params,
        {"port": 6000, "nodes": [{"address": "1.1.1.1", "label": "pub"}]},
        "nodes[0].address",
    )
    made = await client.call(
        "loadbalancers.configs.create",
        params,
        body={"port": 6000, "nodes": [{"address": "10.1.1.1", "label": "priv"}]},
        model=dict,
    )
    assert len(node_ids(sim, made["id"])) == 1


# -- cascades -------------------------------------------------------------------------------


async def test_deleting_a_config_deletes_its_nodes(client: ApiClient, sim: Simulator) -> None:
    web = lb_id(sim, "web-frontend")
    cid = cfg_id(sim, web, 443)
    other = cfg_id(sim, web, 80)
    doomed = node_ids(sim, cid)
    kept = node_ids(sim, other)
    assert doomed
    await client.call(
        "loadbalancers.configs.delete", {"loadbalancerId": web, "configId": cid}, model=dict
    )
    assert sim.store.get(CONFIGS, cid) is None
    assert all(sim.store.get(NODES, n) is None for n in doomed)
    assert node_ids(sim, other) == kept
    await _refused(
        client, "loadbalancers.nodes.list", {"loadbalancerId": web, "configId": cid}, status=404
    )


async def test_deleting_a_balancer_deletes_configs_nodes_and_grants(
    client: ApiClient, sim: Simulator
) -> None:
    bid = lb_id(sim, "staging-api")
    cids = [c["id"] for c in sim.store.rows(CONFIGS) if c["_balancer_id"] == bid]
    nids = [n["id"] for n in sim.store.rows(NODES) if n["_balancer_id"] == bid]
    assert cids and nids
    user = sim.store.get("users", "ops-restricted")
    assert user is not None
    assert any(g["id"] == bid for g in user["grants"]["loadbalancer"])
    await client.call("loadbalancers.delete", {"loadbalancerId": bid}, model=dict)
    assert sim.store.get(BALANCERS, bid) is None
    assert all(sim.store.get(CONFIGS, c) is None for c in cids)
    assert all(sim.store.get(NODES, n) is None for n in nids)
    assert not any(g["id"] == bid for g in user["grants"]["loadbalancer"])
    await _refused(client, "loadbalancers.view", {"loadbalancerId": bid}, status=404)


async def test_children_must_belong_to_the_path(client: ApiClient, sim: Simulator) -> None:
    web = lb_id(sim, "web-frontend")
    staging = lb_id(sim, "staging-api")
    foreign = cfg_id(sim, staging, 8080)
    await _refused(
        client,
        "loadbalancers.configs.view",
        {"loadbalancerId": web, "configId": foreign},
        status=404,
    )
    node = node_ids(sim, foreign)[0]
    own = cfg_id(sim, web, 80)
    await _refused(
        client,
        "loadbalancers.nodes.view",
        {"loadbalancerId": web, "configId": own, "nodeId": node},
        status=404,
    )
    refuse = _unchanged_refusal(sim)
    await refuse(
        client,
        "loadbalancers.nodes.delete",
        {"loadbalancerId": web, "configId": own, "nodeId": node},
        status=404,
    )


# -- restricted users and tags --------------------------------------------------------------


async def test_restricted_create_needs_add_loadbalancers(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    refuse = _unchanged_refusal(sim)
    await refuse(restricted, "loadbalancers.create", body={"region": "us-east"}, status=403)
    user = sim.store.get("users", "ops-restricted")
    assert user is not None
    user["grants"]["global"]["add_loadbalancers"] = True
    made = await restricted.call(
        "loadbalancers.create", body={"region": "us-east", "label": "mine-lb"}, model=dict
    )
    assert {"id": made["id"], "label": "mine-lb", "permissions": "read_write"} in user["grants"][
        "loadbalancer"
    ]
    assert (
        await restricted.call("loadbalancers.view", {"loadbalancerId": made["id"]}, model=dict)
    )["label"] == "mine-lb"


async def test_restricted_grants_decide_visibility_and_changes(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    restricted = client_for("restricted")
    listed = await restricted.call("loadbalancers.list", model=dict)
    assert {b["label"] for b in listed["data"]} == {"web-frontend", "staging-api"}
    hidden = lb_id(sim, "zurich-intern")
    await _refused(restricted, "loadbalancers.view", {"loadbalancerId": hidden}, status=404)
    await _refused(restricted, "loadbalancers.configs.list", {"loadbalancerId": hidden}, status=404)
    hidden_cfg = cfg_id(sim, hidden, 5432)
    refuse = _unchanged_refusal(sim)
    await refuse(
        restricted,
        "loadbalancers.configs.update",
        {"loadbalancerId": hidden, "configId": hidden_cfg},
        body={"algorithm": "source"},
        status=404,
    )
    # read_only: readable down to the nodes, but no change anywhere.
    web = lb_id(sim, "web-frontend")
    cid = cfg_id(sim, web, 80)
    node = node_ids(sim, cid)[0]
    assert (
        await restricted.call(
            "loadbalancers.configs.view", {"loadbalancerId": web, "configId": cid}, model=dict
        )
    )["port"] == 80
    assert (
        await restricted.call(
            "loadbalancers.nodes.view",
            {"loadbalancerId": web, "configId": cid, "nodeId": node},
            model=dict,
        )
    )["id"] == node
    for name, params, body in (
        ("loadbalancers.update", {"loadbalancerId": web}, {"client_conn_throttle": 1}),
        ("loadbalancers.delete", {"loadbalancerId": web}, None),
        ("loadbalancers.configs.create", {"loadbalancerId": web}, {"port": 9999}),
        (
            "loadbalancers.configs.update",
            {"loadbalancerId": web, "configId": cid},
            {"check_attempts": 4},
        ),
        ("loadbalancers.configs.delete", {"loadbalancerId": web, "configId": cid}, None),
        (
            "loadbalancers.nodes.create",
            {"loadbalancerId": web, "configId": cid},
            {"address": "10.0.0.9", "label": "nine"},
        ),
        (
            "loadbalancers.nodes.update",
            {"loadbalancerId": web, "configId": cid, "nodeId": node},
            {"weight": 3},
        ),
        (
            "loadbalancers.nodes.delete",
            {"loadbalancerId": web, "configId": cid, "nodeId": node},
            None,
        ),
    ):
        await refuse(restricted, name, params, body=body, status=403)
    # read_write: changes allowed.
    staging = lb_id(sim, "staging-api")
    out = await restricted.call(
        "loadbalancers.update",
        {"loadbalancerId": staging},
        body={"client_conn_throttle": 3},
        model=dict,
    )
    assert out["client_conn_throttle"] == 3
    made = await restricted.call(
        "loadbalancers.configs.create", {"loadbalancerId": staging}, body={"port": 9443}, model=dict
    )
    assert made["port"] == 9443


async def test_only_unrestricted_users_set_tags(
    client_for: Callable[..., ApiClient], client: ApiClient, sim: Simulator
) -> None:
    restricted = client_for("restricted")
    staging = lb_id(sim, "staging-api")
    current = list(_rec(sim, staging)["tags"])
    await _bad(
        restricted,
        sim,
        "loadbalancers.update",
        {"loadbalancerId": staging},
        {"tags": ["mine"]},
        "tags",
        status=403,
    )
    # Sending the unchanged list is harmless.
    same = await restricted.call(
        "loadbalancers.update", {"loadbalancerId": staging}, body={"tags": current}, model=dict
    )
    assert same["tags"] == current
    user = sim.store.get("users", "ops-restricted")
    assert user is not None
    user["grants"]["global"]["add_loadbalancers"] = True
    await _bad(
        restricted,
        sim,
        "loadbalancers.create",
        None,
        {"region": "us-east", "tags": ["x"]},
        "tags",
        status=403,
    )
    await _bad(
        client, sim, "loadbalancers.update", {"loadbalancerId": staging}, {"tags": "x"}, "tags"
    )
    out = await client.call(
        "loadbalancers.update",
        {"loadbalancerId": staging},
        body={"tags": ["blue", "[green]"]},
        model=dict,
    )
    assert out["tags"] == ["blue", "[green]"]
    made = await client.call(
        "loadbalancers.create", body={"region": "us-east", "tags": ["new"]}, model=dict
    )
    assert made["tags"] == ["new"]


def _rec(sim: Simulator, balancer: int) -> dict[str, Any]:
    record = sim.store.get(BALANCERS, balancer)
    assert record is not None
    return record


async def test_grant_for_other_restricted_state_untouched(
    client_for: Callable[..., ApiClient], sim: Simulator
) -> None:
    """A grant given later makes a hidden balancer visible (grants are read per request)."""
    restricted = client_for("restricted")
    hidden = lb_id(sim, "zurich-intern")
    await _refused(restricted, "loadbalancers.view", {"loadbalancerId": hidden}, status=404)
    grant_restricted(sim.store, "loadbalancer", hidden, "zurich-intern", "read_only")
    seen = await restricted.call("loadbalancers.view", {"loadbalancerId": hidden}, model=dict)
    assert seen["label"] == "zurich-intern"
