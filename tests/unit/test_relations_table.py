"""The relations and kinds tables agree with the endpoint registry, the models and the specs."""

from __future__ import annotations

import re

import pytest

from tui.api.endpoints import REGISTRY, endpoint
from tui.models.compute import Backup
from tui.relations.graph import Graph
from tui.relations.impact import BUILDERS, REPLACING, action_of
from tui.relations.kinds import BY_NAME, KINDS, Kind
from tui.relations.matchers import MATCHERS
from tui.relations.table import RELATIONS, Relation
from tui.resources.areas import SPECS

ENGINES = ("mysql", "mongodb")


def _names(template: str) -> list[str]:
    """An endpoint name with ``{engine}`` expanded over the engines."""
    return [template.format(engine=e) for e in ENGINES] if "{" in template else [template]


def _model_fields(kind: Kind) -> set[str]:
    """Fields of the model a kind's rows follow (its listing's or its view's item model)."""
    if kind.name == "compute.backups":
        # The listing is {automatic, snapshot}; its adapter makes rows of backups with a slot.
        return {*Backup.model_fields, "slot"}
    name = kind.listing or kind.view
    assert name is not None
    model = endpoint(_names(name)[0]).response_model()
    assert model is not None
    return set(model.model_fields)


def _first_field(path: str) -> str:
    return re.split(r"[.\[]", path.lstrip("^"), maxsplit=1)[0]


def _kind_read(kind: Kind, path: str) -> Kind:
    """The kind a path reads (``^`` climbs to the parent)."""
    while path.startswith("^"):
        assert kind.parent is not None, path
        kind, path = BY_NAME[kind.parent], path[1:]
    return kind


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_every_kind_is_a_spec_with_real_endpoints(kind: Kind) -> None:
    assert kind.name in SPECS  # a UI row naming the kind opens it with that spec
    spec = SPECS[kind.name]
    if kind.listing and kind.parent is None and kind.name != "databases":
        assert spec.list_endpoint == kind.listing
    for template in filter(None, (kind.listing, kind.view, kind.delete)):
        for name in _names(template):
            assert name in REGISTRY, name
    for template in filter(None, (kind.view, kind.delete)):
        for name in _names(template):
            assert REGISTRY[name].path in kind.path, name
    declared = {p for p, _path in kind.params}
    for template in kind.path:
        assert set(re.findall(r"\{(\w+)\}", template)) <= declared, template
    if kind.parent is not None:
        assert kind.parent in BY_NAME


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_kinds_read_fields_their_models_have(kind: Kind) -> None:
    for _param, path in kind.params:
        if not path.lstrip("^").startswith("@"):
            owner = _kind_read(kind, path)
            assert _first_field(path) in _model_fields(owner), (kind.name, path)
    for field in kind.identity:
        assert field in _model_fields(kind)
    if kind.nested_in:
        assert kind.parent is not None
        assert kind.nested_in in _model_fields(BY_NAME[kind.parent])


@pytest.mark.parametrize("relation", RELATIONS, ids=lambda r: r.name)
def test_relations_read_fields_their_models_have(relation: Relation) -> None:
    assert relation.match in MATCHERS
    for kind_name, paths in (
        (relation.source, relation.source_paths),
        (relation.target, relation.target_paths),
    ):
        kind = BY_NAME[kind_name]
        for path in paths:
            if path == "" or path.lstrip("^").startswith("@"):
                continue  # the row itself, or the object's own id
            assert _first_field(path) in _model_fields(_kind_read(kind, path)), (kind_name, path)
    for field, _values in relation.source_when:
        assert field in _model_fields(BY_NAME[relation.source])
    if MATCHERS[relation.match].structural:
        assert BY_NAME[relation.target].parent == relation.source


@pytest.mark.parametrize("relation", RELATIONS, ids=lambda r: r.name)
def test_effects_name_real_builders_and_endpoints(relation: Relation) -> None:
    for effect in (relation.if_source_deleted, relation.if_target_deleted):
        if effect is None:
            continue
        if effect.kind != "cascade":
            assert effect.one
        for cleanup in (effect.cleanup, effect.instead):
            if cleanup is not None:
                assert cleanup.builder in BUILDERS
                for name in _names(cleanup.endpoint):
                    assert name in REGISTRY, name


def test_a_family_shares_its_source_side() -> None:
    # The dangling check reads one family's sources once: they must be read the same way.
    families: dict[str, list[Relation]] = {}
    for relation in RELATIONS:
        families.setdefault(relation.family, []).append(relation)
    for members in families.values():
        sides = {
            (r.source, r.source_paths, MATCHERS[r.match].source_key, r.source_when) for r in members
        }
        assert len(sides) == 1, members


def test_relation_names_are_unique_and_the_graph_accepts_the_tables() -> None:
    assert len({r.name for r in RELATIONS}) == len(RELATIONS)
    assert len(Graph()) == 0


def test_deletes_and_recycles_are_actions_with_an_impact() -> None:
    assert action_of("compute.instances.delete") == ("delete", "compute.instances")
    assert action_of("databases.mongodb.delete") == ("delete", "databases")
    assert action_of("object_storage.keys.revoke") == ("delete", "object_storage.keys")
    assert action_of("loadbalancers.nodes.delete") == ("delete", "loadbalancers.nodes")
    assert action_of("k8s.pools.recycle") == ("replace", "k8s.pools")
    assert action_of("compute.instances.reboot") is None
    assert action_of("profile.apps.revoke") is None  # a DELETE of nothing the index holds
    assert action_of("no.such.endpoint") is None
    assert set(REPLACING.values()) <= set(BY_NAME)
