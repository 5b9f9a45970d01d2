"""The ``[handoff.*]`` tables of the config file: which program each hand-off runs, and how.

Every command is a list of arguments (never a shell line). Placeholders in braces are filled in
when the hand-off starts; an argument that is exactly ``{options}`` is replaced by the table's
``options`` list. No placeholder ever yields a password: secrets reach the programs through
files only you can read (see :mod:`tui.handoff.launch`).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Table(BaseModel):
    # Read with the settings, before the first frame; nothing shows the fields' descriptions,
    # and extracting attribute docstrings (pydantic tokenizes each class's source) was ~20 ms
    # of every start. The docstrings below are documentation.
    model_config = ConfigDict(extra="forbid")


class SshHandoff(_Table):
    """``[handoff.ssh]``: ssh into an instance."""

    command: list[str] = Field(
        default_factory=lambda: ["ssh", "-p", "{port}", "{options}", "{user}@{host}"],
        min_length=1,
    )
    """Arguments; placeholders {host} {user} {port} {options} {label}."""
    user: str = Field("root", min_length=1)
    """Remote user."""
    port: int = Field(22, ge=1, le=65535)
    """Remote port."""
    options: list[str] = Field(default_factory=list)
    """Extra ssh options, e.g. ["-i", "~/.ssh/work", "-o", "ServerAliveInterval=30"]."""
    address: Literal["public_ipv4", "private_ipv4", "ipv6", "ask"] = "public_ipv4"
    """Which address ``h`` connects to: the first public IPv4, a private one, the IPv6, or ask
    when there are several (``H`` always asks)."""


class K9sHandoff(_Table):
    """``[handoff.k9s]``: a Kubernetes cluster, with KUBECONFIG set to its saved kubeconfig."""

    command: list[str] = Field(default_factory=lambda: ["k9s", "{options}"], min_length=1)
    """Arguments; placeholders {kubeconfig} {label} {options}."""
    fallback: list[str] = Field(default_factory=lambda: ["{shell}"])
    """Run when the command's program is missing ({shell} is $SHELL, else /bin/sh); kubectl
    works there because KUBECONFIG is set. Empty: no fallback."""
    options: list[str] = Field(default_factory=list)
    """Extra arguments, e.g. ["--readonly"]."""


class MysqlHandoff(_Table):
    """``[handoff.mysql]``: the MySQL client on a managed MySQL database."""

    command: list[str] = Field(
        default_factory=lambda: [
            "mysql",
            "--defaults-extra-file={defaults_file}",
            "--host={host}",
            "--port={port}",
            "{options}",
        ],
        min_length=1,
    )
    """Arguments; placeholders {defaults_file} (a [client] file holding user and password)
    {host} {port} {user} {label} {options}."""
    options: list[str] = Field(default_factory=list)
    """Extra arguments, e.g. a database name."""
    tls_options: list[str] = Field(default_factory=lambda: ["--ssl-mode=REQUIRED"])
    """Added to {options} when the database requires TLS (its ssl_connection is on); the
    MariaDB client wants ["--ssl"]. Empty: nothing is added (the client's own default)."""


class MongoshHandoff(_Table):
    """``[handoff.mongosh]``: mongosh on a managed MongoDB database."""

    command: list[str] = Field(
        default_factory=lambda: ["mongosh", "--nodb", "--shell", "{connect_file}", "{options}"],
        min_length=1,
    )
    """Arguments; placeholders {connect_file} (a script that connects with the credentials and
    the CA certificate) {ca_file} {host} {port} {user} {label} {options}."""
    options: list[str] = Field(default_factory=list)
    """Extra arguments."""


class EditorHandoff(_Table):
    """``[handoff.editor]``: the editor for scripts and zone files."""

    command: list[str] = Field(default_factory=list)
    """Arguments with {file}; empty: $VISUAL, else $EDITOR, else the first of editor, nano, vi."""


class HandoffSettings(_Table):
    """All hand-off tables."""

    ssh: SshHandoff = Field(default_factory=SshHandoff)
    """ssh into instances."""
    k9s: K9sHandoff = Field(default_factory=K9sHandoff)
    """k9s (or a shell) on clusters."""
    mysql: MysqlHandoff = Field(default_factory=MysqlHandoff)
    """The MySQL client."""
    mongosh: MongoshHandoff = Field(default_factory=MongoshHandoff)
    """The MongoDB shell."""
    editor: EditorHandoff = Field(default_factory=EditorHandoff)
    """The text editor."""
