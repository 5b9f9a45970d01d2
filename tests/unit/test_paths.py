"""Path templates are filled safely."""

from __future__ import annotations

import httpx
import pytest

from tui.api import ApiClient
from tui.api.paths import fill_path


def test_integers_go_in_as_is() -> None:
    assert fill_path("/compute/instances/{computeId}", {"computeId": 42}) == "/compute/instances/42"


def test_strings_are_quoted() -> None:
    path = fill_path("/tags/{label}", {"label": "team:[ops]/a b?#"})
    assert path == "/tags/team%3A%5Bops%5D%2Fa%20b%3F%23"


@pytest.mark.parametrize(
    ("template", "name", "value", "expected"),
    [
        ("/images/{imageId}", "imageId", "private/12", "/images/private/12"),
        ("/images/{imageId}", "imageId", "compute/debian12", "/images/compute/debian12"),
        (
            "/compute/kernels/{kernelId}",
            "kernelId",
            "compute/latest-64bit",
            "/compute/kernels/compute/latest-64bit",
        ),
    ],
)
def test_slashed_ids_stay_two_segments(template: str, name: str, value: str, expected: str) -> None:
    assert fill_path(template, {name: value}) == expected


@pytest.mark.parametrize("value", ["a/b/c", "/x", "x/", "../etc", "a/.."])
def test_malformed_slashed_ids_are_refused(value: str) -> None:
    with pytest.raises(ValueError):
        fill_path("/images/{imageId}", {"imageId": value})


@pytest.mark.parametrize("value", ["", "..", ".", True])
def test_dangerous_values_are_refused(value: object) -> None:
    with pytest.raises(ValueError):
        fill_path("/tags/{label}", {"label": value})


def test_missing_parameter_is_reported() -> None:
    with pytest.raises(KeyError):
        fill_path("/compute/instances/{computeId}", {})


async def test_client_sends_slashed_image_id_as_two_segments() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.raw_path.decode())
        return httpx.Response(200, json={})

    client = ApiClient("https://api.test/v4", "t", transport=httpx.MockTransport(handler))
    await client.call("images.view", {"imageId": "private/12"})
    await client.call("compute.kernels.view", {"kernelId": "compute/latest-64bit"})
    await client.call("tags.objects", {"label": "a/b"}, query={"page": 1})
    assert seen == [
        "/v4/images/private/12",
        "/v4/compute/kernels/compute/latest-64bit",
        "/v4/tags/a%2Fb?page=1",
    ]
