"""The headless half of hand-offs: templates, secret files, missing programs, each target."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tui.handoff.launch import HandoffError, Launch, MissingProgram, prepared
from tui.handoff.settings import (
    EditorHandoff,
    K9sHandoff,
    MongoshHandoff,
    MysqlHandoff,
    SshHandoff,
)
from tui.handoff.targets import (
    addresses,
    ca_pem,
    editor_command,
    editor_launch,
    k9s_launch,
    mongosh_launch,
    mysql_launch,
    option_value,
    pick_address,
    ssh_launch,
)
from tui.session.config import load_settings

INSTANCE = {"label": "web-1", "ipv4": ["192.168.130.4", "192.0.2.9"], "ipv6": "2001:db8::9/128"}
DB = {"label": "orders", "hosts": {"primary": "db-primary.example"}, "port": 3306}
CREDS = {"username": "root", "password": 'p"a ss\\w$rd'}


def shown(argv: list[str]) -> list[str]:
    """Argv with the program by name (it runs by the absolute path that was found)."""
    assert os.path.isabs(argv[0])
    return [os.path.basename(argv[0]), *argv[1:]]


@pytest.fixture
def path_with(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Make executables named as given in a folder and return an environment using it."""

    def make(*names: str) -> dict[str, str]:
        folder = tmp_path / "bin"
        folder.mkdir(exist_ok=True)
        for name in names:
            exe = folder / name
            exe.write_text("#!/bin/sh\n")
            exe.chmod(0o755)
        return {"PATH": str(folder), "SHELL": str(folder / "myshell"), "CLOUDTUI_TOKEN": "tok"}

    return make


def test_ssh_defaults_root_port_22_to_the_public_ipv4(path_with) -> None:  # type: ignore[no-untyped-def]
    cfg = SshHandoff()
    address = pick_address(INSTANCE, cfg)
    assert address == "192.0.2.9"
    with prepared(ssh_launch(INSTANCE, address, cfg), path_with("ssh")) as prep:
        assert shown(prep.argv) == ["ssh", "-p", "22", "root@192.0.2.9"]
        assert "CLOUDTUI_TOKEN" not in prep.env  # the API token never reaches the program


def test_ssh_options_are_spliced_and_addresses_ordered(path_with) -> None:  # type: ignore[no-untyped-def]
    cfg = SshHandoff(user="ops", port=2200, options=["-i", "~/.ssh/work"], address="ipv6")
    assert addresses(INSTANCE) == [
        ("public IPv4", "192.0.2.9"),
        ("private IPv4", "192.168.130.4"),
        ("IPv6", "2001:db8::9"),
    ]
    address = pick_address(INSTANCE, cfg)
    with prepared(ssh_launch(INSTANCE, str(address), cfg), path_with("ssh")) as prep:
        key = os.path.expanduser("~/.ssh/work")
        assert shown(prep.argv) == ["ssh", "-p", "2200", "-i", key, "ops@2001:db8::9"]


def test_ask_means_choose_when_there_are_several_addresses() -> None:
    assert pick_address(INSTANCE, SshHandoff(address="ask")) is None
    assert pick_address({"ipv4": ["192.0.2.1"]}, SshHandoff(address="ask")) == "192.0.2.1"
    with pytest.raises(HandoffError, match="no IP address"):
        pick_address({"ipv4": []}, SshHandoff())
    with pytest.raises(HandoffError, match="no private IPv4"):
        pick_address({"ipv4": ["192.0.2.1"]}, SshHandoff(address="private_ipv4"))


def test_a_missing_program_is_named_with_its_debian_package(path_with) -> None:  # type: ignore[no-untyped-def]
    launch = ssh_launch(INSTANCE, "192.0.2.9", SshHandoff())
    with pytest.raises(MissingProgram) as caught, prepared(launch, path_with()):
        pass
    assert str(caught.value) == "ssh is not installed (Debian package openssh-client)."


