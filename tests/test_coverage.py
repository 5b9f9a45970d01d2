"""Every line of endpoints.txt has an Endpoint, a service method and a simulator route."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from tui.api.endpoints import BY_KEY, REGISTRY
from tui.api.services import AREA_SERVICES
from tui.simulator import Simulator, VirtualClock
from tui.simulator import handlers as _handlers  # noqa: F401  (registers every handler)
from tui.simulator import registry as sim_registry

ENDPOINTS_TXT = Path(__file__).parent / "data" / "endpoints.txt"


def reference_lines() -> list[str]:
    lines = []
    for raw in ENDPOINTS_TXT.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append(re.sub(r"\s+", " ", line))
    return lines


def service_marks() -> dict[str, list[str]]:
    """Endpoint name -> service methods marked with @operation."""
    import importlib

    marks: dict[str, list[str]] = {}
    for module_name, class_name in AREA_SERVICES.values():
        try:
            module = importlib.import_module(f"tui.api.services.{module_name}")
        except ModuleNotFoundError:
            continue
        cls = getattr(module, class_name)
        for attr, fn in inspect.getmembers(cls, inspect.isfunction):
            for name in getattr(fn, "__endpoints__", ()):
                marks.setdefault(name, []).append(f"{class_name}.{attr}")
    return marks


LINES = reference_lines()


def test_reference_has_188_operations() -> None:
    assert len(LINES) == 188
    assert len(set(LINES)) == 188


@pytest.mark.parametrize("line", LINES)
def test_line_has_endpoint(line: str) -> None:
    assert line in BY_KEY


@pytest.mark.parametrize("line", LINES)
def test_line_has_service_method(line: str) -> None:
    name = BY_KEY[line].name
    assert name in service_marks(), f"no service method marked @operation({name!r})"


@pytest.mark.parametrize("line", LINES)
def test_line_has_simulator_handler(line: str) -> None:
    assert BY_KEY[line].name in sim_registry.HANDLERS


def _fill(path: str) -> str:
    values = {
        "imageId": "private/1",
        "kernelId": "compute/latest-64bit",
        "clusterId": "1",
        "bucket": "b",
        "label": "tag",
        "version": "1.31",
        "engineId": "mysql",
        "deployscriptId": "1",
        "nodeId": "1",
    }
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "1"), path)


async def test_every_route_answers_something_other_than_unknown_route() -> None:
    sim = Simulator(clock=VirtualClock())
    client = sim.client("unrestricted")
    problems = []
    for ep in REGISTRY.values():
        try:
            await client.request(ep.method, _fill(ep.path), json={} if ep.writes else None)
        except Exception as exc:  # every failure here is an API answer; inspect its text
            text = str(exc)
            if "Unknown route" in text or "not implemented by the simulator" in text:
                problems.append(f"{ep.key}: {text}")
    await client.aclose()
    assert problems == []


def test_every_service_docstring_starts_with_method_and_path() -> None:
    import importlib

    for module_name, class_name in AREA_SERVICES.values():
        try:
            module = importlib.import_module(f"tui.api.services.{module_name}")
        except ModuleNotFoundError:
            continue
        cls = getattr(module, class_name)
        for attr, fn in inspect.getmembers(cls, inspect.isfunction):
            names = getattr(fn, "__endpoints__", ())
            if not names:
                continue
            first = (inspect.getdoc(fn) or "").splitlines()[0] if fn.__doc__ else ""
            keys = {REGISTRY[n].key for n in names}
            generic = {re.sub(r"/(mysql|mongodb)/", "/{engine}/", k) for k in keys}
            assert any(k in first for k in keys | generic), f"{class_name}.{attr}: {first!r}"
