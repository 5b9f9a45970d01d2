"""The checks a form makes before sending, against the simulator: what the choosers offer and
refuse agrees with what the API then accepts and refuses.

Resize types too small for the disks, balancer backends (private addresses, with a port),
SSH keys from the profile and ``~/.ssh`` (a temporary home), the profile's user, a managed
service's credentials and contact group, a tag's Kubernetes clusters, a tag across every area
(the palette's ``#tag``) and the MongoDB CA certificate shown as a valid PEM.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography import x509

from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.resources.areas import AREAS, SPECS, open_target
from tui.resources.choice_items import choice_items
from tui.resources.choosers import REFUSED_MARK, chooser_rows
from tui.resources.compute_choices import resize_table
from tui.resources.format import field_display
from tui.resources.forms import CHOICE_SOURCES, add_row, build_body, form_for
from tui.resources.loader import fetch_all, iter_chunks
from tui.resources.tag_search import tagged
from tui.simulator import DEMO_TOKENS, Simulator
from tui.simulator.lazy import IN_PROCESS_BASE

WEB_PROD_1 = 51201
"""A std-2 (80 GB) instance with 80 GB of disks and a private address, in us-east."""

# Made with ssh-keygen -t ed25519; their fingerprints as ``ssh-keygen -lf`` prints them.
LAPTOP = (
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHBRw170QtFanrmRo238pE+Eq4kY66k933Co+JLKw7DD me@laptop"
)
LAPTOP_FINGERPRINT = "SHA256:q9e0mUSTwhZN1hlkc3rRNR2D49hnCgIZfJEnDYObb3I"


async def offered(
    client: ApiClient, name: str, context: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The items the choice source ``name`` offers, filtered as a form filled with
    ``context`` filters them."""
    source = CHOICE_SOURCES[name]
    return await choice_items(
        client, source, {}, lambda item: source.accepts(item, context or {}), 500
    )


# -- resize ----------------------------------------------------------------------------------


async def test_the_resize_chooser_refuses_what_the_api_refuses(client: ApiClient) -> None:
    params = {"computeId": WEB_PROD_1}
    types = await client.fetch_all("compute.types.list", model=dict)
    disks = await client.fetch_all("compute.disks.list", params, model=dict)
    table = resize_table(types, disks, "std-2")
    rows = {row.value: row for row in table.rows}
    refused = {value for value, row in rows.items() if row.refused}
    assert {"nano-1", "std-1"} <= refused  # 25 and 50 GB for 80 GB of disks
    assert "std-4" not in refused and "std-2" not in refused
    nano = rows["nano-1"]
    assert nano.cells[1] == f"{REFUSED_MARK} nano-1"  # beside the class: seen at 80 columns
    assert nano.refused == "too small: the disks use 80 GB (shrink or delete one first)"
    with pytest.raises(ApiError) as refusal:
        await client.call("compute.instances.resize", params, body={"type": "nano-1"})
    assert "type" in refusal.value.field_errors()
    await client.call("compute.instances.resize", params, body={"type": "std-4"})


# -- balancer backends -----------------------------------------------------------------------


async def test_backends_are_private_addresses_and_the_others_say_why(client: ApiClient) -> None:
    items = await offered(client, "private_address")
    source = CHOICE_SOURCES["private_address"]
    table = chooser_rows(source.facts, items, source.option)
    by_label = {row.text.split(" — ")[-1]: row for row in table.rows}
    web = next(row for row in table.rows if row.value == "192.168.128.2")
    assert not web.refused and web.cells[0] == "  192.168.128.2"
    staging = next(row for text, row in by_label.items() if text.startswith("staging-api-1"))
    assert staging.value == ""  # nothing to choose: the input stays as good as blank
    assert staging.refused.startswith("no private IPv4 address")
    assert staging.cells[0].startswith(REFUSED_MARK)
    assert table.rows[-1].refused  # the unavailable ones come last
    # In the balancer's region only: us-east's three instances all have one.
    east = await offered(client, "private_address", {"region": "us-east"})
    assert sorted(i["each"] for i in east) == ["192.168.128.1", "192.168.128.2", "192.168.128.3"]


