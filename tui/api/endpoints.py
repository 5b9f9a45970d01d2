"""Every API operation as data: the registry shared by the client, the UI and the simulator.

An :class:`Endpoint` names its request and response models as ``"module:Class"`` strings under
``tui.models`` so that importing the registry stays cheap; :meth:`Endpoint.request_model` and
:meth:`Endpoint.response_model` resolve them on first use.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from tui.untrusted import Shown

AuthMode = Literal["scope", "any", "none", "optional"]
"""How an operation is authorised.

``scope``: a valid token carrying every scope in :attr:`Endpoint.scopes`;
``any``: any valid token; ``none``: no token needed; ``optional``: no token lists public entries,
a token adds private ones (images, deployment scripts).
"""

PART1_PAGE_SIZE_MAX = 500
PART2_PAGE_SIZE_MAX = 100
PAGE_SIZE_MIN = 25
DEFAULT_PAGE_SIZE = 100


@dataclass(frozen=True)
class Endpoint:
    """One API operation.

    Attributes:
        name: Stable id such as ``compute.instances.create``.
        method: HTTP method.
        path: Path template relative to the base URL, e.g. ``/compute/instances/{computeId}``.
        area: Area id (``compute``, ``profile``, ...), used to group services and screens.
        scopes: OAuth scopes required (all of them) when ``auth`` is ``scope``.
        auth: Authorisation mode.
        paged: True for collection operations answering ``{data, page, pages, results}``.
        request: ``"module:Class"`` of the request body model under ``tui.models``, if any.
        response: ``"module:Class"`` of the response model (for collections: of one item).
        summary: Operation name from the reference.
        page_size_max: Upper bound of ``page_size`` for collections.
        extension: True for the operations added beyond the two reference documents.
    """

    name: str
    method: Shown
    path: Shown
    area: str
    scopes: tuple[str, ...] = ()
    auth: AuthMode = "scope"
    paged: bool = False
    request: str | None = None
    response: str | None = None
    summary: str = ""
    page_size_max: int = PART2_PAGE_SIZE_MAX
    extension: bool = False
    params: tuple[str, ...] = field(default=(), init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", tuple(re.findall(r"\{(\w+)\}", self.path)))

    @property
    def key(self) -> str:
        """``METHOD /path`` exactly as ``endpoints.txt`` writes it."""
        return f"{self.method} {self.path}"

    @property
    def writes(self) -> bool:
        """True for operations that change state."""
        return self.method != "GET"

    def request_model(self) -> type | None:
        """The request body model class, imported on first use."""
        return resolve_model(self.request) if self.request else None

    def response_model(self) -> type | None:
        """The response model class (one item for collections), imported on first use."""
        return resolve_model(self.response) if self.response else None


@cache
def resolve_model(ref: str) -> type:
    """Import ``"module:Class"`` from ``tui.models``.

    Args:
        ref: Reference such as ``"compute:Instance"``.

    Returns:
        The class.
    """
    module_name, _, class_name = ref.partition(":")
    module = importlib.import_module(f"tui.models.{module_name}")
    return getattr(module, class_name)


_SPECS: dict[str, tuple[Shown, str, dict[str, Any]]] = {}
"""Name -> the arguments of :func:`_ep`; each :class:`Endpoint` is made on first use."""


def _ep(name: str, key: Shown, scopes: str = "", **options: Any) -> None:
    """Declare one operation (see :func:`_make` for the options)."""
    if name in _SPECS:  # pragma: no cover - caught by the registry tests
        raise RuntimeError(f"duplicate endpoint name {name}")
    _SPECS[name] = (key, scopes, options)


def _make(
    name: str,
    key: Shown,
    scopes: str = "",
    *,
    auth: AuthMode = "scope",
    paged: bool = False,
    req: str | None = None,
    resp: str | None = None,
    summary: str = "",
    part: int = 2,
    extension: bool = False,
) -> Endpoint:
    method, path = key.split(" ", 1)
    area = name.split(".", 1)[0]
    return Endpoint(
        name=name,
        method=method,
        path=path,
        area=area,
        scopes=tuple(s for s in scopes.split(",") if s),
        auth=auth,
        paged=paged,
        request=req,
        response=resp,
        summary=summary,
        page_size_max=PART1_PAGE_SIZE_MAX if part == 1 else PART2_PAGE_SIZE_MAX,
        extension=extension,
    )


class _Registry(Mapping[str, Endpoint]):
    """Every endpoint by name, each made when first looked up.

    A listing uses one or two of the ~190 operations; making them all costs a few ms of
    every start.
    """

    def __init__(self) -> None:
        self._made: dict[str, Endpoint] = {}

    def __getitem__(self, name: str) -> Endpoint:
        made = self._made.get(name)
        if made is None:
            key, scopes, options = _SPECS[name]
            made = self._made[name] = _make(name, key, scopes, **options)
        return made

    def __contains__(self, name: object) -> bool:
        return name in _SPECS

    def __iter__(self) -> Iterator[str]:
        return iter(_SPECS)

    def __len__(self) -> int:
        return len(_SPECS)


class _ByKey(Mapping[str, Endpoint]):
    """Every endpoint by ``METHOD /path``, through :data:`REGISTRY`."""

    def __init__(self, names: dict[str, str]) -> None:
        self._names = names

    def __getitem__(self, key: str) -> Endpoint:
        return REGISTRY[self._names[key]]

    def __contains__(self, key: object) -> bool:
        return key in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


# --- Part 1: profile -------------------------------------------------------------------------
_AR, _AW = "account:read_only", "account:read_write"
_ep(
    "profile.view",
    "GET /profile",
    auth="any",
    resp="profile:Profile",
    summary="Profile view",
    part=1,
)
_ep(
    "profile.update",
    "PUT /profile",
    _AW,
    req="profile:ProfileUpdate",
    resp="profile:Profile",
    summary="Profile update",
    part=1,
)
_ep(
    "profile.apps.list",
    "GET /profile/apps",
    _AR,
    paged=True,
    resp="profile:AuthorizedApp",
    summary="Authorized apps list",
    part=1,
)
_ep(
    "profile.apps.view",
    "GET /profile/apps/{appId}",
    _AR,
    resp="profile:AuthorizedApp",
    summary="App view",
    part=1,
)
_ep("profile.apps.revoke", "DELETE /profile/apps/{appId}", _AW, summary="App revoke", part=1)
_ep(
    "profile.devices.list",
    "GET /profile/devices",
    _AR,
    paged=True,
    resp="profile:TrustedDevice",
    summary="Trusted devices list",
    part=1,
)
_ep(
    "profile.devices.view",
    "GET /profile/devices/{deviceId}",
    _AR,
    resp="profile:TrustedDevice",
    summary="Trusted device view",
    part=1,
)
_ep(
    "profile.devices.revoke",
    "DELETE /profile/devices/{deviceId}",
    _AW,
    summary="Trusted device revoke",
    part=1,
)
_ep(
    "profile.grants",
    "GET /profile/grants",
    auth="any",
    resp="profile:Grants",
    summary="Grants list",
    part=1,
)
_ep(
    "profile.logins.list",
    "GET /profile/logins",
    _AR,
    paged=True,
    resp="profile:Login",
    summary="Logins list",
    part=1,
)
_ep(
    "profile.logins.view",
    "GET /profile/logins/{loginId}",
    _AR,
    resp="profile:Login",
    summary="Login view",
    part=1,
)
_ep(
    "profile.phone.delete",
    "DELETE /profile/phone-number",
    _AW,
    summary="Phone number delete",
    part=1,
)
_ep(
    "profile.phone.send",
    "POST /profile/phone-number",
    _AW,
    req="profile:PhoneCodeSend",
    summary="Phone code send",
    part=1,
)
_ep(
    "profile.phone.verify",
    "POST /profile/phone-number/verify",
    _AW,
    req="profile:PhoneVerify",
    summary="Phone verify",
    part=1,
)
_ep(
    "profile.preferences.view",
    "GET /profile/preferences",
    _AR,
    resp="profile:Preferences",
    summary="Preferences view",
    part=1,
)
_ep(
    "profile.preferences.update",
    "PUT /profile/preferences",
    _AW,
    resp="profile:Preferences",
    summary="Preferences update",
    part=1,
)

# --- Part 1: object storage ------------------------------------------------------------------
_OR, _OW = "object_storage:read_only", "object_storage:read_write"
_B = "/object-storage/buckets/{clusterId}/{bucket}"
_ep(
    "object_storage.buckets.list",
    "GET /object-storage/buckets",
    _OR,
    paged=True,
    resp="object_storage:Bucket",
    summary="Buckets list",
    part=1,
)
_ep(
    "object_storage.buckets.create",
    "POST /object-storage/buckets",
    _OW,
    req="object_storage:BucketCreate",
    resp="object_storage:Bucket",
    summary="Bucket create",
    part=1,
)
_ep(
    "object_storage.buckets.list_in_cluster",
    "GET /object-storage/buckets/{clusterId}",
    _OR,
    paged=True,
    resp="object_storage:Bucket",
    summary="Buckets in cluster list",
    part=1,
)
_ep(
    "object_storage.buckets.view",
    f"GET {_B}",
    _OR,
    resp="object_storage:Bucket",
    summary="Bucket view",
    part=1,
)
_ep("object_storage.buckets.remove", f"DELETE {_B}", _OW, summary="Bucket remove", part=1)
_ep(
    "object_storage.buckets.access_modify",
    f"POST {_B}/access",
    _OW,
    req="object_storage:BucketAccess",
    summary="Bucket access modify",
    part=1,
)
_ep(
    "object_storage.buckets.access_update",
    f"PUT {_B}/access",
    _OW,
    req="object_storage:BucketAccess",
    summary="Bucket access update",
    part=1,
)
_ep(
    "object_storage.objects.acl_view",
    f"GET {_B}/object-acl",
    _OR,
    resp="object_storage:ObjectAcl",
    summary="Object ACL view",
    part=1,
)
_ep(
    "object_storage.objects.acl_update",
    f"PUT {_B}/object-acl",
    _OW,
    req="object_storage:ObjectAclUpdate",
    resp="object_storage:ObjectAcl",
    summary="Object ACL update",
    part=1,
)
_ep(
    "object_storage.objects.list",
    f"GET {_B}/object-list",
    _OR,
    resp="object_storage:ObjectList",
    summary="Bucket contents list",
    part=1,
)
_ep(
    "object_storage.objects.url",
    f"POST {_B}/object-url",
    _OW,
    req="object_storage:ObjectUrlCreate",
    resp="object_storage:ObjectUrl",
    summary="Object URL create",
    part=1,
)
_ep(
    "object_storage.ssl.view",
    f"GET {_B}/ssl",
    _OR,
    resp="object_storage:BucketSsl",
    summary="TLS certificate view",
    part=1,
)
_ep(
    "object_storage.ssl.upload",
    f"POST {_B}/ssl",
    _OW,
    req="object_storage:BucketSslUpload",
    resp="object_storage:BucketSsl",
    summary="TLS certificate upload",
    part=1,
)
_ep("object_storage.ssl.delete", f"DELETE {_B}/ssl", _OW, summary="TLS certificate delete", part=1)
_ep(
    "object_storage.cancel",
    "POST /object-storage/cancel",
    _OW,
    summary="Object storage cancel",
    part=1,
)
_ep(
    "object_storage.clusters.list",
    "GET /object-storage/clusters",
    auth="none",
    paged=True,
    resp="object_storage:StorageCluster",
    summary="Clusters list",
    part=1,
)
_ep(
    "object_storage.clusters.view",
    "GET /object-storage/clusters/{clusterId}",
    auth="none",
    resp="object_storage:StorageCluster",
    summary="Cluster view",
    part=1,
)
_ep(
    "object_storage.keys.list",
    "GET /object-storage/keys",
    _OR,
    paged=True,
    resp="object_storage:StorageKey",
    summary="Keys list",
    part=1,
)
_ep(
    "object_storage.keys.create",
    "POST /object-storage/keys",
    _OW,
    req="object_storage:StorageKeyCreate",
    resp="object_storage:StorageKey",
    summary="Key create",
    part=1,
)
_ep(
    "object_storage.keys.revoke",
    "DELETE /object-storage/keys/{keyId}",
    _OW,
    summary="Key revoke",
    part=1,
)

# --- Part 1: compute instances and kernels ---------------------------------------------------
_CR, _CW = "computes:read_only", "computes:read_write"
_I = "/compute/instances/{computeId}"
_ep(
    "compute.instances.list",
    "GET /compute/instances",
    _CR,
    paged=True,
    resp="compute:Instance",
    summary="Instances list",
    part=1,
)
_ep(
    "compute.instances.create",
    "POST /compute/instances",
    _CW,
    req="compute:InstanceCreate",
    resp="compute:Instance",
    summary="Instance create",
    part=1,
)
_ep(
    "compute.instances.view",
    f"GET {_I}",
    _CR,
    resp="compute:Instance",
    summary="Instance view",
    part=1,
)
_ep(
    "compute.instances.update",
    f"PUT {_I}",
    _CW,
    req="compute:InstanceUpdate",
    resp="compute:Instance",
    summary="Instance update",
    part=1,
)
_ep("compute.instances.delete", f"DELETE {_I}", _CW, summary="Instance delete", part=1)
_ep(
    "compute.backups.list",
    f"GET {_I}/backups",
    _CR,
    resp="compute:BackupsListing",
    summary="Backups list",
    part=1,
)
_ep(
    "compute.configs.list",
    f"GET {_I}/configs",
    _CR,
    paged=True,
    resp="compute:InstanceConfig",
    summary="Configs list",
    part=1,
)
_ep(
    "compute.configs.create",
    f"POST {_I}/configs",
    _CW,
    req="compute:ConfigCreate",
    resp="compute:InstanceConfig",
    summary="Config create",
    part=1,
)
_ep(
    "compute.configs.view",
    f"GET {_I}/configs/{{configId}}",
    _CR,
    resp="compute:InstanceConfig",
    summary="Config view",
    part=1,
)
_ep(
    "compute.configs.update",
    f"PUT {_I}/configs/{{configId}}",
    _CW,
    req="compute:ConfigUpdate",
    resp="compute:InstanceConfig",
    summary="Config update",
    part=1,
)
_ep(
    "compute.configs.delete",
    f"DELETE {_I}/configs/{{configId}}",
    _CW,
    summary="Config delete",
    part=1,
)
_ep(
    "compute.disks.list",
    f"GET {_I}/disks",
    _CR,
    paged=True,
    resp="compute:Disk",
    summary="Disks list",
    part=1,
)
_ep(
    "compute.disks.create",
    f"POST {_I}/disks",
    _CW,
    req="compute:DiskCreate",
    resp="compute:Disk",
    summary="Disk create",
    part=1,
)
_ep(
    "compute.instances.rescue",
    f"POST {_I}/rescue",
    _CW,
    req="compute:RescueRequest",
    summary="Rescue",
    part=1,
)
_ep(
    "compute.instances.resize",
    f"POST {_I}/resize",
    _CW,
    req="compute:ResizeRequest",
    summary="Resize",
    part=1,
)
_ep("compute.instances.shutdown", f"POST {_I}/shutdown", _CW, summary="Shut down", part=1)
_ep(
    "compute.stats.view",
    f"GET {_I}/stats",
    _CR,
    resp="compute:Stats",
    summary="Statistics view",
    part=1,
)
_ep(
    "compute.stats.month",
    f"GET {_I}/stats/{{year}}/{{month}}",
    _CR,
    resp="compute:Stats",
    summary="Statistics by month",
    part=1,
)
_ep(
    "compute.transfer.view",
    f"GET {_I}/transfer",
    _CR,
    resp="compute:Transfer",
    summary="Transfer view",
    part=1,
)
_ep(
    "compute.transfer.month",
    f"GET {_I}/transfer/{{year}}/{{month}}",
    _CR,
    resp="compute:TransferMonth",
    summary="Transfer by month",
    part=1,
)
_ep(
    "compute.volumes.list",
    f"GET {_I}/volumes",
    _CR,
    paged=True,
    resp="volumes:Volume",
    summary="Instance volumes list",
    part=1,
)
_ep(
    "compute.kernels.list",
    "GET /compute/kernels",
    auth="none",
    paged=True,
    resp="compute:Kernel",
    summary="Kernels list",
    part=1,
)
_ep(
    "compute.kernels.view",
    "GET /compute/kernels/{kernelId}",
    auth="none",
    resp="compute:Kernel",
    summary="Kernel view",
    part=1,
)
_ep(
    "compute.instances.boot",
    f"POST {_I}/boot",
    _CW,
    req="compute:BootRequest",
    summary="Boot",
    part=1,
    extension=True,
)
_ep(
    "compute.instances.reboot",
    f"POST {_I}/reboot",
    _CW,
    req="compute:BootRequest",
    summary="Reboot",
    part=1,
    extension=True,
)
_ep(
    "compute.regions.list",
    "GET /regions",
    auth="none",
    paged=True,
    resp="compute:Region",
    summary="Regions list",
    part=1,
    extension=True,
)
_ep(
    "compute.types.list",
    "GET /compute/types",
    auth="none",
    paged=True,
    resp="compute:InstanceType",
    summary="Types list",
    part=1,
    extension=True,
)

# --- Part 2: load balancers ------------------------------------------------------------------
_LR, _LW = "loadbalancers:read_only", "loadbalancers:read_write"
_L = "/loadbalancers/{loadbalancerId}"
_LC = _L + "/configs/{configId}"
_ep(
    "loadbalancers.list",
    "GET /loadbalancers",
    _LR,
    paged=True,
    resp="loadbalancers:LoadBalancer",
    summary="List",
)
_ep(
    "loadbalancers.create",
    "POST /loadbalancers",
    _LW,
    req="loadbalancers:LoadBalancerCreate",
    resp="loadbalancers:LoadBalancer",
    summary="Create",
)
_ep("loadbalancers.view", f"GET {_L}", _LR, resp="loadbalancers:LoadBalancer", summary="View")
_ep(
    "loadbalancers.update",
    f"PUT {_L}",
    _LW,
    req="loadbalancers:LoadBalancerUpdate",
    resp="loadbalancers:LoadBalancer",
    summary="Update",
)
_ep("loadbalancers.delete", f"DELETE {_L}", _LW, summary="Delete")
_ep(
    "loadbalancers.configs.list",
    f"GET {_L}/configs",
    _LR,
    paged=True,
    resp="loadbalancers:LbConfig",
    summary="Configs list",
)
_ep(
    "loadbalancers.configs.create",
    f"POST {_L}/configs",
    _LW,
    req="loadbalancers:LbConfigCreate",
    resp="loadbalancers:LbConfig",
    summary="Config create",
)
_ep(
    "loadbalancers.configs.view",
    f"GET {_LC}",
    _LR,
    resp="loadbalancers:LbConfig",
    summary="Config view",
)
_ep(
    "loadbalancers.configs.update",
    f"PUT {_LC}",
    _LW,
    req="loadbalancers:LbConfigUpdate",
    resp="loadbalancers:LbConfig",
    summary="Config update",
)
_ep("loadbalancers.configs.delete", f"DELETE {_LC}", _LW, summary="Config delete")
_ep(
    "loadbalancers.nodes.list",
    f"GET {_LC}/nodes",
    _LR,
    paged=True,
    resp="loadbalancers:LbNode",
    summary="Nodes list",
)
_ep(
    "loadbalancers.nodes.create",
    f"POST {_LC}/nodes",
    _LW,
    req="loadbalancers:LbNodeCreate",
    resp="loadbalancers:LbNode",
    summary="Node create",
)
_ep(
    "loadbalancers.nodes.view",
    f"GET {_LC}/nodes/{{nodeId}}",
    _LW,
    resp="loadbalancers:LbNode",
    summary="Node view",
)
_ep(
    "loadbalancers.nodes.update",
    f"PUT {_LC}/nodes/{{nodeId}}",
    _LW,
    req="loadbalancers:LbNodeUpdate",
    resp="loadbalancers:LbNode",
    summary="Node update",
)
_ep("loadbalancers.nodes.delete", f"DELETE {_LC}/nodes/{{nodeId}}", _LW, summary="Node delete")

# --- Part 2: domains -------------------------------------------------------------------------
_DR, _DW = "domains:read_only", "domains:read_write"
_D = "/domains/{domainId}"
_ep("domains.list", "GET /domains", _DR, paged=True, resp="domains:Domain", summary="List")
_ep(
    "domains.create",
    "POST /domains",
    _DW,
    req="domains:DomainCreate",
    resp="domains:Domain",
    summary="Create",
)
_ep(
    "domains.import",
    "POST /domains/import",
    _DW,
    req="domains:DomainImport",
    resp="domains:Domain",
    summary="Import",
)
_ep("domains.view", f"GET {_D}", _DR, resp="domains:Domain", summary="View")
_ep(
    "domains.update",
    f"PUT {_D}",
    _DW,
    req="domains:DomainUpdate",
    resp="domains:Domain",
    summary="Update",
)
_ep("domains.delete", f"DELETE {_D}", _DW, summary="Delete")
_ep(
    "domains.clone",
    f"POST {_D}/clone",
    _DW,
    req="domains:DomainClone",
    resp="domains:Domain",
    summary="Clone",
)
_ep(
    "domains.records.list",
    f"GET {_D}/records",
    _DR,
    paged=True,
    resp="domains:DomainRecord",
    summary="Records list",
)
_ep(
    "domains.records.create",
    f"POST {_D}/records",
    _DW,
    req="domains:RecordCreate",
    resp="domains:DomainRecord",
    summary="Record create",
)
_ep(
    "domains.records.view",
    f"GET {_D}/records/{{recordId}}",
    _DR,
    resp="domains:DomainRecord",
    summary="Record view",
)
_ep(
    "domains.records.update",
    f"PUT {_D}/records/{{recordId}}",
    _DW,
    req="domains:RecordUpdate",
    resp="domains:DomainRecord",
    summary="Record update",
)
_ep("domains.records.delete", f"DELETE {_D}/records/{{recordId}}", _DW, summary="Record delete")
_ep(
    "domains.zone_file",
    f"GET {_D}/zone-file",
    _DR,
    resp="domains:ZoneFile",
    summary="Zone file view",
)

# --- Part 2: managed databases ---------------------------------------------------------------
_BR, _BW = "databases:read_only", "databases:read_write"
for _engine in ("mongodb", "mysql"):
    _P = f"/databases/{_engine}/instances"
    _PI = _P + "/{instanceId}"
    _n = f"databases.{_engine}"
    _ep(f"{_n}.list", f"GET {_P}", _BR, paged=True, resp="databases:Database", summary="List")
    if _engine == "mysql":
        _ep(
            f"{_n}.create",
            f"POST {_P}",
            _BW,
            req="databases:DatabaseCreate",
            resp="databases:Database",
            summary="Create (mysql only)",
        )
    _ep(f"{_n}.view", f"GET {_PI}", _BR, resp="databases:Database", summary="View")
    _ep(
        f"{_n}.update",
        f"PUT {_PI}",
        _BW,
        req="databases:DatabaseUpdate",
        resp="databases:Database",
        summary="Update",
    )
    _ep(f"{_n}.delete", f"DELETE {_PI}", _BW, summary="Delete")
    _ep(
        f"{_n}.backups.list",
        f"GET {_PI}/backups",
        _BW,
        paged=True,
        resp="databases:DatabaseBackup",
        summary="Backups list",
    )
    _ep(
        f"{_n}.backups.create",
        f"POST {_PI}/backups",
        _BW,
        req="databases:SnapshotCreate",
        summary="Snapshot create",
    )
    _ep(
        f"{_n}.backups.view",
        f"GET {_PI}/backups/{{backupId}}",
        _BW,
        resp="databases:DatabaseBackup",
        summary="Backup view",
    )
    _ep(f"{_n}.backups.delete", f"DELETE {_PI}/backups/{{backupId}}", _BW, summary="Backup delete")
    _ep(
        f"{_n}.backups.restore",
        f"POST {_PI}/backups/{{backupId}}/restore",
        _BW,
        summary="Backup restore",
    )
    _ep(
        f"{_n}.credentials.view",
        f"GET {_PI}/credentials",
        _BR,
        resp="databases:DatabaseCredentials",
        summary="Credentials view",
    )
    if _engine == "mongodb":
        _ep(
            f"{_n}.credentials.reset",
            f"POST {_PI}/credentials/reset",
            _BW,
            summary="Credentials reset",
        )
        _ep(f"{_n}.patch", f"POST {_PI}/patch", _BW, summary="Patch")
        _ep(
            f"{_n}.ssl",
            f"GET {_PI}/ssl",
            _BR,
            resp="databases:DatabaseSsl",
            summary="SSL certificate view",
        )
_ep(
    "databases.engines.list",
    "GET /databases/engines",
    auth="none",
    paged=True,
    resp="databases:Engine",
    summary="Engines list",
)
_ep(
    "databases.engines.view",
    "GET /databases/engines/{engineId}",
    auth="none",
    resp="databases:Engine",
    summary="Engine view",
)
_ep(
    "databases.instances.list",
    "GET /databases/instances",
    _BR,
    paged=True,
    resp="databases:Database",
    summary="List all engines",
)

# --- Part 2: Kubernetes ----------------------------------------------------------------------
_KR, _KW = "k8s:read_only", "k8s:read_write"
_K = "/k8s/clusters/{clusterId}"
_ep(
    "k8s.clusters.list",
    "GET /k8s/clusters",
    _KR,
    paged=True,
    resp="k8s:K8sCluster",
    summary="Clusters list",
)
_ep(
    "k8s.clusters.create",
    "POST /k8s/clusters",
    _KW,
    req="k8s:ClusterCreate",
    resp="k8s:K8sCluster",
    summary="Cluster create",
)
_ep("k8s.clusters.view", f"GET {_K}", _KR, resp="k8s:K8sCluster", summary="Cluster view")
_ep(
    "k8s.clusters.update",
    f"PUT {_K}",
    _KW,
    req="k8s:ClusterUpdate",
    resp="k8s:K8sCluster",
    summary="Cluster update",
)
_ep("k8s.clusters.delete", f"DELETE {_K}", _KW, summary="Cluster delete")
_ep(
    "k8s.api_endpoints",
    f"GET {_K}/api-endpoints",
    _KR,
    paged=True,
    resp="k8s:ApiEndpoint",
    summary="API endpoints list",
)
_ep(
    "k8s.dashboard",
    f"GET {_K}/dashboard",
    _KR,
    resp="k8s:DashboardUrl",
    summary="Dashboard URL view",
)
_ep("k8s.kubeconfig.delete", f"DELETE {_K}/kubeconfig", _KW, summary="Kubeconfig delete")
_ep(
    "k8s.kubeconfig.view",
    f"GET {_K}/kubeconfig",
    _KW,
    resp="k8s:Kubeconfig",
    summary="Kubeconfig view",
)
_ep("k8s.nodes.view", f"GET {_K}/nodes/{{nodeId}}", _KW, resp="k8s:PoolNode", summary="Node view")
_ep("k8s.nodes.delete", f"DELETE {_K}/nodes/{{nodeId}}", _KW, summary="Node delete")
_ep("k8s.nodes.recycle", f"POST {_K}/nodes/{{nodeId}}/recycle", _KW, summary="Node recycle")
_ep("k8s.pools.list", f"GET {_K}/pools", _KR, paged=True, resp="k8s:NodePool", summary="Pools list")
_ep(
    "k8s.pools.create",
    f"POST {_K}/pools",
    _KW,
    req="k8s:PoolCreate",
    resp="k8s:NodePool",
    summary="Pool create",
)
_ep("k8s.pools.view", f"GET {_K}/pools/{{poolId}}", _KR, resp="k8s:NodePool", summary="Pool view")
_ep(
    "k8s.pools.update",
    f"PUT {_K}/pools/{{poolId}}",
    _KW,
    req="k8s:PoolUpdate",
    resp="k8s:NodePool",
    summary="Pool update",
)
_ep("k8s.pools.delete", f"DELETE {_K}/pools/{{poolId}}", _KW, summary="Pool delete")
_ep("k8s.pools.recycle", f"POST {_K}/pools/{{poolId}}/recycle", _KW, summary="Pool recycle")
_ep("k8s.clusters.recycle", f"POST {_K}/recycle", _KW, summary="Cluster recycle")
_ep(
    "k8s.versions.list",
    "GET /k8s/versions",
    _KR,
    paged=True,
    resp="k8s:K8sVersion",
    summary="Versions list",
)
_ep(
    "k8s.versions.view",
    "GET /k8s/versions/{version}",
    _KR,
    resp="k8s:K8sVersion",
    summary="Version view",
)

# --- Part 2: managed support -----------------------------------------------------------------
_ep(
    "managed.contacts.list",
    "GET /managed/contacts",
    _AR,
    paged=True,
    resp="managed:Contact",
    summary="Contacts list",
)
_ep(
    "managed.contacts.create",
    "POST /managed/contacts",
    _AW,
    req="managed:ContactCreate",
    resp="managed:Contact",
    summary="Contact create",
)
_ep(
    "managed.contacts.view",
    "GET /managed/contacts/{contactId}",
    _AW,
    resp="managed:Contact",
    summary="Contact view",
)
_ep(
    "managed.contacts.update",
    "PUT /managed/contacts/{contactId}",
    _AW,
    req="managed:ContactUpdate",
    resp="managed:Contact",
    summary="Contact update",
)
_ep(
    "managed.contacts.delete", "DELETE /managed/contacts/{contactId}", _AW, summary="Contact delete"
)
_ep(
    "managed.credentials.list",
    "GET /managed/credentials",
    _AR,
    paged=True,
    resp="managed:ManagedCredential",
    summary="Credentials list",
)
_ep(
    "managed.credentials.create",
    "POST /managed/credentials",
    _AW,
    req="managed:CredentialCreate",
    resp="managed:ManagedCredential",
    summary="Credential create",
)
_ep(
    "managed.credentials.sshkey",
    "GET /managed/credentials/sshkey",
    _AR,
    resp="managed:SshKey",
    summary="SSH key view",
)
_ep(
    "managed.credentials.view",
    "GET /managed/credentials/{credentialId}",
    _AW,
    resp="managed:ManagedCredential",
    summary="Credential view",
)
_ep(
    "managed.credentials.update",
    "PUT /managed/credentials/{credentialId}",
    _AW,
    req="managed:CredentialUpdate",
    resp="managed:ManagedCredential",
    summary="Credential update",
)
_ep(
    "managed.credentials.revoke",
    "POST /managed/credentials/{credentialId}/revoke",
    _AW,
    summary="Credential delete",
)
_ep(
    "managed.credentials.update_secret",
    "POST /managed/credentials/{credentialId}/update",
    _AW,
    req="managed:CredentialSecretUpdate",
    summary="Credential username and password update",
)
_ep(
    "managed.issues.list",
    "GET /managed/issues",
    _AR,
    paged=True,
    resp="managed:ManagedIssue",
    summary="Issues list",
)
_ep(
    "managed.issues.view",
    "GET /managed/issues/{issueId}",
    _AR,
    resp="managed:ManagedIssue",
    summary="Issue view",
)
_ep(
    "managed.compute_settings.list",
    "GET /managed/compute-settings",
    _AR,
    paged=True,
    resp="managed:ComputeSettings",
    summary="Compute settings list",
)
_ep(
    "managed.compute_settings.view",
    "GET /managed/compute-settings/{computeId}",
    _AR,
    resp="managed:ComputeSettings",
    summary="Compute settings view",
)
_ep(
    "managed.compute_settings.update",
    "PUT /managed/compute-settings/{computeId}",
    _AW,
    req="managed:ComputeSettingsUpdate",
    resp="managed:ComputeSettings",
    summary="Compute settings update",
)
_ep(
    "managed.services.list",
    "GET /managed/services",
    _AR,
    paged=True,
    resp="managed:ManagedService",
    summary="Services list",
)
_ep(
    "managed.services.create",
    "POST /managed/services",
    _AW,
    req="managed:ServiceCreate",
    resp="managed:ManagedService",
    summary="Service create",
)
_ep(
    "managed.services.view",
    "GET /managed/services/{serviceId}",
    _AR,
    resp="managed:ManagedService",
    summary="Service view",
)
_ep(
    "managed.services.update",
    "PUT /managed/services/{serviceId}",
    _AW,
    req="managed:ServiceUpdate",
    resp="managed:ManagedService",
    summary="Service update",
)
_ep(
    "managed.services.delete", "DELETE /managed/services/{serviceId}", _AW, summary="Service delete"
)
_ep(
    "managed.services.disable",
    "POST /managed/services/{serviceId}/disable",
    _AW,
    resp="managed:ManagedService",
    summary="Service disable",
)
_ep(
    "managed.services.enable",
    "POST /managed/services/{serviceId}/enable",
    _AW,
    resp="managed:ManagedService",
    summary="Service enable",
)
_ep("managed.stats", "GET /managed/stats", _AR, resp="managed:ManagedStats", summary="Stats list")

# --- Part 2: volumes -------------------------------------------------------------------------
_VR, _VW = "volumes:read_only", "volumes:read_write"
_V = "/volumes/{volumeId}"
_ep("volumes.list", "GET /volumes", _VR, paged=True, resp="volumes:Volume", summary="List")
_ep(
    "volumes.create",
    "POST /volumes",
    _VW,
    req="volumes:VolumeCreate",
    resp="volumes:Volume",
    summary="Create",
)
_ep("volumes.view", f"GET {_V}", _VR, resp="volumes:Volume", summary="View")
_ep(
    "volumes.update",
    f"PUT {_V}",
    _VW,
    req="volumes:VolumeUpdate",
    resp="volumes:Volume",
    summary="Update",
)
_ep("volumes.delete", f"DELETE {_V}", _VW, summary="Delete")
_ep(
    "volumes.attach",
    f"POST {_V}/attach",
    f"{_VW},{_CW}",
    req="volumes:VolumeAttach",
    resp="volumes:Volume",
    summary="Attach",
)
_ep(
    "volumes.clone",
    f"POST {_V}/clone",
    _VW,
    req="volumes:VolumeClone",
    resp="volumes:Volume",
    summary="Clone",
)
_ep("volumes.detach", f"POST {_V}/detach", f"{_VW},{_CW}", summary="Detach")
_ep(
    "volumes.resize",
    f"POST {_V}/resize",
    _VW,
    req="volumes:VolumeResize",
    resp="volumes:Volume",
    summary="Resize",
)

# --- Part 2: deployment scripts --------------------------------------------------------------
_SR, _SW = "deployscripts:read_only", "deployscripts:read_write"
_ep(
    "deployscripts.list",
    "GET /compute/deployscripts",
    _SR,
    auth="optional",
    paged=True,
    resp="deployscripts:DeployScript",
    summary="List",
)
_ep(
    "deployscripts.create",
    "POST /compute/deployscripts",
    _SW,
    req="deployscripts:DeployScriptCreate",
    resp="deployscripts:DeployScript",
    summary="Create",
)
_ep(
    "deployscripts.view",
    "GET /compute/deployscripts/{deployscriptId}",
    _SR,
    resp="deployscripts:DeployScript",
    summary="View",
)
_ep(
    "deployscripts.update",
    "PUT /compute/deployscripts/{deployscriptId}",
    _SW,
    req="deployscripts:DeployScriptUpdate",
    resp="deployscripts:DeployScript",
    summary="Update",
)
_ep("deployscripts.delete", "DELETE /compute/deployscripts/{deployscriptId}", _SW, summary="Delete")

# --- Part 2: tags ----------------------------------------------------------------------------
_ep("tags.list", "GET /tags", _AR, paged=True, resp="tags:Tag", summary="List")
_ep("tags.create", "POST /tags", _AW, req="tags:TagCreate", resp="tags:Tag", summary="Create")
_ep("tags.delete", "DELETE /tags/{label}", _AW, summary="Delete")
_ep(
    "tags.objects",
    "GET /tags/{label}",
    _AR,
    paged=True,
    resp="tags:TaggedObject",
    summary="Tagged objects list",
)

# --- Part 2: images --------------------------------------------------------------------------
_IR, _IW = "images:read_only", "images:read_write"
_ep(
    "images.list",
    "GET /images",
    _IR,
    auth="optional",
    paged=True,
    resp="images:Image",
    summary="List",
)
_ep(
    "images.create",
    "POST /images",
    f"{_IW},{_CR}",
    req="images:ImageCreate",
    resp="images:Image",
    summary="Create",
)
_ep(
    "images.upload",
    "POST /images/upload",
    _IW,
    req="images:ImageUpload",
    resp="images:ImageUploadStarted",
    summary="Upload",
)
_ep(
    "images.view",
    "GET /images/{imageId}",
    _IR,
    auth="optional",
    resp="images:Image",
    summary="View",
)
_ep(
    "images.update",
    "PUT /images/{imageId}",
    _IW,
    req="images:ImageUpdate",
    resp="images:Image",
    summary="Update",
)
_ep("images.delete", "DELETE /images/{imageId}", _IW, summary="Delete")

REGISTRY: Mapping[str, Endpoint] = _Registry()
"""Every endpoint by name."""

BY_KEY: Mapping[str, Endpoint] = _ByKey({key: name for name, (key, _s, _o) in _SPECS.items()})
"""Every endpoint by ``METHOD /path``."""

if len(BY_KEY) != len(_SPECS):  # pragma: no cover
    raise RuntimeError("duplicate endpoint key in the registry")


def endpoint(name_or_endpoint: str | Endpoint) -> Endpoint:
    """Look an endpoint up by name (or pass one through).

    Args:
        name_or_endpoint: Registry name such as ``compute.instances.view`` or an Endpoint.

    Returns:
        The endpoint.

    Raises:
        KeyError: No endpoint has that name.
    """
    if isinstance(name_or_endpoint, Endpoint):
        return name_or_endpoint
    return REGISTRY[name_or_endpoint]
