"""``#tag`` over every loaded list finds tagged items of every kind, clusters included."""

from __future__ import annotations

from tui.resources.areas import SPECS
from tui.resources.tag_search import tag_query, tagged

CLUSTERS = SPECS["k8s.clusters"]
INSTANCES = SPECS["compute.instances"]
VOLUMES = SPECS["volumes"]


def test_a_tag_finds_clusters_and_instances_alike() -> None:
    lists = [
        (INSTANCES, {}, [{"id": 1, "label": "web-1", "tags": ["production"]}, {"id": 2}]),
        (CLUSTERS, {}, [{"id": 7, "label": "shop-prod", "tags": ["Production", "shop"]}]),
    ]
    hits = tagged(lists, "#production")
    assert [(h.spec.id, h.text) for h in hits] == [
        ("compute.instances", "web-1"),
        ("k8s.clusters", "shop-prod"),
    ]
    assert hits[1].help == "cluster · #Production #shop"
    assert [h.text for h in tagged(lists, "#prod*")] == ["web-1", "shop-prod"]
    assert [h.text for h in tagged(lists, "#production !#shop")] == ["web-1"]


def test_only_tag_terms_make_a_tag_search() -> None:
    assert tag_query("#web") is not None and tag_query("!#web") is not None
    assert tag_query("web") is None and tag_query("#web label:x") is None
    assert tagged([(INSTANCES, {}, [{"id": 1, "label": "web", "tags": ["web"]}])], "web") == []


def test_one_item_listed_in_two_places_is_one_hit() -> None:
    volume = {"id": 3, "label": "pg-data", "tags": ["db"]}
    instance_volumes = SPECS["compute.volumes"]
    hits = tagged([(VOLUMES, {}, [volume]), (instance_volumes, {"computeId": 1}, [volume])], "#db")
    assert len(hits) == 1


def test_labels_are_display_text() -> None:
    hits = tagged([(INSTANCES, {}, [{"id": 1, "label": "\x1b[2Jx", "tags": ["t"]}])], "#t")
    assert hits[0].text == "␛[2Jx"
