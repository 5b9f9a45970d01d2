"""Edit as text: the document of an update model's fields, its review, problems written back,
and conflicts with the server's state."""

from __future__ import annotations

from typing import Any

import pytest

from tui.resources.areas import SPECS
from tui.textedit.conflicts import find_conflicts, rebase
from tui.textedit.document import (
    ID_KEY,
    EditTarget,
    NotEditable,
    build_document,
    edit_target,
)
from tui.textedit.notes import without_notes
from tui.textedit.review import review_text
from tui.textedit.toml_text import parse_toml, toml_value


def _target(spec_id: str) -> EditTarget:
    target = edit_target(SPECS[spec_id])
    assert target is not None
    return target


def _instance(ident: int, label: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": ident,
        "label": label,
        "tags": ["web"],
        "watchdog_enabled": True,
        "alerts": {"cpu": 90, "io": 10000},
        "status": "running",
        "updated": "2024-05-01T10:00:00",
        **extra,
    }


INSTANCES = [_instance(1, "web-1"), _instance(2, "web-2"), _instance(3, "web-3")]


def _line(text: str, start: str, after: int = 0) -> int:
    """0-based index of the first line starting with ``start`` after line ``after``."""
    lines = text.splitlines()
    return next(n for n in range(after, len(lines)) if lines[n].startswith(start))


def _entry_start(text: str, ident: int) -> int:
    return _line(text, f"{ID_KEY} = {ident} ")


def _edit(text: str, ident: int, old: str, new: str) -> str:
    """Replace the line starting with ``old`` in the entry of ``ident``."""
    lines = text.splitlines()
    at = _line(text, old, _entry_start(text, ident))
    lines[at] = new
    return "\n".join(lines) + "\n"


# -- the document --------------------------------------------------------------------------


def test_one_document_has_one_entry_per_marked_item_in_order() -> None:
    document = build_document(_target("compute.instances"), INSTANCES)
    parsed = parse_toml(document.text)
    assert [entry[ID_KEY] for entry in parsed["instance"]] == [1, 2, 3]
    assert [entry["label"] for entry in parsed["instance"]] == ["web-1", "web-2", "web-3"]
    assert parsed["instance"][0]["alerts"]["cpu"] == 90
    assert document.file_name == "instance.toml"


def test_each_field_line_names_its_allowed_values() -> None:
    text = build_document(_target("compute.instances"), INSTANCES[:1]).text
    assert 'label = "web-1"  # text, 3 to 64 characters' in text
    assert "watchdog_enabled = true  # true or false" in text
    assert "alerts.transfer_quota =   # whole number, 0 to 100 (no value now)" in text
    day = text.splitlines()[_line(text, "# backups.schedule.day")]
    assert 'one of "Scheduling", "Sunday"' in day
    configs = build_document(_target("compute.configs"), [{"id": 5, "label": "boot"}]).text
    assert "matching ^/dev/\\S+$" in configs  # a pattern is named too
    balancer = build_document(_target("loadbalancers.configs"), [{"id": 7, "port": 80}]).text
    assert 'one of "http", "https", "tcp"; used when' not in balancer  # protocol decides
    assert "used when protocol is https" in balancer  # a rule says when a field counts


def test_secret_fields_are_never_in_the_document() -> None:
    config = {"id": 7, "port": 443, "protocol": "https", "ssl_key": "-----BEGIN KEY-----"}
    document = build_document(_target("loadbalancers.configs"), [config])
    assert "BEGIN KEY" not in document.text
    assert "ssl_key =" not in document.text
    assert "Not edited here (secret): ssl_key." in document.text


def test_yaml_booleans_and_control_characters_stay_text() -> None:
    hostile = "no\x1b]52;c;evil\x07\u202e"
    document = build_document(_target("compute.instances"), [_instance(1, hostile)])
    assert "\x1b" not in document.text and "\u202e" not in document.text
    assert parse_toml(document.text)["instance"][0]["label"] == hostile
    assert parse_toml("k = " + toml_value("on"))["k"] == "on"


@pytest.mark.parametrize(
    "value",
    ['#!/bin/sh\necho "hi"\n', 'a"""b\n', 'end"\n"', '""\n', 'x\n"""""', "tab\tcr\r\n\\"],
)
def test_multi_line_values_read_back_exactly(value: str) -> None:
    assert parse_toml("k = " + toml_value(value))["k"] == value


def test_a_scripts_quotes_stay_readable() -> None:
    assert toml_value('echo "hi"\n') == '"""\necho "hi"\n"""'


