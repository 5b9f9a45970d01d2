"""Hand-offs from the app to ssh, k9s, mysql and mongosh (fake programs on PATH).

The pilot's app is headless, so the hand-off runs the program without suspending (the tmux
e2e covers the real suspension); everything else is the real path: spec action, fetches,
secret files, environment, and the app coming back to the same screen.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest

from screens.editors.handoff import AddressModal
from tests.ui.details.test_resource_detail import open_item
from tests.ui.fake_tools import leftovers, make_fake, record
from tests.ui.helpers import make_app, open_area, settle, started, wait_for_screen


@pytest.fixture
def fakes(
    fake_bin: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    """``fake_bin``, with HOME the test's own and ``$SHELL`` a fake."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SHELL", str(fake_bin[0] / "fake-shell"))
    return fake_bin


async def test_ssh_goes_to_the_public_ipv4_as_root_and_comes_back_to_the_list(
    fakes: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "ssh", log_dir)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        pane = await open_area(pilot, "instances")
        assert pane.table.move_cursor("51201")
        screen = app.screen
        log = app.state.session.simulator.request_log
        listed = log.count("compute.instances.list")
        await pilot.press("h")
        await settle(pilot)
        seen = record(log_dir, "ssh")
        assert seen["argv"][1:] == ["-p", "22", "root@192.0.2.2"]
        assert "CLOUDTUI_TOKEN" not in seen["env"]
        assert app.screen is screen and pane.current_item["id"] == 51201
        assert pane.table.has_focus
        assert log.count("compute.instances.list") > listed  # refreshed after coming back


async def test_ssh_user_port_options_come_from_the_config_and_h_shift_asks_which_address(
    fakes: tuple[Path, Path],
) -> None:
    from tests.ui.helpers import demo_session
    from tui.handoff.settings import HandoffSettings, SshHandoff

    bin_dir, log_dir = fakes
    make_fake(bin_dir, "ssh", log_dir)
    ssh = SshHandoff(user="deploy", port=2222, options=["-o", "ServerAliveInterval=30"])
    app = make_app(demo_session(handoff=HandoffSettings(ssh=ssh)))
    async with started(app, (120, 40), handoffs=True) as pilot:
        pane = await open_area(pilot, "instances")
        assert pane.table.move_cursor("51201")
        await pilot.press("H")
        modal = await wait_for_screen(pilot, AddressModal)
        assert [a for _k, a in modal.choices][:2] == ["192.0.2.2", "192.168.128.2"]
        await pilot.press("down", "enter")  # the private address
        await settle(pilot)
        assert not isinstance(app.screen, AddressModal)
        argv = record(log_dir, "ssh")["argv"][1:]
        assert argv == ["-p", "2222", "-o", "ServerAliveInterval=30", "deploy@192.168.128.2"]


async def test_a_missing_ssh_is_named_with_its_debian_package(fakes: tuple[Path, Path]) -> None:
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        pane = await open_area(pilot, "instances")
        assert pane.table.move_cursor("51201")
        screen = app.screen
        await pilot.press("h")
        await settle(pilot)
        messages = [str(n.message) for n in app._notifications]
        assert any("ssh is not installed (Debian package openssh-client)" in m for m in messages)
        assert app.screen is screen


async def test_k9s_runs_with_kubeconfig_saved_privately(
    fakes: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "k9s", log_dir)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        pane = await open_area(pilot, "k8s")
        assert pane.table.move_cursor("9100")
        screen = app.screen
        await pilot.press("h")
        await settle(pilot)
        assert app.screen is screen and pane.current_item["id"] == 9100
        seen = record(log_dir, "k9s")
        saved = tmp_path / "home" / ".kube" / "cloudtui-shop-prod.yaml"
        assert seen["env"]["KUBECONFIG"] == str(saved)
        assert seen["files"][str(saved)]["mode"] == 0o600
        assert "clusters:" in seen["files"][str(saved)]["text"]
        assert stat.S_IMODE(saved.stat().st_mode) == 0o600  # the saved kubeconfig stays


async def test_k9s_works_from_every_tab_of_a_cluster(fakes: tuple[Path, Path]) -> None:
    from screens.lists.pane import RefreshingPane

    bin_dir, log_dir = fakes
    make_fake(bin_dir, "k9s", log_dir)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        screen = await open_item(pilot, "k8s", "9100")
        tabs = screen.query_one("#detail-tabs")
        for index, _child in enumerate(screen.resource.children):
            tabs.active = f"tab-child-{index}"  # type: ignore[attr-defined]
            await settle(pilot)
            pane = screen.query_one(f"#child-{index}", RefreshingPane)
            pane.focus_main()
            await pilot.pause()
            assert screen._in_child_pane()
            ran = log_dir / "k9s.json"
            ran.unlink(missing_ok=True)
            await pilot.press("h")
            await settle(pilot)
            assert app.screen is screen
            assert ran.exists(), f"h did not run k9s from the {pane.spec.id} tab"
        # A child's own key still wins over the parent's: delete in Pools deletes a pool.
        assert screen.check_action("run_action", ("k8s.delete",)) is False


