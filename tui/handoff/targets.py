"""The launch of each hand-off, from the API's records and the ``[handoff.*]`` settings.

* ``ssh``: an instance's address (public IPv4 first), user, port and options from the config.
* ``k9s``: a cluster, with ``KUBECONFIG`` set to its saved kubeconfig (written by the caller
  with :func:`tui.kubeconfig.write_private`, mode 0600); a shell when k9s is missing.
* ``mysql``: the client with ``--defaults-extra-file`` naming a 0600 ``[client]`` file that holds
  the user and password.
* ``mongosh``: a 0600 script that connects with the credentials and the CA certificate (0600).
* ``editor``: ``$VISUAL``/``$EDITOR`` on a file.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from tui.handoff.launch import HandoffError, Launch, find_program
from tui.handoff.settings import (
    EditorHandoff,
    K9sHandoff,
    MongoshHandoff,
    MysqlHandoff,
    SshHandoff,
)
from tui.untrusted import shown

PRIVATE_NETS = ("10.", "192.168.", *tuple(f"172.{n}." for n in range(16, 32)))

EDITORS = ("editor", "nano", "vi")
"""Tried in order when neither $VISUAL nor $EDITOR is set."""


def _is_private(address: str) -> bool:
    return address.startswith(PRIVATE_NETS)


def addresses(instance: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The instance's addresses as ``(kind, address)``: public IPv4, private IPv4, then IPv6."""
    v4 = [str(a) for a in instance.get("ipv4") or [] if a]
    out = [("public IPv4", a) for a in v4 if not _is_private(a)]
    out += [("private IPv4", a) for a in v4 if _is_private(a)]
    v6 = instance.get("ipv6")
    if isinstance(v6, str) and v6:
        out.append(("IPv6", v6.split("/")[0]))
    return out


def pick_address(instance: Mapping[str, Any], cfg: SshHandoff) -> str | None:
    """The address ``cfg.address`` names, or None when the user should choose (or none exists).

    Raises:
        HandoffError: The instance has no address of that kind (or none at all).
    """
    found = addresses(instance)
    if not found:
        raise HandoffError("the instance has no IP address yet")
    if cfg.address == "ask":
        return found[0][1] if len(found) == 1 else None
    wanted = {"public_ipv4": "public IPv4", "private_ipv4": "private IPv4", "ipv6": "IPv6"}
    for kind, address in found:
        if kind == wanted[cfg.address]:
            return address
    raise HandoffError(
        f"the instance has no {wanted[cfg.address]} address ([handoff.ssh] address); "
        "H chooses one of its addresses"
    )


def ssh_launch(instance: Mapping[str, Any], address: str, cfg: SshHandoff) -> Launch:
    """ssh to ``address`` of ``instance``."""
    values = {
        "host": address,
        "user": cfg.user,
        "port": str(cfg.port),
        "label": str(instance.get("label") or ""),
    }
    return Launch(
        title=shown(f"ssh {cfg.user}@{address}"),
        config="handoff.ssh",
        command=tuple(cfg.command),
        values=values,
        options=tuple(cfg.options),
    )


def k9s_launch(cluster: Mapping[str, Any], kubeconfig: str, cfg: K9sHandoff) -> Launch:
    """k9s (else the fallback) with ``KUBECONFIG`` set to the saved file ``kubeconfig``."""
    label = str(cluster.get("label") or cluster.get("id") or "cluster")
    return Launch(
        title=shown(f"k9s on {label}"),
        config="handoff.k9s",
        command=tuple(cfg.command),
        values={"kubeconfig": kubeconfig, "label": label},
        options=tuple(cfg.options),
        env={"KUBECONFIG": "{kubeconfig}"},
        fallback=tuple(cfg.fallback),
        hint="KUBECONFIG={kubeconfig} (kubectl uses it)",
    )


def _endpoint(db: Mapping[str, Any]) -> tuple[str, str]:
    hosts = db.get("hosts") if isinstance(db.get("hosts"), Mapping) else {}
    host = hosts.get("primary") if hosts else None
    if not host:
        status = db.get("status") or "unknown"
        raise HandoffError(f"the database has no primary host yet (status {status})")
    port = db.get("port")
    return str(host), str(port or "")


def _credentials(creds: Mapping[str, Any]) -> tuple[str, str]:
    user, password = creds.get("username"), creds.get("password")
    if not user or not password:
        raise HandoffError("the API returned no credentials for the database")
    return str(user), str(password)


