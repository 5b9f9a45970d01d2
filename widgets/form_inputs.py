"""The input widgets of one form field: text, number, password, switch, choice list, text area."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select, SelectionList, TextArea

from tui.resources.forms import FormField
from tui.untrusted import normalize_newlines, shown
from widgets.chooser_field import ChooserSelect
from widgets.switches import TickList, YesNo

INPUT_TYPES = {"int": "integer", "float": "number"}


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


class PemSecretInput(Input):
    """A masked one-line input for a PEM private key that keeps every line of a paste.

    A plain :class:`Input` keeps only the first line of a paste (the armour line of a key).
    Here line breaks (LF, CRLF, or the CR a terminal sends) are kept as written ``\\n``
    sequences, which the form turns back into line breaks before sending; a file path typed
    instead is read when the form is sent.
    """

    def _on_paste(self, event: events.Paste) -> None:
        event.stop()
        event.prevent_default()  # Input's own handler would add the first line again
        if not event.text:
            return
        kept = normalize_newlines(event.text).strip("\n").replace("\n", "\\n")
        if self.selection.is_empty:
            self.insert_text_at_cursor(kept)
        else:
            self.replace(kept, *self.selection)


def inputs_for(f: FormField, wid: str, value: Any, *, given: bool = False) -> list[Widget]:
    """The widgets that edit ``f``: one input, plus a hidden text input beside a choice list
    whose choices come from the API (typed instead if they cannot be loaded).

    Args:
        f: The field.
        wid: Id of the input.
        value: Prefilled raw value.
        given: True when ``value`` was prefilled (a switch left unset shows its default).
    """
    if f.kind == "bool":
        return [YesNo(bool(value) if given else bool(f.default), id=wid)]
    text = "" if value is None else str(value)
    if f.kind == "choice":
        options = list(f.choices)
        prompt = "loading…" if f.source else ("choose…" if f.required else "(not set)")
        if value not in (None, "") and all(v != value for _t, v in options):
            options.insert(0, (str(value), value))
        chosen: Any = value if value not in (None, "") else None
        if chosen is None and f.default is not None and any(v == f.default for _, v in options):
            chosen = f.default
        texts = [(Text(shown(t)), v) for t, v in options]  # choices can be labels
        select_args: dict[str, Any] = {
            "prompt": prompt,
            "allow_blank": not f.required or chosen is None,
            "value": chosen if chosen is not None else Select.NULL,
            "id": wid,
            "compact": True,
        }
        out: list[Widget] = [
            # Choices with facts: a searchable table instead of a bare drop-down.
            ChooserSelect(
                texts, title=f.title, facts=f.source.facts, fits=f.source.fits, **select_args
            )
            if f.source is not None and f.source.facts is not None
            else Select(texts, **select_args)
        ]
        if f.source is not None:
            # Shown instead of the list if the choices cannot be loaded.
            out.append(
                Input(
                    text,
                    id=f"{wid}-text",
                    classes="-hidden",
                    compact=True,
                    select_on_focus=False,
                )
            )
        return out
    if f.kind == "picks":
        # Choices from the API: the ticked values are offered until the list arrives.
        picked: list[Any] = value if isinstance(value, list) else []
        typed = ", ".join(map(str, picked))
        fallback = Input(typed, id=f"{wid}-text", classes="-hidden", compact=True)
        ticks = [(Text(shown(v)), v, True) for v in picked]
        return [TickList[Any](*ticks, id=wid, compact=True), fallback]
    if f.kind == "multi":
        ticked: list[Any] = value if isinstance(value, list) else list(f.default or [])
        return [
            TickList[Any](
                *((Text(shown(t)), v, v in ticked) for t, v in f.choices), id=wid, compact=True
            )
        ]
    if f.kind in ("json", "multiline", "lines"):
        return [MultilineInput(text, soft_wrap=True, id=wid, compact=True)]
    if f.pem and f.kind == "secret":
        return [PemSecretInput(text, password=True, id=wid, compact=True, select_on_focus=False)]
    return [
        Input(
            text,
            password=f.kind == "secret",
            type=INPUT_TYPES.get(f.kind, "text"),  # type: ignore[arg-type]
            id=wid,
            compact=True,
            # Focus must not select the text: the next key would replace what was typed.
            select_on_focus=False,
        )
    ]


def fill_picks(picks: SelectionList[Any], options: list[tuple[str, Any]]) -> None:
    """Offer ``options`` in a list of ticks, keeping what is ticked (first, if not offered)."""
    ticked = list(picks.selected)
    offered = {value for _text, value in options}
    kept = [(str(v), v) for v in ticked if v not in offered]
    picks.clear_options()
    picks.add_options([(Text(shown(t)), v, v in ticked) for t, v in [*kept, *options]])


def read_value(widget: Widget) -> Any:
    """The raw value an input holds: a bool, chosen values, a chosen value or None, text."""
    if isinstance(widget, Checkbox):
        return widget.value
    if isinstance(widget, SelectionList):
        return list(widget.selected)
    if isinstance(widget, Select):
        return None if widget.value is Select.NULL else widget.value
    if isinstance(widget, TextArea):
        return widget.text
    if isinstance(widget, Input):
        return widget.value
    return None


def write_value(widget: Widget, value: Any) -> None:
    """Put the raw ``value`` into an input."""
    if isinstance(widget, Checkbox):
        widget.value = bool(value)
    elif isinstance(widget, SelectionList):
        widget.deselect_all()
        for chosen in value or []:
            widget.select(chosen)
    elif isinstance(widget, Select):
        widget.value = Select.NULL if value is None else value
    elif isinstance(widget, TextArea):
        widget.text = "" if value is None else str(value)
    elif isinstance(widget, Input):
        widget.value = "" if value is None else str(value)
