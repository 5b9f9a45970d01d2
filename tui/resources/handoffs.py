"""Hand-off actions (``h`` everywhere): the terminal goes to ssh, k9s or a database client.

Plain data read by one flow (``screens.editors.handoff.run_handoff``): ``handoff`` names the
program, ``fetch`` the answers it needs first. Commands, users and options come from the config
file's ``[handoff.*]`` tables (``tui.handoff.settings``).
"""

from __future__ import annotations

from tui.resources.spec import Action

HANDOFF_KEY = "h"

SSH = Action(
    "compute.ssh",
    "ssh",
    "compute.instances.view",
    key=HANDOFF_KEY,
    screen="handoff",
    handoff="ssh",
    grant="none",
    allowed_statuses=("running",),
    description="Open ssh to the instance (user, port, options: [handoff.ssh])",
)

SSH_CHOOSE = Action(
    "compute.ssh_choose",
    "ssh to…",
    "compute.instances.view",
    key="H",
    screen="handoff",
    handoff="ssh_choose",
    grant="none",
    allowed_statuses=("running",),
    description="Choose one of the instance's addresses (public, private, IPv6) and ssh to it",
)

K9S = Action(
    "k8s.k9s",
    "k9s",
    "k8s.kubeconfig.view",
    key=HANDOFF_KEY,
    screen="handoff",
    handoff="k9s",
    grant="none",
    fetch={"kubeconfig": "k8s.kubeconfig.view"},
    description="Run k9s (or a shell) with KUBECONFIG set to the saved kubeconfig",
)

K9S_ON_POOL = Action(
    "k8s.pool_k9s",
    "k9s",
    "k8s.kubeconfig.view",
    key=HANDOFF_KEY,
    screen="handoff",
    handoff="k9s",
    grant="none",
    # The pool's cluster: its label names the kubeconfig file and the k9s title.
    fetch={"cluster": "k8s.clusters.view", "kubeconfig": "k8s.kubeconfig.view"},
    description="Run k9s (or a shell) on the pool's cluster, KUBECONFIG set to its kubeconfig",
)


def database_client(engine: str) -> Action:
    """The engine's own client on a managed database (``mysql``, ``mongosh``)."""
    fetch = {"credentials": f"databases.{engine}.credentials.view"}
    if engine == "mongodb":
        fetch["ssl"] = "databases.mongodb.ssl"
    client = "mongosh" if engine == "mongodb" else "mysql"
    return Action(
        f"databases.{engine}.client",
        client,
        f"databases.{engine}.credentials.view",
        key=HANDOFF_KEY,
        screen="handoff",
        handoff=client,
        grant="none",
        fetch=fetch,
        allowed_statuses=("active",),
        description=f"Connect with {client} (password in a 0600 file, removed afterwards)",
    )


ANY_DATABASE_CLIENT = Action(
    "databases.client",
    "client",
    "databases.instances.list",
    key=HANDOFF_KEY,
    screen="handoff",
    handoff="database",
    grant="none",
    allowed_statuses=("active",),
    description="Connect with the engine's client: mysql or mongosh (as on the database itself)",
)
"""On the list of every engine: runs the ``databases.<engine>.client`` action of the row's
engine (its spec has the item's path parameters and what to fetch)."""
