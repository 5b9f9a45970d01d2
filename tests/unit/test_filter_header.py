"""The filter header a listing sends: JSON any HTTP client can put on the wire."""

from __future__ import annotations

import json

import httpx

from tui.api.listing import FILTER_HEADER, filter_headers
from tui.simulator.hostile import hostile


def test_a_filter_on_text_others_wrote_is_ascii_json_that_reads_back_the_same() -> None:
    tag = hostile("tag")  # escape sequences, bidi overrides, wide characters, emoji
    headers = filter_headers({"tags": tag})
    assert headers is not None
    sent = headers[FILTER_HEADER]
    assert sent.isascii() and sent.isprintable()  # headers are ASCII on the wire
    assert json.loads(sent) == {"tags": tag}
    httpx.Request("GET", "http://127.0.0.1/", headers=headers)  # httpx takes it as it is


def test_no_filter_sends_no_header() -> None:
    assert filter_headers(None) is None and filter_headers({}) is None
