"""Edit as text end to end against the simulator: three instances in one document, the plan
sent through the client, and a change made meanwhile on the server caught before sending."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui.api.client import ApiClient
from tui.resources.areas import SPECS
from tui.textedit.conflicts import fetch_current, find_conflicts, rebase
from tui.textedit.document import EditDocument, build_document, edit_target
from tui.textedit.review import EditPlan, review_text
from tui.textedit.toml_text import parse_toml, toml_value


async def _three_instances(client: ApiClient) -> list[dict[str, Any]]:
    items = await client.fetch_all("compute.instances.list", model=dict)
    return [dict(i) for i in items[:3]]


def _set(text: str, ident: int, key: str, value: Any) -> str:
    """The document with ``key`` of the entry of ``ident`` set to ``value``."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(f"id = {ident} "))
    at = next(n for n in range(start, len(lines)) if lines[n].lstrip("# ").startswith(f"{key} ="))
    lines[at] = f"{key} = {toml_value(value)}"
    return "\n".join(lines) + "\n"


async def _send(client: ApiClient, plan: EditPlan) -> None:
    for request in plan.requests:
        await client.call(request.endpoint, request.params, body=request.body)


def _document(items: list[dict[str, Any]]) -> EditDocument:
    target = edit_target(SPECS["compute.instances"])
    assert target is not None
    return build_document(target, items)


async def test_labels_and_tags_of_three_instances_edited_as_one_document(
    client: ApiClient,
) -> None:
    items = await _three_instances(client)
    document = _document(items)
    text = document.text
    for n, item in enumerate(items):
        text = _set(text, item["id"], "label", f"edited-{n}")
        text = _set(text, item["id"], "tags", ["edited", f"n{n}"])
    review = review_text(document, text)
    assert review.status == "ready" and review.plan is not None
    assert [set(r.body) for r in review.plan.requests] == [{"label", "tags"}] * 3
    current = await fetch_current(document, review.plan.keys, _viewer(client))
    assert find_conflicts(document, review.plan, current) == []
    await _send(client, review.plan)
    for n, item in enumerate(items):
        now = await client.call("compute.instances.view", {"computeId": item["id"]}, model=dict)
        assert (now["label"], now["tags"]) == (f"edited-{n}", ["edited", f"n{n}"])


def _viewer(client: ApiClient) -> Any:
    async def view(endpoint: str, params: Mapping[str, Any]) -> Mapping[str, Any]:
        answer: Mapping[str, Any] = await client.call(endpoint, params, model=dict)
        return answer

    return view


async def test_a_change_made_on_the_server_meanwhile_is_caught_and_merged(
    client: ApiClient,
) -> None:
    items = await _three_instances(client)
    document = _document(items)
    first = items[0]["id"]
    # Someone else renames the first instance while the document is open.
    await client.call("compute.instances.update", {"computeId": first}, body={"label": "theirs"})
    review = review_text(document, _set(document.text, first, "tags", ["mine"]))
    assert review.plan is not None
    current = await fetch_current(document, review.plan.keys, _viewer(client))
    (conflict,) = find_conflicts(document, review.plan, current)
    assert [c.name for c in conflict.theirs] == ["label"]
    assert [c.name for c in conflict.mine] == ["tags"]
    assert conflict.overlap == ()
    # Merge: the reopened document has their label and my tags; sending it keeps both.
    merged = rebase(document, review.plan, current, [conflict])
    entry = parse_toml(merged.text)["instance"][0]
    assert (entry["label"], entry["tags"]) == ("theirs", ["mine"])
    again = review_text(merged, merged.text)
    assert again.plan is not None
    assert [dict(r.body) for r in again.plan.requests] == [{"tags": ["mine"]}]
    await _send(client, again.plan)
    now = await client.call("compute.instances.view", {"computeId": first}, model=dict)
    assert (now["label"], now["tags"]) == ("theirs", ["mine"])