def option_value(text: str) -> str:
    """A value for a MySQL option file: double-quoted, with backslash escapes."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return f'"{escaped}"'


def mysql_launch(db: Mapping[str, Any], creds: Mapping[str, Any], cfg: MysqlHandoff) -> Launch:
    """The MySQL client on the primary, the password in a 0600 ``[client]`` option file; TLS
    asked for (``tls_options``) when the database requires it (``ssl_connection``), since a
    client that does not offer it is refused."""
    host, port = _endpoint(db)
    options = list(cfg.options)
    if db.get("ssl_connection") is True:
        options += [o for o in cfg.tls_options if o not in options]
    user, password = _credentials(creds)
    defaults = (
        "# Written by cloudtui for one session; removed when the client exits.\n"
        f"[client]\nuser={option_value(user)}\npassword={option_value(password)}\n"
    )
    return Launch(
        title=shown(f"mysql {user}@{host}:{port}"),
        config="handoff.mysql",
        command=tuple(cfg.command),
        values={"host": host, "port": port, "user": user, "label": str(db.get("label") or "")},
        options=tuple(options),
        files={"defaults_file": defaults},
    )


def ca_pem(value: Any) -> str | None:
    """The CA certificate as PEM text from the API's value (PEM, or PEM in base64)."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.startswith("-----BEGIN"):
        return text + "\n"
    try:
        decoded = base64.b64decode(text, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        raise HandoffError("the API's CA certificate is neither PEM nor base64 PEM") from None
    return decoded if decoded.endswith("\n") else decoded + "\n"


def mongosh_launch(
    db: Mapping[str, Any],
    creds: Mapping[str, Any],
    ca_certificate: Any,
    cfg: MongoshHandoff,
) -> Launch:
    """mongosh running a 0600 script that connects (credentials, TLS with the API's CA)."""
    host, port = _endpoint(db)
    user, password = _credentials(creds)
    pem = ca_pem(ca_certificate)
    tls = db.get("ssl_connection") is not False or pem is not None
    files: dict[str, Any] = {}
    if pem is not None:
        files["ca_file"] = pem

    def script(paths: Mapping[str, str]) -> str:
        query = ["authSource=admin"]
        if tls:
            query.append("tls=true")
        if "ca_file" in paths:
            query.append("tlsCAFile=" + quote(paths["ca_file"], safe=""))
        uri = (
            f"mongodb://{quote(user, safe='')}:{quote(password, safe='')}@{host}"
            f"{':' + port if port else ''}/admin?{'&'.join(query)}"
        )
        return (
            "// Written by cloudtui for one session; removed when mongosh exits.\n"
            f"db = connect({json.dumps(uri)});\n"
        )

    files["connect_file"] = script
    return Launch(
        title=shown(f"mongosh {user}@{host}:{port}"),
        config="handoff.mongosh",
        command=tuple(cfg.command),
        values={"host": host, "port": port, "user": user, "label": str(db.get("label") or "")},
        options=tuple(cfg.options),
        files=files,
    )


@dataclass(frozen=True)
class EditorChoice:
    """Which editor a hand-off starts, and why that one.

    Attributes:
        source: ``config`` (``[handoff.editor] command``), ``VISUAL``, ``EDITOR`` or
            ``fallback`` (the first installed of :data:`EDITORS`).
        command: The argument templates, ``{file}`` included.
    """

    source: str
    command: tuple[str, ...]


def choose_editor(
    configured: Sequence[str], env: Mapping[str, str], installed: Callable[[str], object]
) -> EditorChoice | None:
    """The editor a hand-off starts: the config's command, else ``$VISUAL`` then ``$EDITOR``
    (split like a shell would, ``code --wait`` works), else the first installed of
    :data:`EDITORS`; None when nothing is set and none is installed.

    Args:
        configured: The config file's ``[handoff.editor] command`` (empty: not set).
        env: Environment variables.
        installed: Whether a program is installed (its path, or None).

    Raises:
        HandoffError: ``$VISUAL`` or ``$EDITOR`` cannot be split like a shell would.
    """
    if configured:
        command = tuple(configured)
        has_file = any("{file}" in a for a in command)
        return EditorChoice("config", command if has_file else (*command, "{file}"))
    for name in ("VISUAL", "EDITOR"):
        value = env.get(name, "").strip()
        if value:
            try:
                return EditorChoice(name, (*shlex.split(value), "{file}"))
            except ValueError:
                raise HandoffError(f"${name} cannot be parsed: {value}") from None
    for program in EDITORS:
        if installed(program):
            return EditorChoice("fallback", (program, "{file}"))
    return None


def editor_command(cfg: EditorHandoff, env: Mapping[str, str]) -> tuple[str, ...]:
    """The editor's argument templates (with ``{file}``), as :func:`choose_editor` picks them.

    Raises:
        HandoffError: Nothing is set and no editor is installed, or ``$VISUAL``/``$EDITOR``
            cannot be parsed.
    """
    choice = choose_editor(cfg.command, env, lambda program: find_program(program, env.get("PATH")))
    if choice is None:
        raise HandoffError("no editor found: set $VISUAL or $EDITOR (e.g. export EDITOR=nano)")
    return choice.command


def editor_launch(
    text: str, file_name: str, cfg: EditorHandoff, env: Mapping[str, str] | None = None
) -> Launch:
    """The editor on a 0600 file ``file_name`` holding ``text`` (read it back before the
    prepared block ends: the file is removed with its folder)."""
    command = editor_command(cfg, os.environ if env is None else env)
    safe = "".join(c if c.isalnum() or c in "._-" else "-" for c in file_name).strip(".") or "text"
    return Launch(
        title=shown(f"{os.path.basename(command[0])} {safe}"),
        config="handoff.editor",
        command=command,
        # A last line without its newline would merge with a line the user appends.
        files={"file": text if not text or text.endswith("\n") else text + "\n"},
        names={"file": safe},
    )