async def test_a_balancer_with_two_nodes_on_port_8080_in_one_form(client: ApiClient) -> None:
    east = await offered(client, "private_address", {"region": "us-east"})
    web = [i["each"] for i in east if str(i.get("label")).startswith("web-prod")]
    form, _ = add_row(form_for("loadbalancers:LoadBalancerCreate"), "configs.0.nodes")
    values = {"region": "us-east", "label": "shop-8080", "configs.0.port": "80"}
    for index, address in enumerate(web):
        values[f"configs.0.nodes.{index}.address"] = address
        values[f"configs.0.nodes.{index}.port"] = "8080"
        values[f"configs.0.nodes.{index}.label"] = f"web-{index + 1}"
    result = build_body(form, values)
    assert result.ok and result.body is not None, result.errors
    created = await client.call("loadbalancers.create", body=result.body, model=dict)
    lb = {"loadbalancerId": created["id"]}
    config = (await client.fetch_all("loadbalancers.configs.list", lb, model=dict))[0]
    nodes = await client.fetch_all(
        "loadbalancers.nodes.list", {**lb, "configId": config["id"]}, model=dict
    )
    assert sorted(n["address"] for n in nodes) == [f"{a}:8080" for a in sorted(web)]


# -- SSH keys and users of a new instance ----------------------------------------------------


def _local_keys() -> None:
    ssh = Path(os.environ["HOME"]) / ".ssh"  # the test's own home
    ssh.mkdir(mode=0o700)
    (ssh / "id_ed25519.pub").write_text(LAPTOP + "\n")
    (ssh / "old_rsa.pub").write_text("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC7 old@desktop\n")


async def test_keys_come_from_the_profile_and_from_the_home(client: ApiClient) -> None:
    _local_keys()
    keys = await offered(client, "ssh_public_keys")
    origins = [(k["origin"], k["comment"]) for k in keys]
    assert origins[:2] == [("profile", "demo@laptop"), ("profile", "café-build@ci")]
    assert origins[2:] == [("id_ed25519.pub", "me@laptop"), ("old_rsa.pub", "old@desktop")]
    laptop = keys[2]
    assert laptop["fingerprint"] == LAPTOP_FINGERPRINT
    assert CHOICE_SOURCES["ssh_public_keys"].option(laptop) == (
        f"me@laptop · id_ed25519.pub · {LAPTOP_FINGERPRINT} (ED25519)",
        LAPTOP,
    )


async def test_a_key_in_both_places_is_offered_once(client: ApiClient, sim: Simulator) -> None:
    _local_keys()
    profile = sim.store.get("profile.profiles", "demo")
    profile["authorized_keys"] = [LAPTOP]
    sim.store.put("profile.profiles", "demo", profile)
    keys = await offered(client, "ssh_public_keys")
    assert [k["key"] for k in keys].count(LAPTOP) == 1
    assert keys[0]["origin"] == "profile"


async def test_a_new_instance_with_two_local_keys_and_the_profile_user(
    client: ApiClient, sim: Simulator
) -> None:
    _local_keys()
    keys = [k["key"] for k in await offered(client, "ssh_public_keys") if k["origin"] != "profile"]
    users = [u["username"] for u in await offered(client, "profile_users")]
    assert users == ["demo"]
    result = build_body(
        form_for("compute:InstanceCreate"),
        {
            "region": "us-east",
            "type": "std-2",
            "label": "two-keys",
            "image": "compute/debian12",
            "root_pass": "a-long-root-password-7",
            "authorized_keys": keys,
            "authorized_users": users,
        },
    )
    assert result.ok and result.body is not None, result.errors
    assert len(result.body["authorized_keys"]) == 2
    await client.call("compute.instances.create", body=result.body, model=dict)
    assert any(r["label"] == "two-keys" for r in sim.store.rows("compute.instances"))


# -- managed services ------------------------------------------------------------------------


