"""A form's secret inputs: masked, shown on request only while the user is on them.

:class:`SecretInput` masks itself again when the focus leaves it, shows or hides itself
(``ctrl+t`` on the form) and takes a generated password (``ctrl+g``), shown so the user can
keep it. :class:`PemSecretInput` is one for a PEM private key that keeps every line of a paste.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from tui.resources.forms import generate_password
from tui.untrusted import normalize_newlines

GENERATED_LENGTH = 32
"""Characters of a generated password (fewer when the field allows fewer)."""


class SecretInput(Input):
    """A masked one-line input (a password, a secret key)."""

    def on_blur(self, event: events.Blur) -> None:
        self.password = True  # shown on request only while the user is on it

    def reveal(self) -> None:
        """Show the secret in clear, or mask it again."""
        self.password = not self.password

    def generate(self, max_length: int | None = None) -> None:
        """Put a strong password in (at most ``max_length`` characters), shown so the user can
        keep it; it is masked again when the focus leaves."""
        length = min(GENERATED_LENGTH, max_length or GENERATED_LENGTH)
        self.value = generate_password(length)
        self.password = False


class PemSecretInput(SecretInput):
    """A masked one-line input for a PEM private key that keeps every line of a paste.

    A plain :class:`Input` keeps only the first line of a paste (the armour line of a key).
    Here line breaks (LF, CRLF, or the CR a terminal sends) are kept as written ``\\n``
    sequences, which the form turns back into line breaks before sending; a file path typed
    instead is read when the form is sent.
    """

    def on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # Input's own handler would add the first line again
        if not event.text:
            return
        kept = normalize_newlines(event.text).strip("\n").replace("\n", "\\n")
        if self.selection.is_empty:
            self.insert_text_at_cursor(kept)
        else:
            self.replace(kept, *self.selection)