def test_an_object_without_an_update_form_is_not_editable() -> None:
    assert edit_target(SPECS["compute.regions"]) is None  # no update operation
    assert edit_target(SPECS["object_storage.objects"]) is None  # a hand-written screen's
    with pytest.raises(NotEditable):
        build_document(_target("compute.instances"), [])


@pytest.mark.parametrize("spec_id", sorted(s for s in SPECS if edit_target(SPECS[s]) is not None))
def test_every_updatable_kind_makes_a_document_that_reads_back_unchanged(spec_id: str) -> None:
    target = _target(spec_id)
    assert all(f.path[0] != ID_KEY for f in target.fields.fields)
    item = {target.spec.id_field: 42, "label": "thing", "tags": ["a"]}
    document = build_document(target, [item])
    review = review_text(document, document.text)
    assert review.status == "cancelled", review.text


# -- review -------------------------------------------------------------------------------


def test_an_empty_file_or_an_unchanged_one_sends_nothing() -> None:
    document = build_document(_target("compute.instances"), INSTANCES)
    for text in ("", "\n\n", "# only a comment\n", document.text):
        review = review_text(document, text)
        assert review.status == "cancelled"
        assert review.plan is None


def test_only_changed_fields_are_sent_one_request_per_changed_item() -> None:
    document = build_document(_target("compute.instances"), INSTANCES)
    text = _edit(document.text, 1, "label =", 'label = "web-1b"')
    text = _edit(text, 3, "tags =", 'tags = ["web", "prod"]')
    review = review_text(document, text)
    assert review.status == "ready" and review.plan is not None
    first, third = review.plan.requests
    assert (first.method, first.path, dict(first.body)) == (
        "PUT",
        "/compute/instances/1",
        {"label": "web-1b"},
    )
    assert first.endpoint == "compute.instances.update"
    assert dict(third.body) == {"tags": ["web", "prod"]}
    assert [c.text() for c in first.changes] == ['label: "web-1" -> "web-1b"']
    preview = "\n".join(review.plan.preview())
    assert 'PUT /compute/instances/3 {"tags": ["web", "prod"]}' in preview


def test_a_changed_nested_value_sends_its_object_as_the_form_does() -> None:
    document = build_document(_target("compute.instances"), INSTANCES[:1])
    review = review_text(document, _edit(document.text, 1, "alerts.cpu =", "alerts.cpu = 50"))
    assert review.plan is not None
    assert dict(review.plan.requests[0].body) == {"alerts": {"cpu": 50, "io": 10000}}


def test_a_removed_line_keeps_the_value_and_a_given_one_is_set() -> None:
    document = build_document(_target("compute.instances"), INSTANCES[:1])
    text = _edit(document.text, 1, "tags =", "")
    text = _edit(text, 1, "# group =", 'group = "front"')
    review = review_text(document, text)
    assert review.plan is not None
    assert dict(review.plan.requests[0].body) == {"group": "front"}


def test_a_bad_value_is_written_back_above_its_line_and_the_fixed_text_goes_through() -> None:
    document = build_document(_target("compute.instances"), INSTANCES)
    text = _edit(document.text, 2, "label =", 'label = "x"')
    review = review_text(document, text)
    assert review.status == "invalid" and review.plan is None
    lines = review.text.splitlines()
    assert lines[0].startswith("# ! 1 problem(s)")
    note = _line(review.text, "# ! label: must be at least 3 characters")
    assert lines[note + 1] == 'label = "x"'
    assert note > _entry_start(review.text, 2)  # in the second entry, not the first
    assert note < _entry_start(review.text, 3)
    # The user fixes the line in the reopened text: the notes go, the change goes through.
    fixed = review.text.replace('label = "x"', 'label = "web-two"')
    again = review_text(document, fixed)
    assert again.status == "ready" and again.plan is not None
    assert [dict(r.body) for r in again.plan.requests] == [{"label": "web-two"}]
    assert "\n# ! " not in again.text


def test_a_syntax_error_is_written_back_at_its_line() -> None:
    document = build_document(_target("compute.instances"), INSTANCES[:1])
    text = _edit(document.text, 1, "tags =", "tags = [")
    review = review_text(document, text)
    assert review.status == "invalid"
    assert any(p.message.startswith("not TOML") for p in review.problems)
    assert review.problems[0].line is not None


def test_unknown_fields_ids_and_secrets_are_named() -> None:
    document = build_document(_target("compute.instances"), INSTANCES[:2])
    text = _edit(document.text, 1, "label =", 'lable = "web-1"')
    text = text.replace(f"{ID_KEY} = 2 ", f"{ID_KEY} = 1 ")
    review = review_text(document, "extra = 1\n" + text)
    messages = [p.message for p in review.problems]
    assert "lable is not a field of this instance; did you mean label?" in messages
    assert f"{ID_KEY} 1 has an entry above already" in messages
    assert any(m.startswith("extra is not part of this document") for m in messages)
    assert review.text.index("# ! lable") < review.text.index('lable = "web-1"')


