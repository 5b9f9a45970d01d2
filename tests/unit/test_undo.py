"""Undo: the request that takes a change back, computed from the declaration and what was before."""

from __future__ import annotations

from tui.api.endpoints import REGISTRY
from tui.home.activity import ActivityEntry
from tui.home.undo import NOT_DECLARED, UndoJournal, UndoRequest, undo_request
from tui.resources.reversal import REVERSIBILITY, Reversal

INSTANCE = {"id": 7, "label": "web-1", "tags": ["prod"], "status": "running"}


def test_every_declaration_names_real_operations() -> None:
    for name, rule in REVERSIBILITY.items():
        assert name in REGISTRY, name
        if isinstance(rule, Reversal):
            assert REGISTRY[rule.endpoint].writes, rule.endpoint


def test_an_edit_is_undone_by_sending_back_the_fields_it_changed() -> None:
    undo = undo_request(
        "compute.instances.update", {"computeId": 7}, {"label": "web-2"}, INSTANCE, {}
    )
    assert undo == UndoRequest("compute.instances.update", {"computeId": 7}, {"label": "web-1"})
    assert (undo.method, undo.path) == ("PUT", "/compute/instances/7")


def test_a_detach_is_undone_by_attaching_to_the_instance_it_had() -> None:
    volume = {"id": 3, "label": "pg-data", "compute_id": 51200}
    undo = undo_request("volumes.detach", {"volumeId": 3}, None, volume, {})
    assert undo == UndoRequest("volumes.attach", {"volumeId": 3}, {"compute_id": 51200})
    assert undo_request("volumes.attach", {"volumeId": 3}, {"compute_id": 1}, volume, {}) == (
        UndoRequest("volumes.detach", {"volumeId": 3})
    )


def test_boot_and_shut_down_undo_each_other() -> None:
    params = {"computeId": 7}
    assert undo_request("compute.instances.boot", params, None, INSTANCE, None).endpoint == (  # type: ignore[union-attr]
        "compute.instances.shutdown"
    )
    assert undo_request("compute.instances.shutdown", params, None, INSTANCE, None).endpoint == (  # type: ignore[union-attr]
        "compute.instances.boot"
    )


def test_a_created_record_is_undone_by_deleting_the_id_the_answer_gave() -> None:
    undo = undo_request(
        "domains.records.create", {"domainId": 1}, {"type": "A"}, None, {"id": 99, "type": "A"}
    )
    assert undo == UndoRequest("domains.records.delete", {"domainId": 1, "recordId": 99})


def test_a_deleted_record_is_recreated_from_what_it_was() -> None:
    record = {"id": 5, "type": "A", "name": "www", "target": "192.0.2.1", "ttl_sec": 300}
    undo = undo_request(
        "domains.records.delete", {"domainId": 1, "recordId": 5}, None, record, None
    )
    assert isinstance(undo, UndoRequest)
    assert undo.endpoint == "domains.records.create"
    assert undo.body == {"type": "A", "name": "www", "target": "192.0.2.1", "ttl_sec": 300}


def test_irreversible_and_unknown_changes_say_why() -> None:
    why = undo_request("compute.instances.delete", {"computeId": 7}, None, INSTANCE, None)
    assert isinstance(why, str) and "deleted" in why
    assert undo_request("compute.instances.reboot", {"computeId": 7}, None, None, None) == (
        NOT_DECLARED
    )
    unknown = undo_request("compute.instances.update", {"computeId": 7}, {"label": "x"}, None, {})
    assert unknown == "what was there before is not known"


def entry(n: int) -> ActivityEntry:
    return ActivityEntry(time=float(n), session="s", method="PUT", path=f"/x/{n}")


def test_the_journal_undoes_the_last_reversible_group_once() -> None:
    journal = UndoJournal()
    first = journal.note(
        "Edit web-1",
        "compute.instances.update",
        {"computeId": 7},
        {"label": "a"},
        INSTANCE,
        {},
        entry=entry(1),
    )
    journal.note("Delete web-1", "compute.instances.delete", {"computeId": 7}, None, INSTANCE, None)
    assert journal.last_undoable() == [first]  # the delete after it cannot be undone
    assert journal.find(entry(1)) is first
    journal.mark_undone([first])
    assert journal.last_undoable() == []


def test_changes_sent_together_are_undone_together_last_first() -> None:
    journal = UndoJournal()
    group = journal.new_group()
    record = {"id": 5, "type": "A", "name": "www", "target": "192.0.2.1"}
    journal.note(
        "Zone",
        "domains.records.update",
        {"domainId": 1, "recordId": 5},
        {"target": "192.0.2.9"},
        record,
        {},
        group=group,
    )
    journal.note(
        "Zone",
        "domains.records.create",
        {"domainId": 1},
        {"type": "A"},
        None,
        {"id": 6},
        group=group,
    )
    requests = journal.requests(journal.last_undoable())
    assert [r.endpoint for r in requests] == ["domains.records.delete", "domains.records.update"]
    assert requests[1].body == {"target": "192.0.2.1"}


def test_an_undo_request_names_its_object_by_label_and_id() -> None:
    journal = UndoJournal()
    entry = ActivityEntry(0.0, "s", "POST", "/compute/instances/7/shutdown", target="web-1")
    change = journal.note(
        "Shut down instance web-1",
        "compute.instances.shutdown",
        {"computeId": 7},
        None,
        INSTANCE,
        {},
        entry=entry,
    )
    assert change.undo is not None and change.undo.label == "web-1"
    assert change.undo.line() == "POST /compute/instances/7/boot · web-1"


def test_the_label_comes_from_the_answer_or_the_item_when_the_log_has_none() -> None:
    from tui.home.undo import change_label

    created = {"id": 99, "type": "A", "name": "www"}
    assert change_label(None, created) == "www"
    assert change_label({"id": 3, "domain": "example.com"}, {}) == "example.com"
    assert change_label({"id": 3}, None) == ""
    undo = undo_request(
        "domains.records.create", {"domainId": 1}, {"type": "A"}, None, created, "www"
    )
    assert isinstance(undo, UndoRequest)
    assert undo.line() == "DELETE /domains/1/records/99 · www"


def test_the_undo_preview_shows_labels_bodies_and_no_secret() -> None:
    from tui.home.undo import undo_preview

    requests = [
        UndoRequest("compute.instances.update", {"computeId": 7}, {"label": "web-1"}, "web-2"),
        UndoRequest("domains.records.delete", {"domainId": 1, "recordId": 5}, None, "\x1b]52;evil"),
        UndoRequest("profile.update", {}, {"root_pass": "hunter2-secret"}, "demo"),
    ]
    text = undo_preview(requests)
    assert text.splitlines()[0] == "PUT /compute/instances/7 · web-2"
    assert '"label": "web-1"' in text
    assert "DELETE /domains/1/records/5 · ␛]52;evil" in text  # shown, never obeyed
    assert "hunter2-secret" not in text
