"""The one table of check rules (headless).

Every consumer (``cloudtui check``, the ``:check`` screen, the overview's count, a check over
several accounts) reads :data:`RULES`; a new rule is a new row here and a finder in
:mod:`tui.check.finders`, nothing else.
"""

from __future__ import annotations

from tui.check import finders as find
from tui.check import fixes
from tui.check.model import Fix, Rule, Severity

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

RULES: tuple[Rule, ...] = (
    Rule(
        "database-open-to-all",
        ERROR,
        "Database open to every address",
        "Its allow list admits 0.0.0.0/0 (or ::/0): anyone on the internet can try to log in. "
        "The fix replaces the allow list with the same list less the open range; if nothing "
        "is left, no one can connect until the addresses that need it are added.",
        ("databases",),
        find.open_databases,
        Fix("Remove the open range from the allow list", fixes.close_allow_list),
    ),
    Rule(
        "object-public",
        ERROR,
        "Object readable by everyone",
        "Its ACL lets anyone on the internet read it. The fix sets the object's ACL to "
        "private. (The API does not answer a bucket's own ACL, so only objects are checked.)",
        ("objects",),
        find.public_objects,
        Fix("Make the object private", fixes.make_object_private),
    ),
    Rule(
        "important-without-backups",
        ERROR,
        "Important instance without backups",
        "It carries a tag marked important ([check] important_tags in the config file) and "
        "its backups are off: a lost disk cannot be restored.",
        ("instances",),
        find.important_without_backups,
        manual="The API reference has no request that turns backups on for an existing "
        "instance (only backups_enabled when creating one): turn them on in the provider's "
        "console.",
    ),
    Rule(
        "lb-every-node-down",
        ERROR,
        "Load balancer port with no node up",
        "Every backend node of the port is down, or it has none: the port answers no request.",
        ("balancers", "lb_configs", "lb_nodes"),
        find.configs_with_every_node_down,
        manual="Start the backends, or add a node that is up.",
    ),
    Rule(
        "lb-certificate-expiry",
        ERROR,
        "Load balancer certificate expired or expiring within 30 days",
        "Clients refuse an expired certificate: the port is down for every browser once it "
        "ends. (Read from the certificate the port serves: the API answers <REDACTED>.)",
        ("balancers", "lb_configs", "lb_certificates"),
        find.expiring_certificates,
        manual="Send a renewed certificate and its key in the config (ssl_cert, ssl_key).",
    ),
    Rule(
        "volume-unattached",
        WARNING,
        "Volume not attached",
        "No instance uses it, and it is billed all the same. The fix deletes it (detaching it "
        "first if it was attached meanwhile); its data is lost.",
        ("volumes",),
        find.unattached_volumes,
        Fix("Delete the volume", fixes.detach_and_delete_volume, irreversible=True),
        fixes.volume_saving,
    ),
    Rule(
        "instance-powered-off",
        WARNING,
        "Instance powered off for over 7 days",
        "It has been offline for more than a week (as far as its last change tells) and is "
        "billed as if it ran. The fix deletes it, with its disks and backups; take an image "
        "first if its disk may be needed again.",
        ("instances", "types"),
        find.powered_off_instances,
        Fix("Delete the instance", fixes.delete_instance, irreversible=True),
        fixes.instance_saving,
    ),
    Rule(
        "lb-no-health-check",
        WARNING,
        "Load balancer port without a health check",
        "With check none, a backend that stopped answering keeps getting its share of the "
        "traffic. The fix turns on the connection check, which needs nothing of the backend.",
        ("balancers", "lb_configs"),
        find.configs_without_health_check,
        Fix("Turn on the connection check", fixes.add_connection_check),
    ),
    Rule(
        "storage-key-all-buckets",
        WARNING,
        "Object storage key with read-write on every bucket",
        "A leaked key of this kind exposes every bucket, including those created later "
        "(unlimited keys).",
        ("keys", "buckets"),
        find.keys_on_every_bucket,
        manual="Create a key limited to the buckets its user needs, then revoke this one.",
    ),
    Rule(
        "image-expiring",
        WARNING,
        "Image expiring within 7 days",
        "Automatic images are deleted when they expire.",
        ("images",),
        find.expiring_images,
        manual="Deploy it to an instance and capture a manual image if it is still needed.",
    ),
    Rule(
        "dns-record-dangling",
        WARNING,
        "DNS record pointing at an address the account does not hold",
        "No instance or load balancer of the account has this address: the record was left "
        "behind after a delete, and whoever gets the address next receives the traffic. "
        "(Silence it if it points at a server elsewhere on purpose.) The fix deletes it.",
        ("domains", "records", "instances", "balancers"),
        find.dangling_records,
        Fix("Delete the record", fixes.delete_record, irreversible=True),
    ),
    Rule(
        "lb-node-orphan",
        WARNING,
        "Load balancer node whose instance is gone",
        "No instance in the balancer's region holds the node's address: it sends traffic to "
        "nowhere, or to whoever gets the address next. The fix deletes the node.",
        ("balancers", "lb_configs", "lb_nodes", "instances"),
        find.orphan_nodes,
        Fix("Delete the node", fixes.delete_node, irreversible=True),
    ),
    Rule(
        "database-allow-list-empty",
        INFO,
        "Database that accepts no connection",
        "Its allow list is empty, which blocks every public and private connection: it is "
        "either unused or not set up yet.",
        ("databases",),
        find.closed_databases,
        manual="Add the addresses that must connect to its allow list.",
    ),
    Rule(
        "k8s-upgrade-available",
        INFO,
        "Kubernetes cluster with an upgrade available",
        "The next minor Kubernetes version is offered. The fix moves the cluster to it (one "
        "minor version at a time is all the API allows).",
        ("clusters", "k8s_versions"),
        find.clusters_with_upgrade,
        Fix("Upgrade to the next version", fixes.upgrade_cluster),
    ),
    Rule(
        "domain-without-records",
        INFO,
        "Domain without records",
        "A master zone with no record answers nothing but its SOA and NS: left over, or never "
        "set up. The fix deletes the domain.",
        ("domains", "records"),
        find.empty_domains,
        Fix("Delete the domain", fixes.delete_domain, irreversible=True),
    ),
)
"""Every rule, most severe first (the order reports list them in)."""

BY_ID = {rule.id: rule for rule in RULES}
"""Rules by id."""