def test_k9s_falls_back_to_the_shell_with_kubeconfig_and_says_so(path_with) -> None:  # type: ignore[no-untyped-def]
    launch = k9s_launch({"label": "prod"}, "/home/u/.kube/cloudtui-prod.yaml", K9sHandoff())
    with prepared(launch, path_with("myshell")) as prep:
        assert prep.argv == [prep.env["SHELL"]]
        assert prep.env["KUBECONFIG"] == "/home/u/.kube/cloudtui-prod.yaml"
        assert prep.fallback and "k9s is not installed" in prep.notice
    with prepared(launch, path_with("k9s")) as prep:
        assert shown(prep.argv) == ["k9s"] and not prep.fallback
    strict = k9s_launch({"label": "prod"}, "/k.yaml", K9sHandoff(fallback=[]))
    with pytest.raises(MissingProgram, match="k9s"), prepared(strict, {"PATH": "/nowhere"}):
        pass


def test_mysql_password_only_in_a_private_file_removed_afterwards(
    path_with, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    launch = mysql_launch(DB, CREDS, MysqlHandoff(options=["--ssl-mode=REQUIRED"]))
    with prepared(launch, path_with("mysql"), tmp_root=tmp_path) as prep:
        defaults = Path(prep.files["defaults_file"])
        assert shown(prep.argv) == [
            "mysql",
            f"--defaults-extra-file={defaults}",
            "--host=db-primary.example",
            "--port=3306",
            "--ssl-mode=REQUIRED",
        ]
        assert stat.S_IMODE(defaults.stat().st_mode) == 0o600
        assert stat.S_IMODE(defaults.parent.stat().st_mode) == 0o700
        assert 'password="p\\"a ss\\\\w$rd"' in defaults.read_text()
        assert all(CREDS["password"] not in a for a in prep.argv)
        assert all(CREDS["password"] not in v for v in prep.env.values())
        folder = defaults.parent
    assert not folder.exists()


def test_mysql_asks_for_tls_through_the_configured_option_when_the_database_requires_it(
    path_with,
) -> None:  # type: ignore[no-untyped-def]
    env = path_with("mysql")
    required = {**DB, "ssl_connection": True}
    with prepared(mysql_launch(required, CREDS, MysqlHandoff()), env) as prep:
        assert prep.argv[-1] == "--ssl-mode=REQUIRED"
    mariadb = MysqlHandoff(tls_options=["--ssl"], options=["orders"])
    with prepared(mysql_launch(required, CREDS, mariadb), env) as prep:
        assert shown(prep.argv)[-2:] == ["orders", "--ssl"]
    plain = {**DB, "ssl_connection": False}
    with prepared(mysql_launch(plain, CREDS, MysqlHandoff()), env) as prep:
        assert not any(a.startswith("--ssl") for a in prep.argv)


def test_files_are_removed_when_the_block_fails(path_with, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    launch = mysql_launch(DB, CREDS, MysqlHandoff())
    with pytest.raises(RuntimeError), prepared(launch, path_with("mysql"), tmp_root=tmp_path):
        raise RuntimeError("the program could not run")
    assert list(tmp_path.glob("cloudtui-*")) == []


def test_option_values_are_quoted() -> None:
    assert option_value('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'


def test_mongosh_connects_from_a_private_script_with_the_ca_file(path_with) -> None:  # type: ignore[no-untyped-def]
    db = {**DB, "port": 27017, "ssl_connection": True}
    pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"
    launch = mongosh_launch(db, {"username": "admin", "password": "s@c/ret"}, pem, MongoshHandoff())
    with prepared(launch, path_with("mongosh")) as prep:
        script = Path(prep.files["connect_file"])
        ca = Path(prep.files["ca_file"])
        assert shown(prep.argv) == ["mongosh", "--nodb", "--shell", str(script)]
        text = script.read_text()
        assert "mongodb://admin:s%40c%2Fret@db-primary.example:27017/admin?" in text
        assert "tls=true" in text and "tlsCAFile=" + str(ca).replace("/", "%2F") in text
        assert ca.read_text() == pem + "\n"
        assert {stat.S_IMODE(p.stat().st_mode) for p in (script, ca)} == {0o600}
        assert all("s@c/ret" not in a and "s%40c" not in a for a in prep.argv)


def test_ca_certificate_may_come_base64_encoded() -> None:
    import base64

    pem = "-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----\n"
    assert ca_pem(base64.b64encode(pem.encode()).decode()) == pem
    assert ca_pem(None) is None
    with pytest.raises(HandoffError, match="neither PEM"):
        ca_pem("not a certificate")


def test_a_database_without_host_or_credentials_cannot_be_reached() -> None:
    with pytest.raises(HandoffError, match="no primary host yet \\(status provisioning\\)"):
        mysql_launch({"status": "provisioning", "hosts": None}, CREDS, MysqlHandoff())
    with pytest.raises(HandoffError, match="no credentials"):
        mysql_launch(DB, {"username": "root"}, MysqlHandoff())


def test_unknown_placeholders_name_the_config_table(path_with) -> None:  # type: ignore[no-untyped-def]
    cfg = SshHandoff(command=["ssh", "{password}", "{host}"])
    launch = ssh_launch(INSTANCE, "192.0.2.9", cfg)
    unknown = r"\[handoff.ssh\] uses \{password\}"
    with pytest.raises(HandoffError, match=unknown), prepared(launch, path_with("ssh")):
        pass


def test_editor_is_visual_then_editor_then_an_installed_one(path_with) -> None:  # type: ignore[no-untyped-def]
    env = path_with("nano")
    assert editor_command(EditorHandoff(), {**env, "VISUAL": "code --wait", "EDITOR": "vi"}) == (
        "code",
        "--wait",
        "{file}",
    )
    assert editor_command(EditorHandoff(), {**env, "EDITOR": "vim"}) == ("vim", "{file}")
    assert editor_command(EditorHandoff(), env) == ("nano", "{file}")
    assert editor_command(EditorHandoff(command=["micro"]), env) == ("micro", "{file}")
    with pytest.raises(HandoffError, match="set \\$VISUAL or \\$EDITOR"):
        editor_command(EditorHandoff(), {"PATH": "/nowhere"})


def test_the_editor_gets_a_private_named_file(path_with) -> None:  # type: ignore[no-untyped-def]
    env = path_with("nano")
    launch = editor_launch("#!/bin/sh\n", "my script/x.sh", EditorHandoff(), env)
    with prepared(launch, env) as prep:
        path = Path(prep.argv[-1])
        assert path.name == "my-script-x.sh" and path.read_text() == "#!/bin/sh\n"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not path.exists()


def test_a_file_handed_to_the_editor_ends_with_a_newline(path_with) -> None:  # type: ignore[no-untyped-def]
    env = path_with("nano")
    cfg = EditorHandoff()
    assert editor_launch("echo hi", "x.sh", cfg, env).files["file"] == "echo hi\n"
    assert editor_launch("echo hi\n", "x.sh", cfg, env).files["file"] == "echo hi\n"
    assert editor_launch("", "x.sh", cfg, env).files["file"] == ""


def test_handoff_tables_load_from_the_config_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[handoff.ssh]\nuser = "admin"\nport = 2222\noptions = ["-A"]\n'
        '[handoff.k9s]\ncommand = ["k9s", "--readonly"]\n'
    )
    settings = load_settings(config)
    assert settings.handoff.ssh.user == "admin" and settings.handoff.ssh.port == 2222
    assert settings.handoff.k9s.command == ["k9s", "--readonly"]
    assert settings.handoff.mysql.command[0] == "mysql"
    config.write_text("[handoff.ssh]\nprot = 22\n")
    (unknown,) = load_settings(config).unknown_keys
    assert unknown.message().startswith("line 2: unknown setting handoff.ssh.prot")
    assert unknown.nearest == "port"


def test_a_launch_without_program_is_refused() -> None:
    with pytest.raises(MissingProgram), prepared(Launch("x", "handoff.x", ("",)), {"PATH": ""}):
        pass
