"""Handlers of every API area; importing this package registers them all."""

from __future__ import annotations

import importlib

AREAS = (
    "profile",
    "object_storage",
    "compute",
    "loadbalancers",
    "domains",
    "databases",
    "k8s",
    "managed",
    "volumes",
    "deployscripts",
    "tags",
    "images",
)

for _area in AREAS:
    try:
        importlib.import_module(f"{__name__}.{_area}")
    except ModuleNotFoundError as exc:  # an area not written yet answers 501
        if exc.name != f"{__name__}.{_area}":
            raise
