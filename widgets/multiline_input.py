"""A text area for text that is sent: its line ends are LF whatever was pasted or loaded."""

from __future__ import annotations

from typing import Any

from textual.widgets import TextArea

from tui.untrusted import normalize_newlines


class MultilineInput(TextArea):
    """A text area for text that is sent (a script, a certificate, JSON): its lines end in LF.

    A terminal sends a paste's line breaks as CR, and text loaded from elsewhere may end its
    lines in CRLF; a text area would keep the line end of the text it was loaded with, so a
    key or a script could reach the API with CRs in it. Everything loaded here is made LF, and
    a paste is split into lines and joined with the document's LF.
    """

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__(normalize_newlines(text), **kwargs)

    def load_text(self, text: str) -> None:
        """Replace the text (``text = ...`` comes here too), its line ends made LF."""
        super().load_text(normalize_newlines(text))
