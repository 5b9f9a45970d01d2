"""Every line of endpoints.txt has an Endpoint, a simulator route and a way in from the UI.

Reachable from the UI means: named by a ResourceSpec the sidebar leads to (its listing, view or
one of its actions), or called by a hand-written module that declares the operations it calls
in a module-level ``ENDPOINTS`` tuple and is itself reachable (the app shell, or the flow of an
action ``screen``). The declarations are checked against the modules' code both ways, so an
operation cannot become unreachable without this test failing.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import screens
from screens.actions.run import ACTION_SCREENS
from tui.api.endpoints import BY_KEY, REGISTRY
from tui.api.paths import fill_path
from tui.resources.areas import AREA_OF_SPEC, SPECS
from tui.simulator import Simulator, VirtualClock
from tui.simulator import handlers as _handlers  # noqa: F401  (registers every handler)
from tui.simulator import registry as sim_registry
from tui.simulator.router import Router

ENDPOINTS_FILES = [
    Path(__file__).parent / "data" / "endpoints.txt",
    Path("/work/shared/spec/endpoints.txt"),
]

SHELL_MODULES = ("tui.app",)
"""Hand-written modules that are always on screen (the app loads the user's profile)."""

FILL = {
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
"""Path parameter values that every route accepts the shape of (others are ``1``)."""

ROUTER = Router(list(REGISTRY.values()))

LISTING_CALLS = frozenset({"call", "fetch_page", "iter_all", "fetch_all"})


def reference_lines(path: Path) -> list[str]:
    lines = []
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append(re.sub(r"\s+", " ", line))
    return lines


LINES = reference_lines(ENDPOINTS_FILES[0])
SHARED = ENDPOINTS_FILES[1]


def hand_written_modules() -> Iterator[ModuleType]:
    """Every screen module (in its package by job), and the app shell."""
    for info in pkgutil.walk_packages(screens.__path__, "screens."):
        if not info.ispkg:  # a package's __init__ is empty: its modules are walked
            yield importlib.import_module(info.name)
    for name in SHELL_MODULES:
        yield importlib.import_module(name)


def declaring_modules() -> dict[str, tuple[str, ...]]:
    """Module name -> its ``ENDPOINTS`` declaration, for modules that have one."""
    return {
        m.__name__: tuple(m.ENDPOINTS) for m in hand_written_modules() if hasattr(m, "ENDPOINTS")
    }


def names_called(module: ModuleType) -> set[str]:
    """Registry names the module's code passes to the client or to an action's ``call``."""
    tree = ast.parse(inspect.getsource(module))
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        candidates = [k.value for k in node.keywords if k.arg == "endpoint"]
        if isinstance(node.func, ast.Attribute) and node.func.attr in LISTING_CALLS:
            candidates += node.args[:1]
        found |= {
            c.value
            for c in candidates
            if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value in REGISTRY
        }
    return found


def spec_endpoints() -> set[str]:
    """Operations named by the specs the sidebar leads to (roots, tabs, children, targets)."""
    names: set[str] = set()
    for spec_id in AREA_OF_SPEC:
        spec = SPECS[spec_id]
        names.add(spec.list_endpoint)
        if spec.view_endpoint:
            names.add(spec.view_endpoint)
        if spec.month_endpoint:
            names.add(spec.month_endpoint)
        names.update(action.endpoint for action in spec.actions)
    return names


def reachable_endpoints() -> set[str]:
    """Every operation the UI can send."""
    reachable = set(spec_endpoints())
    for declared in declaring_modules().values():
        reachable.update(declared)
    return reachable


def test_reference_has_188_operations() -> None:
    assert len(LINES) == 188
    assert len(set(LINES)) == 188


def test_shared_reference_is_the_same_list() -> None:
    if not SHARED.exists():
        pytest.skip("the shared spec folder is not present on this machine")
    assert sorted(reference_lines(SHARED)) == sorted(LINES)


def test_registry_has_nothing_beyond_the_reference() -> None:
    assert sorted(BY_KEY) == sorted(LINES)


@pytest.mark.parametrize("line", LINES)
def test_line_has_endpoint(line: str) -> None:
    assert line in BY_KEY


@pytest.mark.parametrize("line", LINES)
def test_line_has_simulator_route_and_handler(line: str) -> None:
    ep = BY_KEY[line]
    assert ep.name in sim_registry.HANDLERS
    path = fill_path(ep.path, {p: FILL.get(p, "1") for p in ep.params})
    routed, _params, _known = ROUTER.match(ep.method, path)
    assert routed is ep, f"{line} is routed to {routed and routed.name}"


@pytest.mark.parametrize("line", LINES)
def test_line_is_reachable_from_the_ui(line: str) -> None:
    name = BY_KEY[line].name
    assert name in reachable_endpoints(), (
        f"{name} is named by no ResourceSpec the sidebar leads to and declared by no "
        "reachable hand-written module (ENDPOINTS)"
    )


def test_declared_endpoints_are_called_and_called_ones_declared() -> None:
    problems = []
    for module in hand_written_modules():
        declared = set(getattr(module, "ENDPOINTS", ()))
        called = names_called(module)
        if declared - called:
            problems.append(f"{module.__name__} declares but never calls {declared - called}")
        if called - declared:
            problems.append(f"{module.__name__} calls but does not declare {called - declared}")
    assert problems == []


def test_declaring_modules_are_reachable() -> None:
    flows = {target.partition(":")[0] for target in ACTION_SCREENS.values()}
    specs_screens = {a.screen for s in SPECS.values() for a in s.actions if a.screen}
    assert specs_screens <= set(ACTION_SCREENS), "an action names a flow that is not registered"
    for module_name in declaring_modules():
        assert module_name in flows or module_name in SHELL_MODULES, module_name


def _fill(path: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: FILL.get(m.group(1), "1"), path)


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
