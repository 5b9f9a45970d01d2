"""The command palette's resource search: one hit per record, however many lists hold it."""

from __future__ import annotations

import pytest

from screens.details.resource_detail import ResourceDetailScreen
from screens.shell.palette import ResourceCommands, prefetch_for_palette
from tests.ui.actions.test_compute_ui import press_on_instance
from tests.ui.helpers import make_app, settle


async def test_a_volume_seen_in_two_lists_is_one_palette_hit() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        prefetch_for_palette(app)
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
            for (spec_id, _params), (_p, items) in app.state.resource_index.items()
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
        prefetch_for_palette(app)
        await settle(pilot)
        provider = ResourceCommands(app.screen)
        hits = [hit async for hit in provider.search("#production")]
        kinds = {str(hit.help).split(" · ")[0] for hit in hits}
        assert "cluster" in kinds and "instance" in kinds, kinds
        assert all("#production" in str(hit.help) for hit in hits)


async def test_the_palette_offers_the_other_accounts_and_switches_as_account_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import screens.accounts.switch as switch
    from screens.shell.palette import AccountCommands
    from tests.ui.accounts.test_account_mark_ui import profile_session
    from tests.ui.helpers import demo_session
    from tui.session.config import Profile

    profiles = {name: Profile(base_url="https://api.example.com/v4") for name in ("prod", "lab")}
    settings = demo_session().settings.model_copy(update={"profiles": profiles})
    app = make_app(profile_session("prod", settings))
    asked: list[str] = []
    monkeypatch.setattr(switch, "switch_account", lambda _app, name: asked.append(name))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        provider = AccountCommands(app.screen)
        found = [hit async for hit in provider.discover()]
        assert [hit.text for hit in found] == ["Switch to account lab"]  # not the one in use
        hits = [hit async for hit in provider.search("lab")]
        assert [hit.text for hit in hits] == ["Switch to account lab"]
        hits[0].command()
        assert asked == ["lab"]
