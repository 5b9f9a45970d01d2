"""The rules' searches: one small function per rule over the account's listings (headless).

Each takes an :class:`~tui.check.account.Account` and yields a :class:`~tui.check.model.Hit`
per object found. They read plain dicts as the API lists them and one pass over a listing is
all any of them does: a 10,000-instance account is checked in well under a second.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator, Mapping
from typing import Any

from tui.check.account import DAY, PARENT, Account, day_text, timestamp
from tui.check.addresses import holds, node_host, parse_address
from tui.check.certificates import not_after
from tui.check.model import Hit, subject

POWERED_OFF_DAYS = 7
"""An instance powered off for longer than this many days is a finding."""

CERTIFICATE_DAYS = 30
"""A certificate expiring within this many days is a finding."""

IMAGE_DAYS = 7
"""An image expiring within this many days is a finding."""

PUBLIC_ACLS = frozenset({"public-read", "public-read-write"})
"""Object ACLs that let everyone read."""

NEXT_VERSION = "_next_version"
"""Field the upgrade finder adds to a cluster it found: the version to move to."""

ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers"
"""The S3 grantee that is everyone (in a ``custom`` ACL's XML)."""


def _parent(item: Mapping[str, Any]) -> dict[str, Any]:
    parent = item.get(PARENT)
    return dict(parent) if isinstance(parent, Mapping) else {}


def _tags(item: Mapping[str, Any]) -> set[str]:
    tags = item.get("tags")
    return {t for t in tags if isinstance(t, str)} if isinstance(tags, list | tuple) else set()


def _backups_on(item: Mapping[str, Any]) -> bool:
    backups = item.get("backups")
    return isinstance(backups, Mapping) and bool(backups.get("enabled"))


# -- waste -----------------------------------------------------------------------------------


def unattached_volumes(account: Account) -> Iterator[Hit]:
    """Volumes attached to no instance."""
    for volume in account.items("volumes"):
        if not volume.get("compute_id"):
            size = volume.get("size")
            detail = f"{size} GB in {volume.get('region')}" if size else str(volume.get("region"))
            yield Hit(subject("volumes", volume), f"not attached; {detail}")


def powered_off_instances(account: Account) -> Iterator[Hit]:
    """Instances ``offline`` for over :data:`POWERED_OFF_DAYS` (billed all the same).

    The API gives no power-off time: the instance's ``updated`` is the latest it can be.
    """
    limit = account.now - POWERED_OFF_DAYS * DAY
    for instance in account.items("instances"):
        if instance.get("status") != "offline":
            continue
        since = timestamp(instance.get("updated"))
        if since is not None and since < limit:
            days = int((account.now - since) // DAY)
            yield Hit(
                subject("compute.instances", instance),
                f"offline since {day_text(since)} ({days} days), type {instance.get('type')}",
            )


# -- risk ------------------------------------------------------------------------------------


def important_without_backups(account: Account) -> Iterator[Hit]:
    """Instances tagged with an important tag whose backups are off."""
    if not account.important_tags:
        return
    for instance in account.items("instances"):
        important = _tags(instance) & account.important_tags
        if important and not _backups_on(instance):
            tags = ", ".join(sorted(important))
            yield Hit(subject("compute.instances", instance), f"tagged {tags}; backups off")


def world_open(entry: Any) -> bool:
    """True for an allow-list entry that admits every address (a range of prefix length 0)."""
    try:
        return ipaddress.ip_network(str(entry).strip(), strict=False).prefixlen == 0
    except ValueError:
        return False


def open_databases(account: Account) -> Iterator[Hit]:
    """Databases whose allow list admits every address (``0.0.0.0/0``, ``::/0``)."""
    for database in account.items("databases"):
        allow = database.get("allow_list")
        open_entries = [e for e in allow if world_open(e)] if isinstance(allow, list) else []
        if open_entries:
            yield Hit(
                subject("databases", database),
                f"allow list admits {', '.join(map(str, open_entries))}",
            )


def closed_databases(account: Account) -> Iterator[Hit]:
    """Databases whose allow list is empty: every connection is refused."""
    for database in account.items("databases"):
        allow = database.get("allow_list")
        if isinstance(allow, list) and not allow:
            yield Hit(
                subject("databases", database), f"empty allow list ({database.get('status')})"
            )


def _config_subject(account: Account, config: Mapping[str, Any]) -> Any:
    parent = _parent(config)
    balancer = account.balancers.get(str(parent.get("loadbalancerId")), {})
    label = f"{balancer.get('label', parent.get('loadbalancerId'))}:{config.get('port')}"
    return subject("loadbalancers.configs", config, parent, label=label)


def configs_without_health_check(account: Account) -> Iterator[Hit]:
    """Balancer configs whose ``check`` is ``none``: a dead backend keeps getting traffic."""
    for config in account.items("lb_configs"):
        if config.get("check") in (None, "", "none"):
            yield Hit(_config_subject(account, config), f"{config.get('protocol')}, check none")


def configs_with_every_node_down(account: Account) -> Iterator[Hit]:
    """Balancer configs with no node up: every node down, or no node at all."""
    nodes: dict[str, list[Mapping[str, Any]]] = {}
    for node in account.items("lb_nodes"):
        nodes.setdefault(str(_parent(node).get("configId")), []).append(node)
    for config in account.items("lb_configs"):
        mine = nodes.get(str(config.get("id")), [])
        if not mine:
            yield Hit(_config_subject(account, config), "no backend nodes")
        elif all(str(n.get("status", "")).upper() == "DOWN" for n in mine):
            yield Hit(_config_subject(account, config), f"all {len(mine)} node(s) down")


def expiring_certificates(account: Account) -> Iterator[Hit]:
    """Balancer configs serving a certificate that has expired or expires within
    :data:`CERTIFICATE_DAYS`."""
    soon = account.now + CERTIFICATE_DAYS * DAY
    for entry in account.items("lb_certificates"):
        config = entry.get("config")
        try:
            ends = not_after(str(entry.get("pem") or ""))
        except ValueError:
            continue  # not a certificate that can be read: nothing to say about its end
        if ends > soon or not isinstance(config, Mapping):
            continue
        if ends <= account.now:
            detail = f"certificate expired {day_text(ends)}"
        else:
            detail = (
                f"certificate expires {day_text(ends)} (in {int((ends - account.now) // DAY)} days)"
            )
        yield Hit(_config_subject(account, config), detail)


def _public_in_xml(xml: Any) -> bool:
    # A custom ACL's grants are only in its XML: everyone is the AllUsers group.
    return isinstance(xml, str) and ALL_USERS in xml and bool(re.search(r"READ|FULL_CONTROL", xml))


def public_objects(account: Account) -> Iterator[Hit]:
    """Objects everyone can read (their ACL; a bucket's own ACL is not in the API's answers)."""
    for entry in account.items("objects"):
        acl = entry.get("acl")
        if acl in PUBLIC_ACLS or (acl == "custom" and _public_in_xml(entry.get("acl_xml"))):
            parent = _parent(entry)
            label = f"{parent.get('bucket')}/{entry.get('name')}"
            yield Hit(subject("object_storage.objects", entry, parent, label=label), f"ACL {acl}")


def keys_on_every_bucket(account: Account) -> Iterator[Hit]:
    """Object storage keys that may read and write every bucket: unlimited keys, and limited
    ones granted ``read_write`` on each bucket the account has."""
    buckets = {(b.get("cluster"), b.get("label")) for b in account.items("buckets")}
    for key in account.items("keys"):
        access = key.get("bucket_access")
        if access is None and not key.get("limited"):
            yield Hit(subject("object_storage.keys", key), "unlimited: every bucket, read-write")
            continue
        if not isinstance(access, list) or not buckets:
            continue
        writable = {
            (a.get("cluster"), a.get("bucket_name"))
            for a in access
            if isinstance(a, Mapping) and a.get("permissions") == "read_write"
        }
        if buckets <= writable:
            yield Hit(
                subject("object_storage.keys", key), f"read-write on all {len(buckets)} buckets"
            )


# -- upkeep ----------------------------------------------------------------------------------


def _minor(version: Any) -> tuple[int, int] | None:
    match = re.fullmatch(r"(\d+)\.(\d+)(?:\.\d+)?", str(version or ""))
    return (int(match.group(1)), int(match.group(2))) if match else None


def next_version(current: Any, versions: list[dict[str, Any]]) -> str | None:
    """The version a cluster at ``current`` may move to: the next minor one, when listed."""
    now = _minor(current)
    if now is None:
        return None
    for version in versions:
        if _minor(version.get("id")) == (now[0], now[1] + 1):
            return str(version.get("id"))
    return None


def clusters_with_upgrade(account: Account) -> Iterator[Hit]:
    """Kubernetes clusters whose next minor version is available."""
    versions = account.items("k8s_versions")
    for cluster in account.items("clusters"):
        target = next_version(cluster.get("k8s_version"), versions)
        if target is not None:
            found = {**cluster, NEXT_VERSION: target}
            yield Hit(subject("k8s.clusters", found), f"{cluster.get('k8s_version')} -> {target}")


def expiring_images(account: Account) -> Iterator[Hit]:
    """Images that expire within :data:`IMAGE_DAYS` (automatic images expire)."""
    soon = account.now + IMAGE_DAYS * DAY
    for image in account.items("images"):
        expiry = timestamp(image.get("expiry"))
        if expiry is not None and expiry <= soon:
            yield Hit(subject("images", image), f"expires {day_text(expiry)}")


# -- left dangling ---------------------------------------------------------------------------


def dangling_records(account: Account) -> Iterator[Hit]:
    """A and AAAA records whose target is no address of the account's instances or balancers."""
    owned = account.owned
    domains = {str(d.get("id")): d for d in account.items("domains")}
    for record in account.items("records"):
        if record.get("type") not in ("A", "AAAA"):
            continue
        address = parse_address(record.get("target"))
        if address is None or holds(owned, address):
            continue  # not an address ("[remote_addr]"), or one the account holds
        parent = _parent(record)
        zone = str(domains.get(str(parent.get("domainId")), {}).get("domain", ""))
        name = str(record.get("name") or "")
        fqdn = f"{name}.{zone}" if name and zone else zone or name
        yield Hit(
            subject("domains.records", record, parent, label=f"{fqdn} {record.get('type')}"),
            f"points at {address}, which no instance or balancer holds",
        )


def orphan_nodes(account: Account) -> Iterator[Hit]:
    """Balancer nodes whose address no instance in the balancer's region holds."""
    for node in account.items("lb_nodes"):
        parent = _parent(node)
        balancer = account.balancers.get(str(parent.get("loadbalancerId")), {})
        host = node_host(node.get("address"))
        region = str(balancer.get("region"))
        if host is None or holds(account.instance_addresses.get(region, frozenset()), host):
            continue
        label = f"{balancer.get('label', parent.get('loadbalancerId'))} {node.get('label')}"
        yield Hit(
            subject("loadbalancers.nodes", node, parent, label=label),
            f"{node.get('address')}: no instance in {balancer.get('region')} holds it",
        )


def empty_domains(account: Account) -> Iterator[Hit]:
    """Master domains without a single record (a slave's records come from its master)."""
    with_records = {str(_parent(r).get("domainId")) for r in account.items("records")}
    for domain in account.items("domains"):
        if domain.get("type") == "master" and str(domain.get("id")) not in with_records:
            yield Hit(subject("domains", domain), f"no records ({domain.get('status')})")
