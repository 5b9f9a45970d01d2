"""Property tests: malformed answers never raise anything but a typed client error, and the
list, detail, badge and JSON code shows whatever arrives (examples are bounded to stay fast)."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError
from rich.console import Console

from screens.json_view import item_json
from tui.api.client import ApiClient
from tui.api.endpoints import REGISTRY
from tui.api.errors import CloudError, MalformedAnswer
from tui.api.retry import RetryPolicy
from tui.resources.areas import SPECS
from tui.resources.format import badge_text, copy_value, status_tone
from tui.resources.rows import table_row
from tui.resources.spec import ResourceSpec
from tui.untrusted import shown
from widgets.detail_panel import section_table

BOUNDED = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

NASTY_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "[/oops]",
            "[bold red]x[/]",
            "\x1b[2J\x1b[31mred",
            "\x1b]52;c;ZXZpbA==\x07",
            "\r\n\t\x00\x07",
            "‮reversed",
            "e\u0301\u200b",
            "😀" * 3,
            "x" * 20_000,
        ]
    ),
)
JSON_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=False, allow_infinity=False),
    NASTY_TEXT,
)
JSON_VALUE = st.recursive(
    JSON_SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _spec_keys(spec: ResourceSpec) -> list[str]:
    keys = {spec.id_field, spec.label_field, *(c.key for c in spec.columns)}
    for section in spec.sections:
        keys.update(f.key for f in section.fields)
    return sorted(k.split(".", 1)[0] for k in keys)


ALL_KEYS = sorted({k for spec in SPECS.values() for k in _spec_keys(spec)})

ITEM = st.dictionaries(
    st.one_of(st.sampled_from(ALL_KEYS), st.text(max_size=10)), JSON_VALUE, max_size=14
)
"""Items whose fields are the ones specs show (any type, null, huge, escapes) plus unknowns."""


def _render(renderable: Any) -> str:
    console = Console(file=io.StringIO(), width=80, color_system=None, force_terminal=False)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


@BOUNDED
@given(st.sampled_from(sorted(SPECS)), ITEM)
def test_rows_details_and_json_show_any_item(spec_id: str, item: dict[str, Any]) -> None:
    spec = SPECS[spec_id]
    row = table_row(spec, item)
    assert len(row.cells) == len(spec.columns)
    assert all(isinstance(c, str) for c in row.cells)
    copy_value(spec, item)
    for section in spec.sections:
        _render(section_table(section, item, spec.transitional))
    shown = json.loads(item_json(item))
    assert set(shown) == {k for k in item if not str(k).startswith("_")}


@BOUNDED
@given(NASTY_TEXT)
def test_an_unknown_status_is_shown_as_it_is_with_a_neutral_badge(status: str) -> None:
    tone = status_tone(status)
    badge = badge_text(status)
    if status:
        # As it is, but through the text boundary: control characters as their pictures.
        assert shown(status.replace("_", " ")) in badge
        assert badge.startswith(("●", "◐", "▲", "✖", "○", "◇"))
    assert tone in ("ok", "busy", "warn", "error", "muted", "neutral")


def test_a_status_no_client_version_knows_reads_neutral() -> None:
    assert status_tone("teleporting") == "neutral"
    assert badge_text("teleporting") == "◇ teleporting"
    assert status_tone("running") == "ok" and status_tone("failed") == "error"


RESPONSE_MODELS = sorted(
    {ep.response_model() for ep in REGISTRY.values() if ep.response} - {None},
    key=lambda m: m.__name__,  # type: ignore[union-attr]
)


@BOUNDED
@given(st.sampled_from(RESPONSE_MODELS), ITEM)
def test_response_models_accept_or_refuse_cleanly_and_keep_unknown_fields(
    model: type[BaseModel], item: dict[str, Any]
) -> None:
    extra = {**item, "field_from_a_newer_api": {"v": 2}}
    try:
        parsed = model.model_validate(extra)
    except ValidationError:
        return
    assert parsed.model_dump(mode="json")["field_from_a_newer_api"] == {"v": 2}


PAGE = st.fixed_dictionaries(
    {},
    optional={
        "data": st.one_of(st.lists(ITEM, max_size=5), JSON_VALUE),
        "page": st.one_of(st.integers(-5, 10**9), JSON_SCALAR),
        "pages": st.one_of(st.integers(-5, 10**9), JSON_SCALAR),
        "results": st.one_of(st.integers(-5, 10**9), JSON_SCALAR),
        "unexpected": JSON_VALUE,
    },
)


async def _no_sleep(_s: float) -> None:
    return None


def _client_answering(body: bytes) -> ApiClient:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"content-type": "application/json"})

    return ApiClient(
        "http://127.0.0.1/v4",
        "t",
        transport=httpx.MockTransport(answer),
        retry=RetryPolicy(max_attempts=1, sleep=_no_sleep),
    )


@BOUNDED
@given(st.one_of(PAGE, JSON_VALUE), st.sampled_from(["compute.instances.list", "volumes.list"]))
async def test_any_page_is_a_page_or_a_typed_error(payload: Any, name: str) -> None:
    api = _client_answering(json.dumps(payload).encode())
    try:
        pages = 0
        async for page in api.iter_all(name, model=dict):
            pages += 1
            assert all(isinstance(item, Mapping) for item in page.data)
        assert pages <= 201  # a page lying about "pages" is followed only so far
    except CloudError:
        pass
    finally:
        await api.aclose()


@pytest.mark.parametrize(
    "body",
    [
        b'{"data": [1, 2], "page": 1, "pages": 1, "results": 2}',
        b'{"data": "nope"}',
        b'{"data": [], "pages": "many"}',
        b"[1, 2, 3]",
    ],
)
async def test_a_malformed_page_is_a_malformed_answer(body: bytes) -> None:
    api = _client_answering(body)
    try:
        with pytest.raises(MalformedAnswer) as caught:
            await api.fetch_page("volumes.list", model=dict)
    finally:
        await api.aclose()
    assert "unexpected shape" in str(caught.value)


async def test_a_page_claiming_a_billion_pages_stops_at_the_first_empty_one() -> None:
    calls: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        calls.append(str(request.url))
        number = int(request.url.params.get("page", "1"))
        data = [{"id": number, "label": f"v{number}"}] if number <= 3 else []
        body = {"data": data, "page": number, "pages": 10**9, "results": 5}
        return httpx.Response(200, json=body)

    api = ApiClient(
        "http://127.0.0.1/v4",
        "t",
        transport=httpx.MockTransport(answer),
        retry=RetryPolicy(max_attempts=1, sleep=_no_sleep),
        max_concurrency=2,
    )
    try:
        items = await api.fetch_all("volumes.list", model=dict, page_size=25)
    finally:
        await api.aclose()
    assert [i["id"] for i in items] == [1, 2, 3]
    assert len(calls) < 210


@BOUNDED
@given(JSON_VALUE)
async def test_a_typed_answer_that_does_not_fit_is_a_malformed_answer(payload: Any) -> None:
    from tui.models.profile import Profile

    api = _client_answering(json.dumps(payload).encode())
    try:
        await api.call("profile.view", model=Profile)
    except MalformedAnswer:
        pass
    finally:
        await api.aclose()
