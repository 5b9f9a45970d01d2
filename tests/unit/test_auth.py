"""Token resolution and storage with the keyring present, absent and failing."""

from __future__ import annotations

import os
import stat

import keyring
import keyring.errors
import pytest
from keyring.backends import fail
from pydantic import SecretStr

from tests.conftest import MemoryKeyring
from tui.session.auth import (
    KEYRING_SERVICE,
    KeyringUnavailable,
    TokenSource,
    delete_token,
    keyring_problem,
    resolve_token,
    store_token,
    token_file,
)
from tui.session.config import config_path


class BrokenKeyring(MemoryKeyring):
    """A backend that exists but refuses every call (locked collection, D-Bus errors ...)."""

    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.InitError("locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.PasswordSetError("locked")

    def delete_password(self, service: str, username: str) -> None:
        raise RuntimeError("no bus")


def test_env_var_wins(isolated_home: MemoryKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    isolated_home.set_password(KEYRING_SERVICE, "default", "from-keyring")
    monkeypatch.setenv("CLOUDTUI_TOKEN", "from-env")
    resolved = resolve_token("default")
    assert resolved.token is not None
    assert resolved.token.get_secret_value() == "from-env"
    assert resolved.source == TokenSource.ENV


def test_keyring_present_store_resolve_delete(isolated_home: MemoryKeyring) -> None:
    assert store_token("work", SecretStr("abc"), TokenSource.KEYRING) == TokenSource.KEYRING
    assert isolated_home.entries == {(KEYRING_SERVICE, "work"): "abc"}
    resolved = resolve_token("work")
    assert resolved.token is not None and resolved.token.get_secret_value() == "abc"
    assert resolved.source == TokenSource.KEYRING
    assert resolve_token("other").token is None
    assert delete_token("work") == [TokenSource.KEYRING]
    assert resolve_token("work").source == TokenSource.NONE


def test_keyring_absent_is_explained_and_file_store_is_explicit() -> None:
    keyring.set_keyring(fail.Keyring())
    assert keyring_problem() == "no keyring backend is available"
    resolved = resolve_token("default")
    assert resolved.token is None
    assert resolved.keyring_problem
    with pytest.raises(KeyringUnavailable) as info:
        store_token("default", SecretStr("tok"), TokenSource.KEYRING)
    assert "session" in str(info.value) and "file" in str(info.value)
    assert "tok" not in str(info.value).split()
    assert not token_file().exists()
    store_token("default", SecretStr("tok"), TokenSource.FILE)
    mode = stat.S_IMODE(os.stat(token_file()).st_mode)
    assert mode == 0o600
    resolved = resolve_token("default")
    assert resolved.source == TokenSource.FILE
    assert resolved.token is not None and resolved.token.get_secret_value() == "tok"
    assert delete_token("default") == [TokenSource.FILE]


def test_keyring_failing_never_raises() -> None:
    keyring.set_keyring(BrokenKeyring())
    resolved = resolve_token("default")
    assert resolved.token is None
    assert resolved.keyring_problem and "InitError" in resolved.keyring_problem
    with pytest.raises(KeyringUnavailable):
        store_token("default", SecretStr("tok"), TokenSource.KEYRING)
    assert delete_token("default") == []


def test_session_only_writes_nothing() -> None:
    assert store_token("default", SecretStr("tok"), TokenSource.SESSION) == TokenSource.SESSION
    assert not token_file().exists()
    assert not config_path().exists()


def test_token_is_never_in_the_config_file(isolated_home: MemoryKeyring) -> None:
    from tui.session.config import Profile, Settings, save_settings

    store_token("default", SecretStr("very-secret"), TokenSource.KEYRING)
    save_settings(Settings(profiles={"default": Profile(base_url="https://a.test/v4")}))
    assert "very-secret" not in config_path().read_text()
