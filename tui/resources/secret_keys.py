"""Which fields hold secrets, by name (headless; imports nothing of this project).

:mod:`tui.resources.format` masks them on display and :mod:`tui.resources.udf` masks a
deployment script's secret-looking fields; both read these names from here.
"""

from __future__ import annotations

SECRET_KEYS = frozenset(
    {
        "password",
        "root_pass",
        "secret_key",
        "ssl_key",
        "private_key",
        "kubeconfig",
        "token",
        "otp_code",
    }
)
"""Field names whose values are never shown in full (JSON view, notifications)."""


SECRET_WORDS = frozenset({"pass", "passwd", "password", "pwd", "secret", "token", "apikey"})
"""Words that make a free-form key secret (``db_pass``, ``API_TOKEN``): deployment script
fields (``stackscript_data``) are named by whoever wrote the script."""


def is_secret_key(key: object) -> bool:
    """True when a field named ``key`` holds a secret: a known field, or a name made of words
    one of which says so (``check_passive`` and ``private_ip`` are not)."""
    name = str(key)
    if name in SECRET_KEYS:
        return True
    words = name.replace("-", "_").lower().split("_")
    return not SECRET_WORDS.isdisjoint(words) or name.lower().endswith("private_key")