def test_a_scripts_lines_that_look_like_notes_are_kept() -> None:
    script = "#!/bin/bash\n# ! not a note\necho hi\n"
    item = {"id": 9, "label": "setup", "script": script, "images": ["any/all"]}
    document = build_document(_target("deployscripts"), [item])
    assert parse_toml(without_notes(document.text))["deployment_script"][0]["script"] == script
    text = _edit(document.text, 9, "label =", 'label = "no"')  # too short: a note is written
    review = review_text(document, text)
    assert review.status == "invalid"
    assert parse_toml(without_notes(review.text))["deployment_script"][0]["script"] == script


# -- conflicts ----------------------------------------------------------------------------


def _ready(document: Any, text: str) -> Any:
    review = review_text(document, text)
    assert review.plan is not None, review.text
    return review.plan


def test_the_documents_fields_decide_a_conflict_not_the_updated_stamp() -> None:
    document = build_document(_target("compute.instances"), INSTANCES)
    plan = _ready(document, _edit(document.text, 1, "label =", 'label = "web-1b"'))
    assert find_conflicts(document, plan, {"1": INSTANCES[0]}) == []
    rebooted = {**INSTANCES[0], "status": "rebooting", "updated": "2024-05-01T11:00:00"}
    assert find_conflicts(document, plan, {"1": rebooted}) == []
    # Two changes in the same second share their stamp: the fields still tell them apart.
    same_second = {**INSTANCES[0], "tags": ["db"]}
    assert [c.key for c in find_conflicts(document, plan, {"1": same_second})] == ["1"]


def test_a_change_on_the_server_is_a_conflict_with_both_sides() -> None:
    document = build_document(_target("compute.instances"), INSTANCES)
    plan = _ready(document, _edit(document.text, 1, "label =", 'label = "mine"'))
    theirs = {**INSTANCES[0], "label": "theirs", "tags": ["db"], "updated": "2024-05-01T12:00"}
    (conflict,) = find_conflicts(document, plan, {"1": theirs})
    assert conflict.key == "1" and not conflict.gone
    assert [c.text() for c in conflict.theirs] == [
        'label: "web-1" -> "theirs"',
        'tags: ["web"] -> ["db"]',
    ]
    assert [c.text() for c in conflict.mine] == ['label: "web-1" -> "mine"']
    assert conflict.overlap == ("label",)
    lines = conflict.lines()
    assert any("server:" in line and "theirs" in line for line in lines)
    assert any("yours:" in line and "mine" in line for line in lines)
    # Keeping the server's drops the request; sending mine keeps the plan.
    assert plan.without([conflict.key]).requests == ()


def test_a_neighbour_sent_along_in_a_nested_object_is_an_overlap() -> None:
    document = build_document(_target("compute.instances"), INSTANCES)
    plan = _ready(document, _edit(document.text, 1, "alerts.cpu =", "alerts.cpu = 50"))
    theirs = {**INSTANCES[0], "alerts": {"cpu": 90, "io": 5000}}
    (conflict,) = find_conflicts(document, plan, {"1": theirs})
    assert conflict.overlap == ("alerts.io",)  # the whole alerts object would be sent
    assert any("undoes the server's change of alerts.io" in line for line in conflict.lines())


def test_a_deleted_item_is_a_conflict() -> None:
    document = build_document(_target("compute.instances"), INSTANCES)
    plan = _ready(document, _edit(document.text, 2, "label =", 'label = "web-2b"'))
    (conflict,) = find_conflicts(document, plan, {"2": None})
    assert conflict.gone


def test_rebase_writes_my_changes_over_the_servers_state_with_notes() -> None:
    document = build_document(_target("compute.instances"), INSTANCES)
    text = _edit(document.text, 1, "label =", 'label = "mine"')
    plan = _ready(document, text)
    theirs = {**INSTANCES[0], "label": "theirs", "tags": ["db"], "updated": "2024-05-01T12:00"}
    current = {"1": theirs}
    merged = rebase(document, plan, current, find_conflicts(document, plan, current))
    entry = parse_toml(merged.text)["instance"][0]
    assert (entry["label"], entry["tags"]) == ("mine", ["db"])
    assert "# ! changed on the server while you edited: label" in merged.text
    assert "your value is kept below" in merged.text
    # Against the new baseline only my label is a change: their tags stay theirs.
    again = review_text(merged, merged.text)
    assert again.plan is not None
    assert [dict(r.body) for r in again.plan.requests] == [{"label": "mine"}]
