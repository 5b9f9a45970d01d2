"""Every load balancer operation through the typed ApiClient.call, against the simulator."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import SecretStr, ValidationError

from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models.docs import field_help
from tui.models.loadbalancers import (
    LbConfig,
    LbConfigCreate,
    LbConfigUpdate,
    LbNode,
    LbNodeCreate,
    LbNodeUpdate,
    LbTransferUpdate,
    LoadBalancer,
    LoadBalancerCreate,
    LoadBalancerUpdate,
)
from tui.simulator import Simulator
from tui.simulator.seeds.loadbalancers import (
    DEMO_CERT,
    DEMO_CERT_COMMON_NAME,
    DEMO_CERT_FINGERPRINT,
    DEMO_KEY,
)

REGIONS = ("us-east", "eu-west", "eu-central")


@pytest.fixture(autouse=True)
def catalog(sim: Simulator) -> None:
    """The region ids used here, in case the compute area has not seeded its catalog."""
    for rid in REGIONS:
        sim.store.table("compute.regions").setdefault(
            rid, {"id": rid, "label": rid, "country": "us", "status": "ok", "capabilities": []}
        )


def lb_id(sim: Simulator, label: str) -> int:
    rows = sim.store.rows("loadbalancers.balancers")
    return int(next(r["id"] for r in rows if r["label"] == label))


def config_id(sim: Simulator, balancer: int, port: int) -> int:
    return int(
        next(
            c["id"]
            for c in sim.store.rows("loadbalancers.configs")
            if c["_balancer_id"] == balancer and c["port"] == port
        )
    )


def escaped(pem: str) -> str:
    """A PEM text with its line breaks written as backslash-n, as the reference describes."""
    return pem.strip().replace("\n", "\\n")


async def test_list_iter_all_view(client: ApiClient, sim: Simulator) -> None:
    page = await client.fetch_page("loadbalancers.list", page_size=25)
    assert page.results == len(sim.store.rows("loadbalancers.balancers"))
    assert all(isinstance(b, LoadBalancer) for b in page.data)
    pages = [p async for p in client.iter_all("loadbalancers.list")]
    assert [b.id for p in pages for b in p.data] == [b.id for b in page.data]
    assert [b.id for b in await client.fetch_all("loadbalancers.list")] == [b.id for b in page.data]
    staging = await client.call("loadbalancers.view", {"loadbalancerId": lb_id(sim, "staging-api")})
    assert staging.label == "staging-api" and staging.region == "eu-west"
    assert staging.ipv4 and staging.ipv6 and staging.hostname
    assert staging.transfer is not None and staging.transfer.total == 3122.5
    assert "staging" in staging.tags


async def test_create_update_delete(client: ApiClient, sim: Simulator) -> None:
    made = await client.call(
        "loadbalancers.create",
        body=LoadBalancerCreate(
            region="us-east",
            label="api-lb",
            client_conn_throttle=5,
            configs=[
                LbConfigCreate(
                    port=80, nodes=[LbNodeCreate(address="192.168.200.1", label="app-1")]
                )
            ],
        ),
    )
    assert made.label == "api-lb" and made.client_conn_throttle == 5 and made.ipv4
    assert made.transfer is not None and made.transfer.total == 0
    configs = await client.fetch_all("loadbalancers.configs.list", {"loadbalancerId": made.id or 0})
    assert [c.port for c in configs] == [80]
    nodes = await client.fetch_all(
        "loadbalancers.nodes.list", {"loadbalancerId": made.id or 0, "configId": configs[0].id or 0}
    )
    assert [n.label for n in nodes] == ["app-1"]
    changed = await client.call(
        "loadbalancers.update",
        {"loadbalancerId": made.id or 0},
        body=LoadBalancerUpdate(
            label="api-lb-2",
            client_conn_throttle=0,
            tags=["blue"],
            transfer=LbTransferUpdate.model_validate({"in": 10, "out": 5}),
        ),
    )
    assert changed.label == "api-lb-2" and changed.tags == ["blue"]
    assert changed.transfer is not None and changed.transfer.total == 15
    await client.call("loadbalancers.delete", {"loadbalancerId": made.id or 0})
    with pytest.raises(ApiError) as info:
        await client.call("loadbalancers.view", {"loadbalancerId": made.id or 0})
    assert info.value.status == 404
    assert sim.store.get("loadbalancers.configs", configs[0].id) is None


async def test_create_and_update_by_keywords(client: ApiClient) -> None:
    made = await client.call("loadbalancers.create", body=LoadBalancerCreate(region="eu-west"))
    assert made.label == f"lb-{made.id}"
    renamed = await client.call(
        "loadbalancers.update",
        {"loadbalancerId": made.id or 0},
        body=LoadBalancerUpdate(label="kw-lb"),
    )
    assert renamed.label == "kw-lb"


async def test_configs(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "zurich-intern")
    page = await client.fetch_page(
        "loadbalancers.configs.list", {"loadbalancerId": bid}, page_size=25
    )
    assert [c.port for c in page.data] == [5432]
    assert [
        c.id
        async for p in client.iter_all("loadbalancers.configs.list", {"loadbalancerId": bid})
        for c in p.data
    ] == [page.data[0].id]
    made = await client.call(
        "loadbalancers.configs.create",
        {"loadbalancerId": bid},
        body=LbConfigCreate(
            port=443,
            protocol="https",
            ssl_cert=escaped(DEMO_CERT),
            ssl_key=SecretStr(escaped(DEMO_KEY)),
            check="http",
            check_path="/ping",
            nodes=[LbNodeCreate(address="10.1.0.5:8443", label="tls-1", mode="accept")],
        ),
    )
    assert isinstance(made, LbConfig)
    assert made.ssl_cert == "<REDACTED>" and made.ssl_key == "<REDACTED>"
    assert made.ssl_commonname == DEMO_CERT_COMMON_NAME
    assert made.ssl_fingerprint == DEMO_CERT_FINGERPRINT
    assert made.loadbalancer_id == bid
    assert made.nodes_status is not None and made.nodes_status.up == 0
    seen = await client.call(
        "loadbalancers.configs.view", {"loadbalancerId": bid, "configId": made.id or 0}
    )
    assert seen.port == 443 and seen.protocol == "https"
    changed = await client.call(
        "loadbalancers.configs.update",
        {"loadbalancerId": bid, "configId": made.id or 0},
        body=LbConfigUpdate(algorithm="leastconn", check_attempts=5),
    )
    assert changed.algorithm == "leastconn" and changed.check_attempts == 5
    assert changed.ssl_fingerprint == DEMO_CERT_FINGERPRINT
    plain = await client.call(
        "loadbalancers.configs.update",
        {"loadbalancerId": bid, "configId": made.id or 0},
        body=LbConfigUpdate(protocol="http"),
    )
    assert plain.ssl_cert is None and plain.ssl_commonname is None
    await client.call(
        "loadbalancers.configs.delete", {"loadbalancerId": bid, "configId": made.id or 0}
    )
    assert [
        c.port
        for c in await client.fetch_all("loadbalancers.configs.list", {"loadbalancerId": bid})
    ] == [5432]


async def test_nodes(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "staging-api")
    cid = config_id(sim, bid, 8080)
    page = await client.fetch_page(
        "loadbalancers.nodes.list", {"loadbalancerId": bid, "configId": cid}, page_size=25
    )
    assert {n.mode for n in page.data} == {"accept", "reject", "backup"}
    assert all(isinstance(n, LbNode) for n in page.data)
    assert [
        n.id
        async for p in client.iter_all(
            "loadbalancers.nodes.list", {"loadbalancerId": bid, "configId": cid}
        )
        for n in p.data
    ] == [n.id for n in page.data]
    made = await client.call(
        "loadbalancers.nodes.create",
        {"loadbalancerId": bid, "configId": cid},
        body=LbNodeCreate(address="10.8.0.40", label="api-new"),
    )
    assert made.mode == "accept" and made.weight == 50 and made.status == "unknown"
    assert made.config_id == cid and made.loadbalancer_id == bid
    seen = await client.call(
        "loadbalancers.nodes.view", {"loadbalancerId": bid, "configId": cid, "nodeId": made.id or 0}
    )
    assert seen.address == "10.8.0.40"
    changed = await client.call(
        "loadbalancers.nodes.update",
        {"loadbalancerId": bid, "configId": cid, "nodeId": made.id or 0},
        body=LbNodeUpdate(mode="drain", weight=7),
    )
    assert changed.mode == "drain" and changed.weight == 7
    by_kw = await client.call(
        "loadbalancers.nodes.update",
        {"loadbalancerId": bid, "configId": cid, "nodeId": made.id or 0},
        body=LbNodeUpdate(label="api-renamed"),
    )
    assert by_kw.label == "api-renamed"
    kw_made = await client.call(
        "loadbalancers.nodes.create",
        {"loadbalancerId": bid, "configId": cid},
        body=LbNodeCreate(address="10.8.0.41:9000", label="api-kw"),
    )
    assert kw_made.address == "10.8.0.41:9000"
    await client.call(
        "loadbalancers.nodes.delete",
        {"loadbalancerId": bid, "configId": cid, "nodeId": made.id or 0},
    )
    labels = [
        n.label
        for n in await client.fetch_all(
            "loadbalancers.nodes.list", {"loadbalancerId": bid, "configId": cid}
        )
    ]
    assert "api-renamed" not in labels and "api-kw" in labels


async def test_server_errors_name_fields(client: ApiClient, sim: Simulator) -> None:
    bid = lb_id(sim, "web-frontend")
    with pytest.raises(ApiError) as info:
        await client.call(
            "loadbalancers.configs.create", {"loadbalancerId": bid}, body=LbConfigCreate(port=80)
        )
    assert info.value.status == 400 and "port" in info.value.field_errors()
    with pytest.raises(ApiError) as info:
        await client.call(
            "loadbalancers.create", body=LoadBalancerCreate(region="us-east", label="web-frontend")
        )
    assert "label" in info.value.field_errors()


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        (LoadBalancerCreate, {}),
        (LoadBalancerCreate, {"region": "us-east", "label": "ab"}),
        (LoadBalancerCreate, {"region": "us-east", "label": "x" * 33}),
        (LoadBalancerCreate, {"region": "us-east", "label": "two\nlines"}),
        (LoadBalancerCreate, {"region": "us-east", "client_conn_throttle": 21}),
        (LoadBalancerCreate, {"region": "us-east", "client_conn_throttle": -1}),
        (LoadBalancerCreate, {"region": "us-east", "configs": [{"port": 80}]}),
        (
            LoadBalancerCreate,
            {
                "region": "us-east",
                "configs": [
                    {"nodes": [{"address": "10.0.0.1", "label": "one"}]},
                    {"nodes": [{"address": "10.0.0.2", "label": "two"}]},
                ],
            },
        ),
        (LoadBalancerCreate, {"region": "us-east", "colour": "red"}),
        (LoadBalancerUpdate, {"transfer": {"in": -1}}),
        (LbConfigCreate, {"port": 0}),
        (LbConfigCreate, {"port": 65536}),
        (LbConfigCreate, {"check_attempts": 31}),
        (LbConfigCreate, {"check_timeout": 0}),
        (LbConfigCreate, {"check_timeout": 31}),
        (LbConfigCreate, {"check_interval": 20}),
        (LbConfigCreate, {"check_timeout": 10, "check_interval": 10}),
        (LbConfigCreate, {"protocol": "https"}),
        (LbConfigCreate, {"protocol": "http", "ssl_key": "k"}),
        (LbConfigCreate, {"protocol": "tcp", "ssl_cert": DEMO_CERT}),
        (LbConfigCreate, {"proxy_protocol": "v1"}),
        (LbConfigCreate, {"protocol": "https", "proxy_protocol": "v2"}),
        (LbConfigCreate, {"protocol": "tcp", "stickiness": "http_cookie"}),
        (LbConfigCreate, {"check": "http"}),
        (LbConfigCreate, {"check": "http_body", "check_path": "/"}),
        (LbConfigCreate, {"algorithm": "random"}),
        (LbConfigUpdate, {"check_timeout": 20, "check_interval": 10}),
        (LbConfigUpdate, {"protocol": "http", "proxy_protocol": "v1"}),
        (LbConfigUpdate, {"check_path": "healthz"}),
        (LbNodeCreate, {"label": "node"}),
        (LbNodeCreate, {"address": "10.0.0.1"}),
        (LbNodeCreate, {"address": "8.8.8.8", "label": "public"}),
        (LbNodeCreate, {"address": "127.0.0.1", "label": "loopback"}),
        (LbNodeCreate, {"address": "10.0.0.1:0", "label": "port0"}),
        (LbNodeCreate, {"address": "10.0.0.1", "label": "ab"}),
        (LbNodeCreate, {"address": "10.0.0.1", "label": "node", "mode": "standby"}),
        (LbNodeCreate, {"address": "10.0.0.1", "label": "node", "weight": 0}),
        (LbNodeCreate, {"address": "10.0.0.1", "label": "node", "weight": 256}),
        (LbNodeUpdate, {"address": "not-an-ip"}),
        (LbNodeUpdate, {"status": "UP"}),
    ],
)
def test_request_models_are_strict(model: Any, fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        model(**fields)


def test_request_models_send_only_what_was_set() -> None:
    assert LoadBalancerCreate(region="us-east").body() == {"region": "us-east"}
    assert LbNodeUpdate(weight=3).body() == {"weight": 3}
    tls = LbConfigCreate(protocol="https", ssl_cert=DEMO_CERT, ssl_key=SecretStr(DEMO_KEY))
    assert tls.body()["ssl_key"] == DEMO_KEY  # revealed only for sending
    assert DEMO_KEY not in repr(tls)
    transfer = LbTransferUpdate.model_validate({"in": 1.5})
    assert LoadBalancerUpdate(transfer=transfer).body() == {"transfer": {"in": 1.5}}
    assert LbNodeCreate(address="[fd00::5]:8080", label="v6-node").address == "[fd00::5]:8080"
    assert field_help(LbConfigCreate, "check_timeout")
    assert field_help(LbNodeUpdate, "address")


def test_response_models_are_tolerant() -> None:
    lb = LoadBalancer.model_validate(
        {"id": 1, "transfer": {"in": 1, "out": 2, "total": 3}, "extra": [1]}
    )
    assert lb.transfer is not None and lb.transfer.in_ == 1 and lb.raw()["extra"] == [1]
    assert LoadBalancer.model_validate({}).tags == []
    node = LbNode.model_validate({"id": 2, "status": "MAINTENANCE", "mode": "new-mode"})
    assert node.status == "MAINTENANCE"
    config = LbConfig.model_validate({"nodes_status": {"up": 1, "down": 0}, "protocol": "quic"})
    assert config.nodes_status is not None and config.nodes_status.up == 1
