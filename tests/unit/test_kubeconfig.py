"""Writing a kubeconfig: decoded, mode 0600, atomic, never over a file unasked."""

from __future__ import annotations

import base64
import stat
from pathlib import Path

import pytest

from tui.kubeconfig import KubeconfigError, decode_kubeconfig, default_path, write_private


def test_decodes_the_api_value() -> None:
    text = "apiVersion: v1\nkind: Config\n"
    assert decode_kubeconfig(base64.b64encode(text.encode()).decode()) == text


@pytest.mark.parametrize("value", [None, "", "not base64!", base64.b64encode(b"\xff\xfe").decode()])
def test_refuses_what_is_not_a_kubeconfig(value: object) -> None:
    with pytest.raises(KubeconfigError) as info:
        decode_kubeconfig(value)
    assert "not base64!" not in str(info.value)


def test_default_path_is_under_kube_with_a_safe_name(tmp_path: Path) -> None:
    assert default_path("shop prod/../x", home=tmp_path) == (
        tmp_path / ".kube" / "cloudtui-shop-prod-..-x.yaml"
    )
    assert default_path("///", home=tmp_path).name == "cloudtui-cluster.yaml"


def test_writes_private_file_in_a_private_new_folder(tmp_path: Path) -> None:
    target = tmp_path / "new" / "config.yaml"
    written = write_private(target, "secret: yes\n")
    assert written == target
    assert target.read_text() == "secret: yes\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700
    assert [p.name for p in target.parent.iterdir()] == ["config.yaml"]  # no temp file left


def test_existing_file_is_kept_unless_replacing(tmp_path: Path) -> None:
    target = tmp_path / "config.yaml"
    target.write_text("old")
    target.chmod(0o644)
    with pytest.raises(FileExistsError):
        write_private(target, "new")
    assert target.read_text() == "old"
    write_private(target, "new", overwrite=True)
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_unwritable_folder_raises_and_leaves_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    with pytest.raises(OSError):
        write_private(blocked / "config.yaml", "data")
