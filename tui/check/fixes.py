"""What the fixes send, and what fixing a waste saves (headless).

Each plan turns a finding's subject into the requests the API reference describes for it,
by operation name; each saving reads the project's price data (:mod:`tui.resources.pricing`),
never a guess.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui.check.account import Account
from tui.check.finders import NEXT_VERSION, world_open
from tui.check.model import Request, Subject
from tui.resources.pricing import price_of_volume


def detach_and_delete_volume(target: Subject) -> tuple[Request, ...]:
    """``POST /volumes/{id}/detach`` when it is attached, then ``DELETE /volumes/{id}``."""
    params = {"volumeId": target.params["volumeId"]}
    detach = (Request("volumes.detach", params),) if target.item.get("compute_id") else ()
    return (*detach, Request("volumes.delete", params))


def delete_instance(target: Subject) -> tuple[Request, ...]:
    """``DELETE /compute/instances/{id}``: billing stops."""
    return (Request("compute.instances.delete", {"computeId": target.params["computeId"]}),)


def _engine(database: Mapping[str, Any]) -> str:
    # The list across engines names it ``mysql`` (or ``mysql/8.0.30`` as in a create).
    return str(database.get("engine") or "").partition("/")[0]


def close_allow_list(target: Subject) -> tuple[Request, ...]:
    """``PUT /databases/{engine}/instances/{id}`` with the allow list less its open ranges
    (an update overwrites the whole list)."""
    allow = target.item.get("allow_list")
    kept = [str(e) for e in allow if not world_open(e)] if isinstance(allow, list) else []
    return (
        Request(
            f"databases.{_engine(target.item)}.update",
            {"instanceId": target.item.get("id")},
            {"allow_list": kept},
        ),
    )


def add_connection_check(target: Subject) -> tuple[Request, ...]:
    """``PUT`` the config with ``check: connection`` (a backend that refuses connections is
    taken out of rotation; it needs nothing else of the backend)."""
    return (Request("loadbalancers.configs.update", dict(target.params), {"check": "connection"}),)


def make_object_private(target: Subject) -> tuple[Request, ...]:
    """``PUT .../object-acl`` with ``acl: private`` for the object."""
    params = {k: target.params[k] for k in ("clusterId", "bucket")}
    body = {"acl": "private", "name": str(target.item.get("name"))}
    return (Request("object_storage.objects.acl_update", params, body),)


def upgrade_cluster(target: Subject) -> tuple[Request, ...]:
    """``PUT /k8s/clusters/{id}`` with the next minor ``k8s_version`` (the only upgrade the
    API allows in one step)."""
    body = {"k8s_version": target.item.get(NEXT_VERSION)}
    return (Request("k8s.clusters.update", {"clusterId": target.params["clusterId"]}, body),)


def delete_record(target: Subject) -> tuple[Request, ...]:
    """``DELETE /domains/{domainId}/records/{recordId}``."""
    return (Request("domains.records.delete", dict(target.params)),)


def delete_node(target: Subject) -> tuple[Request, ...]:
    """``DELETE .../configs/{configId}/nodes/{nodeId}`` (the backend itself is untouched)."""
    return (Request("loadbalancers.nodes.delete", dict(target.params)),)


def delete_domain(target: Subject) -> tuple[Request, ...]:
    """``DELETE /domains/{domainId}``."""
    return (Request("domains.delete", {"domainId": target.params["domainId"]}),)


def instance_saving(target: Subject, account: Account) -> float | None:
    """The instance's monthly price (type, plus backups when on): what deleting it saves."""
    return account.instance_price(target.item)


def volume_saving(target: Subject, _account: Account) -> float | None:
    """The volume's monthly price, when its record gives one (the API lists none)."""
    price = price_of_volume(target.item)
    return price.monthly if price is not None else None
