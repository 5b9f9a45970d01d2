"""Shared checks of the simulator's rule tests: a request is refused, names the field, and
changes nothing."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.simulator import Simulator


async def refused(
    client: ApiClient,
    name: str,
    params: dict[str, Any] | None = None,
    body: Any = None,
    status: int = 400,
    query: dict[str, Any] | None = None,
) -> ApiError:
    """Call ``name`` and expect an API error with ``status``; returns the error."""
    with pytest.raises(ApiError) as info:
        await client.call(name, params, body=body, query=query, model=dict)
    assert info.value.status == status, info.value
    return info.value


async def refused_unchanged(
    snapshot: Callable[[Simulator], Any],
    client: ApiClient,
    sim: Simulator,
    name: str,
    params: dict[str, Any] | None,
    body: Any,
    field: str | None,
    status: int = 400,
) -> ApiError:
    """The call is refused with ``status``, names ``field`` (when given), and the state that
    ``snapshot`` captures is the same afterwards."""
    before = snapshot(sim)
    err = await refused(client, name, params, body, status)
    if field is not None:
        assert field in err.field_errors(), err
    assert snapshot(sim) == before
    return err


RefusalCheck = Callable[..., Awaitable[ApiError]]
"""``refused_unchanged`` with its snapshot bound: ``(client, sim, name, params, body, field,
status=400)``."""


def refusal_check(snapshot: Callable[[Simulator], Any]) -> RefusalCheck:
    """A :func:`refused_unchanged` that compares what ``snapshot`` captures (one per area)."""
    return functools.partial(refused_unchanged, snapshot)