async def test_without_k9s_a_shell_runs_with_kubeconfig_and_the_user_is_told(
    fakes: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "fake-shell", log_dir)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        pane = await open_area(pilot, "k8s")
        assert pane.table.move_cursor("9100")
        await pilot.press("h")
        await settle(pilot)
        seen = record(log_dir, "fake-shell")
        assert seen["env"]["KUBECONFIG"].endswith("cloudtui-shop-prod.yaml")
        messages = [str(n.message) for n in app._notifications]
        assert any("k9s is not installed" in m and "fake-shell" in m for m in messages)


async def _database_client(pilot: Any, db_id: str, client: str, log_dir: Path) -> dict[str, Any]:
    screen = await open_item(pilot, "databases", db_id)
    answer = await pilot.app.state.session.client.call(
        f"databases.{screen.resource.id.split('.')[1]}.credentials.view",
        {"instanceId": int(db_id)},
        model=dict,
    )
    await pilot.press("h")
    await settle(pilot)
    assert pilot.app.screen is screen  # back on the same screen
    seen = record(log_dir, client)
    seen["password"] = answer["password"]
    seen["user"] = answer["username"]
    seen["item"] = screen.item
    return seen


def _no_secret_outside_files(seen: dict[str, Any]) -> None:
    password = seen["password"]
    assert password and all(password not in arg for arg in seen["argv"])
    assert all(password not in value for value in seen["env"].values())


async def test_mysql_gets_the_password_from_a_private_option_file_removed_afterwards(
    fakes: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "mysql", log_dir)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        seen = await _database_client(pilot, "4100", "mysql", log_dir)
    _no_secret_outside_files(seen)
    argv = seen["argv"]
    assert argv[1].startswith("--defaults-extra-file=")  # must be the first option
    defaults = seen["files"][argv[1].split("=", 1)[1]]
    assert defaults["mode"] == 0o600 and defaults["folder_mode"] == 0o700
    assert f'password="{seen["password"]}"' in defaults["text"]
    assert f'user="{seen["user"]}"' in defaults["text"]
    assert f"--host={seen['item']['hosts']['primary']}" in argv
    assert f"--port={seen['item']['port']}" in argv
    assert leftovers(tmp_path) == []


async def test_mongosh_connects_through_a_private_script_with_the_ca_certificate(
    fakes: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "mongosh", log_dir)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        seen = await _database_client(pilot, "4101", "mongosh", log_dir)
    _no_secret_outside_files(seen)
    argv = seen["argv"]
    assert argv[1:3] == ["--nodb", "--shell"]
    script = seen["files"][argv[3]]
    assert script["mode"] == 0o600
    assert seen["item"]["hosts"]["primary"] in script["text"]
    cas = [f for f in seen["files"].values() if f["text"].startswith("-----BEGIN CERTIFICATE")]
    assert len(cas) == 1 and cas[0]["mode"] == 0o600
    assert "tlsCAFile=" in script["text"]
    assert leftovers(tmp_path) == []


async def test_files_are_removed_when_the_client_fails(
    fakes: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "mysql", log_dir, status=1)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        await open_item(pilot, "databases", "4100")
        await pilot.press("h")
        await settle(pilot)
        messages = [str(n.message) for n in app._notifications]
        assert any("exited with status 1" in m for m in messages)
    assert record(log_dir, "mysql")["files"]
    assert leftovers(tmp_path) == []


async def test_a_headless_app_without_a_runner_runs_nothing(fakes: tuple[Path, Path]) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "ssh", log_dir)
    app = make_app()  # no handoff_runner: there is no terminal to give away
    async with started(app, (120, 40)) as pilot:
        pane = await open_area(pilot, "instances")
        assert pane.table.move_cursor("51201")
        await pilot.press("h")
        await settle(pilot)
        messages = [str(n.message) for n in app._notifications]
        assert any("no terminal to hand over" in m for m in messages)
    assert not (log_dir / "ssh.json").exists()


async def test_h_on_the_list_of_all_databases_runs_the_rows_engine_client(
    fakes: tuple[Path, Path], tmp_path: Path
) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "mongosh", log_dir)
    make_fake(bin_dir, "mysql", log_dir)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        pane = await open_area(pilot, "databases")
        assert pane.spec.id == "databases"
        assert pane.table.move_cursor("4101")  # MongoDB
        await pilot.press("h")
        await settle(pilot)
        assert record(log_dir, "mongosh")["argv"][1:3] == ["--nodb", "--shell"]
        assert not (log_dir / "mysql.json").exists()
        assert pane.current_item["id"] == 4101
    assert leftovers(tmp_path) == []


async def test_escape_on_the_address_choice_runs_nothing(fakes: tuple[Path, Path]) -> None:
    bin_dir, log_dir = fakes
    make_fake(bin_dir, "ssh", log_dir)
    app = make_app()
    async with started(app, (120, 40), handoffs=True) as pilot:
        pane = await open_area(pilot, "instances")
        assert pane.table.move_cursor("51201")
        screen = app.screen
        await pilot.press("H")
        await wait_for_screen(pilot, AddressModal)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
    assert not (log_dir / "ssh.json").exists()
