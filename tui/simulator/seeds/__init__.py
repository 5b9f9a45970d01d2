"""Demo-data seeders of every area; importing this package registers them all."""

from __future__ import annotations

import importlib

from tui.simulator.handlers import AREAS

for _area in AREAS:
    try:
        importlib.import_module(f"{__name__}.{_area}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{_area}":
            raise