async def test_a_service_picks_its_credentials_and_contact_group(
    client: ApiClient, sim: Simulator
) -> None:
    credentials = await offered(client, "managed_credentials")
    assert len(credentials) >= 2
    groups = await offered(client, "consultation_group")
    # Two contacts share "on-call", one has no group: one choice.
    assert [g["group"] for g in groups] == ["on-call"]
    form = form_for("managed:ServiceCreate")
    picked = [c["id"] for c in credentials[:2]]
    result = build_body(
        form,
        {
            "label": "shop-https",
            "service_type": "url",
            "address": "https://shop.example.com/health",
            "timeout": "30",
            "credentials": picked,
            "consultation_group": "on-call",
        },
    )
    assert result.ok and result.body is not None, result.errors
    created = await client.call("managed.services.create", body=result.body, model=dict)
    assert created["credentials"] == picked and created["consultation_group"] == "on-call"


# -- tags across kinds -----------------------------------------------------------------------


async def test_a_tags_objects_include_its_kubernetes_clusters(client: ApiClient) -> None:
    objects = await fetch_all(client, SPECS["tags.objects"], {"label": "production"})
    kinds = {(o["_kind"], o["_label"]) for o in objects}
    assert ("k8s_cluster", "shop-prod") in kinds
    assert ("k8s_cluster", "zürich-staging") not in kinds  # tagged staging only
    assert ("compute", "db-primary") in kinds  # the listing's own still come first
    assert objects[-1]["_kind"] == "k8s_cluster"
    cluster = next(o for o in objects if o["_kind"] == "k8s_cluster")
    assert open_target(SPECS["tags.objects"], cluster).id == "k8s.clusters"


class FilterSpy(httpx.AsyncBaseTransport):
    """The simulator's transport, noting the filter of every clusters listing asked."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.filters: list[str | None] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/k8s/clusters"):
            self.filters.append(request.headers.get("X-Filter"))
        return await self.inner.handle_async_request(request)


async def test_clusters_are_found_by_a_filtered_listing(sim: Simulator) -> None:
    spy = FilterSpy(sim.transport())
    api = ApiClient(
        IN_PROCESS_BASE, DEMO_TOKENS["unrestricted"], transport=spy, allow_insecure=True
    )
    try:
        await fetch_all(api, SPECS["tags.objects"], {"label": "production"})
    finally:
        await api.aclose()
    assert spy.filters == ['{"tags":"production"}']


async def test_a_server_that_ignores_the_filter_still_lists_only_tagged_clusters(
    client: ApiClient,
) -> None:
    class Unfiltered:
        """The client, but every listing answers in full (a filter is not understood)."""

        async def call(self, *args: Any, **kwargs: Any) -> Any:
            return await client.call(*args, **kwargs)

        async def iter_all(self, *args: Any, where: Any = None, **kwargs: Any) -> Any:
            async for page in client.iter_all(*args, **kwargs):
                yield page

    objects = await fetch_all(Unfiltered(), SPECS["tags.objects"], {"label": "production"})  # type: ignore[arg-type]
    clusters = [o["_label"] for o in objects if o["_kind"] == "k8s_cluster"]
    assert clusters == ["shop-prod"]


async def test_the_palette_tag_search_finds_clusters(client: ApiClient) -> None:
    # What the palette searches: the first chunk of every area, as the app prefetches them.
    lists = []
    for area in AREAS:
        spec = SPECS[area.root]
        if spec.singleton:
            continue
        try:
            async for chunk in iter_chunks(client, spec, {}):
                lists.append((spec, {}, chunk.items))
                break
        except ApiError:
            continue
    hits = tagged(lists, "#production")
    found = {(h.spec.id, h.text) for h in hits}
    assert ("k8s.clusters", "shop-prod") in found
    assert ("compute.instances", "db-primary") in found


# -- certificates ----------------------------------------------------------------------------


async def test_the_mongodb_ca_certificate_is_shown_as_a_valid_pem(
    client: ApiClient, sim: Simulator
) -> None:
    mongo = next(d for d in sim.store.rows("databases.instances") if d["engine"] == "mongodb")
    spec = SPECS["databases.mongodb.ssl"]
    items = await fetch_all(client, spec, {"instanceId": mongo["id"]})
    text = field_display(items[0], spec.sections[0].fields[0])
    certificate = x509.load_pem_x509_certificate(text.encode())
    assert "CA" in certificate.subject.rfc4514_string()
