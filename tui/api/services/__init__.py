"""One typed service per API area, grouped by :class:`Services`.

Each area module is imported on first use so that start-up pays only for what the first screen
needs.
"""

from __future__ import annotations

import importlib
from functools import cached_property
from typing import TYPE_CHECKING, Any

from tui.api.client import ApiClient

if TYPE_CHECKING:
    from tui.api.services.compute import ComputeService
    from tui.api.services.databases import DatabasesService
    from tui.api.services.deployscripts import DeployScriptsService
    from tui.api.services.domains import DomainsService
    from tui.api.services.images import ImagesService
    from tui.api.services.k8s import K8sService
    from tui.api.services.loadbalancers import LoadBalancersService
    from tui.api.services.managed import ManagedService
    from tui.api.services.object_storage import ObjectStorageService
    from tui.api.services.profile import ProfileService
    from tui.api.services.tags import TagsService
    from tui.api.services.volumes import VolumesService

AREA_SERVICES: dict[str, tuple[str, str]] = {
    "profile": ("profile", "ProfileService"),
    "object_storage": ("object_storage", "ObjectStorageService"),
    "compute": ("compute", "ComputeService"),
    "loadbalancers": ("loadbalancers", "LoadBalancersService"),
    "domains": ("domains", "DomainsService"),
    "databases": ("databases", "DatabasesService"),
    "k8s": ("k8s", "K8sService"),
    "managed": ("managed", "ManagedService"),
    "volumes": ("volumes", "VolumesService"),
    "deployscripts": ("deployscripts", "DeployScriptsService"),
    "tags": ("tags", "TagsService"),
    "images": ("images", "ImagesService"),
}
"""Area id (the first part of an endpoint name) -> (module, class)."""


class Services:
    """Every area's service over one shared client.

    Args:
        client: The API client.
    """

    def __init__(self, client: ApiClient) -> None:
        self.client = client

    def area(self, area: str) -> Any:
        """The service of an area by id (``compute``, ``domains``, ...)."""
        return getattr(self, area)

    def _make(self, area: str) -> Any:
        module_name, class_name = AREA_SERVICES[area]
        module = importlib.import_module(f"tui.api.services.{module_name}")
        return getattr(module, class_name)(self.client)

    @cached_property
    def profile(self) -> ProfileService:
        """Profile, apps, devices, grants, logins, phone, preferences."""
        return self._make("profile")

    @cached_property
    def object_storage(self) -> ObjectStorageService:
        """Buckets, objects, clusters, keys."""
        return self._make("object_storage")

    @cached_property
    def compute(self) -> ComputeService:
        """Instances, configs, disks, backups, stats, transfer, kernels, regions, types."""
        return self._make("compute")

    @cached_property
    def loadbalancers(self) -> LoadBalancersService:
        """Load balancers, configs, nodes."""
        return self._make("loadbalancers")

    @cached_property
    def domains(self) -> DomainsService:
        """Domains, records, zone files."""
        return self._make("domains")

    @cached_property
    def databases(self) -> DatabasesService:
        """Managed databases and engines."""
        return self._make("databases")

    @cached_property
    def k8s(self) -> K8sService:
        """Kubernetes clusters, pools, nodes, versions."""
        return self._make("k8s")

    @cached_property
    def managed(self) -> ManagedService:
        """Managed support."""
        return self._make("managed")

    @cached_property
    def volumes(self) -> VolumesService:
        """Block volumes."""
        return self._make("volumes")

    @cached_property
    def deployscripts(self) -> DeployScriptsService:
        """Deployment scripts."""
        return self._make("deployscripts")

    @cached_property
    def tags(self) -> TagsService:
        """Tags."""
        return self._make("tags")

    @cached_property
    def images(self) -> ImagesService:
        """Images."""
        return self._make("images")
