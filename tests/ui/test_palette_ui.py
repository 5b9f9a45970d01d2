"""The command palette's resource search: one hit per record, however many lists hold it."""

from __future__ import annotations

from screens.palette import ResourceCommands
from screens.resource_detail import ResourceDetailScreen
from tests.ui.helpers import make_app, settle
from tests.ui.test_compute_ui import press_on_instance


async def test_a_volume_seen_in_two_lists_is_one_palette_hit() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.prefetch_for_palette()
        await settle(pilot)
        # The instance's Volumes tab lists pg-data again, under its own spec.
        await press_on_instance(pilot, "db-primary", "enter")
        assert isinstance(app.screen, ResourceDetailScreen)
        app.screen.query_one(
            "#detail-tabs"
        ).active = "tab-child-3"  # Configs, Disks, Backups, Volumes
        await settle(pilot)
        holders = [
            spec_id
            for (spec_id, _params), (_p, items) in app.resource_index.items()
            if any(i.get("label") == "pg-data" for i in items.values())
        ]
        assert sorted(holders) == ["compute.volumes", "volumes"]

        provider = ResourceCommands(app.screen)
        hits = [hit async for hit in provider.search("pg-data")]
        assert [hit.text for hit in hits] == ["pg-data"]
        assert hits[0].help == "volume · Volumes"


async def test_a_tag_finds_every_kind_that_carries_it_clusters_included() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.prefetch_for_palette()
        await settle(pilot)
        provider = ResourceCommands(app.screen)
        hits = [hit async for hit in provider.search("#production")]
        kinds = {str(hit.help).split(" · ")[0] for hit in hits}
        assert "cluster" in kinds and "instance" in kinds, kinds
        assert all("#production" in str(hit.help) for hit in hits)
