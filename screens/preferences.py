"""The profile's preferences as JSON: edited in place, or in ``$EDITOR`` (ctrl+e), checked first.

The preferences belong to the OAuth client that made the token; any JSON object is accepted,
so the check is that the text is valid JSON and an object. The dialog stays open with the text
until the API accepts it.

Bindings:

| Key | Id | Description |
| :- | :- | :- |
| ctrl+s | form.submit | Save |
| ctrl+e | preferences.editor | Edit in ``$VISUAL`` / ``$EDITOR`` |
| escape | form.cancel | Cancel |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static, TextArea

from screens.request_modal import RequestModal
from tui.api.errors import CloudError
from tui.resources.preferences import dump_preferences, parse_preferences
from tui.untrusted import shown
from widgets.form_inputs import MultilineInput

if TYPE_CHECKING:
    from screens.actions import ActionContext

ENDPOINTS: tuple[str, ...] = ("profile.preferences.view",)
"""Operations this module calls by name (the coverage test checks they are reachable)."""


class PreferencesModal(RequestModal):
    """Edit the preferences JSON.

    Args:
        ctx: The action being run.
        text: The current preferences as JSON text.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # priority: the text area binds ctrl+e (end of line) and has the focus.
        Binding(
            "ctrl+e",
            "external_editor",
            "Editor",
            id="preferences.editor",
            priority=True,
            tooltip="Edit the JSON in $VISUAL or $EDITOR",
        ),
    ]

    DEFAULT_CSS = """
    PreferencesModal TextArea { height: 1fr; }
    PreferencesModal #preferences-note { color: $text-muted; height: auto; }
    """

    hint = "ctrl+s save · ctrl+e open in $EDITOR · esc cancel"

    def __init__(self, ctx: ActionContext, text: str) -> None:
        super().__init__(ctx.title, ctx.call, request_line=f"PUT {ctx.path()}")
        self.text = text

    def compose_body(self) -> ComposeResult:
        yield Static(
            Text(
                "Preferences are one JSON object kept per OAuth client; keys and values are "
                "yours to choose."
            ),
            id="preferences-note",
        )
        yield MultilineInput(
            self.text, soft_wrap=True, show_line_numbers=True, id="preferences-text"
        )

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    @property
    def editor(self) -> TextArea:
        """The text area."""
        return self.query_one(TextArea)

    def build(self) -> dict[str, Any] | None:
        value, problem = parse_preferences(self.editor.text)
        if problem:
            self.show_general([shown(problem)])
            return None
        self.show_general([])
        return value

    def action_external_editor(self) -> None:
        """Edit the text in the user's editor through the one hand-off mechanism (the app is
        suspended meanwhile; the file is 0600 and removed afterwards)."""
        from screens.handoff import edit_text

        edited = edit_text(self.app, self.editor.text, "preferences.json")
        if edited is None:
            return
        self.editor.text = edited
        _value, problem = parse_preferences(edited)
        self.show_general([shown(problem)] if problem else [])


async def edit_preferences(ctx: ActionContext) -> bool:
    """The preferences action: load them, edit, save."""
    try:
        current = await ctx.call(endpoint="profile.preferences.view", params={})
    except CloudError as error:
        ctx.failed(error)
        return False
    outcome = await ctx.app.push_screen_wait(PreferencesModal(ctx, dump_preferences(current)))
    if outcome is None:
        return False
    ctx.done("Preferences saved")
    return True
