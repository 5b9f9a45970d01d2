"""Dialogs name records by type, label and parent, read from the specs."""

from __future__ import annotations

from tui.resources.areas import SPECS
from tui.resources.naming import action_title, describe


def _action(spec_id: str, action_id: str):  # type: ignore[no-untyped-def]
    action = SPECS[spec_id].action(action_id)
    assert action is not None
    return action


def test_an_item_is_named_by_type_and_quoted_label() -> None:
    volumes = SPECS["volumes"]
    item = {"id": 46000, "label": "pg-data"}
    assert describe(volumes, item) == 'volume "pg-data"'
    assert action_title(_action("volumes", "volumes.delete"), volumes, item) == (
        'Delete volume "pg-data"'
    )


def test_a_child_record_names_its_parent() -> None:
    configs, instances = SPECS["compute.configs"], SPECS["compute.instances"]
    config = {"id": 7, "label": "My config"}
    parent = (instances, {"id": 1, "label": "web-1"})
    delete = _action("compute.configs", "compute.config_delete")
    assert action_title(delete, configs, config, parent) == (
        'Delete config "My config" of instance "web-1"'
    )
    create = _action("compute.configs", "compute.config_create")
    assert action_title(create, configs, None, parent) == 'New config of instance "web-1"'


def test_a_record_without_a_name_is_named_by_its_fallback_fields_not_its_id() -> None:
    records, domains = SPECS["domains.records"], SPECS["domains"]
    apex = {"id": 8630034, "name": "", "type": "MX", "target": "mail.example.com"}
    parent = (domains, {"id": 1, "domain": "example.com"})
    delete = _action("domains.records", "domains.record_delete")
    assert action_title(delete, records, apex, parent) == (
        'Delete record "MX mail.example.com" of domain "example.com"'
    )


def test_an_action_that_names_the_type_is_not_repeated() -> None:
    ssl = SPECS["object_storage.ssl"]
    delete = next(a for a in ssl.actions if a.label == "Delete certificate")
    assert action_title(delete, ssl, {"label": ""}) == "Delete certificate"
