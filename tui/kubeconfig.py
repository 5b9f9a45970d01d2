"""A cluster's kubeconfig as a file kubectl can use: decoded, and readable by its owner only.

The API hands the kubeconfig out base64-encoded. Over SSH the clipboard is not always an
option, so the UI writes it where kubectl looks for it; the file holds the cluster's
credentials, so it is created with mode 0600 (in a folder created 0700) and replaced
atomically, never left half-written.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import re
import tempfile
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


class KubeconfigError(ValueError):
    """The API's kubeconfig value cannot be decoded into text."""


def decode_kubeconfig(value: object) -> str:
    """The kubeconfig YAML from the API's base64 value.

    Raises:
        KubeconfigError: Missing, not base64, or not UTF-8 text (the message never quotes it).
    """
    if not isinstance(value, str) or not value.strip():
        raise KubeconfigError("the API returned no kubeconfig")
    try:
        return base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        raise KubeconfigError("the API's kubeconfig is not valid base64 text") from None


def default_path(cluster: str, home: Path | None = None) -> Path:
    """``~/.kube/cloudtui-<cluster>.yaml``, the cluster name reduced to safe file characters."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", cluster).strip("-.") or "cluster"
    return (home or Path.home()) / ".kube" / f"cloudtui-{safe}.yaml"


def write_private(path: Path, text: str, *, overwrite: bool = False) -> Path:
    """Write ``text`` to ``path`` with mode 0600, atomically.

    Args:
        path: Destination (``~`` is expanded); missing folders are created with mode 0700.
        text: The content.
        overwrite: Replace an existing file; without it an existing file is an error.

    Returns:
        The absolute path written.

    Raises:
        FileExistsError: The file exists and ``overwrite`` is false.
        OSError: The folder or file cannot be written (the message names the path).
    """
    target = Path(path).expanduser().absolute()
    if target.exists() and not overwrite:
        raise FileExistsError(17, "file exists", str(target))
    target.parent.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
    # mkstemp creates the file 0600 from the start: the credentials are never readable by
    # others, not even for the moment before a chmod.
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, PRIVATE_FILE)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target
