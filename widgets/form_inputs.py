"""The input widgets of one form field: text, number, password, switch, choice list, text area."""

from __future__ import annotations

from typing import Any, Literal

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select, SelectionList, TextArea

from tui.resources.forms import FormField
from tui.untrusted import shown
from widgets.chooser_field import ChooserSelect
from widgets.multiline_input import MultilineInput as MultilineInput  # re-exported
from widgets.secret_input import PemSecretInput, SecretInput
from widgets.suggest_input import SuggestArea, SuggestInput
from widgets.switches import TickList, YesNo
from widgets.textual_private import MarkedSelect

InputType = Literal["integer", "number", "text"]
"""What a one-line input accepts (as Textual's ``Input`` names it)."""

INPUT_TYPES: dict[str, InputType] = {"int": "integer", "float": "number"}


def inputs_for(f: FormField, wid: str, value: Any, *, given: bool = False) -> list[Widget]:
    """The widgets that edit ``f``: one input, plus a hidden text input beside a choice list
    whose choices come from the API (typed instead if they cannot be loaded).

    Args:
        f: The field.
        wid: Id of the input.
        value: Prefilled raw value.
        given: True when ``value`` was prefilled (a switch left unset shows its default).
    """
    text = "" if value is None else str(value)
    if f.kind == "bool":
        return [YesNo(bool(value) if given else bool(f.default), id=wid)]
    if f.kind == "choice":
        return _choice_inputs(f, wid, value, text)
    if f.kind == "picks":
        # Choices from the API: the ticked values are offered until the list arrives.
        picked: list[Any] = value if isinstance(value, list) else []
        typed = ", ".join(map(str, picked))
        fallback = Input(typed, id=f"{wid}-text", classes="-hidden", compact=True)
        ticks = [(Text(shown(v)), v, True) for v in picked]
        return [TickList[Any](*ticks, id=wid, compact=True), fallback]
    if f.kind == "multi":
        ticked: list[Any] = value if isinstance(value, list) else list(f.default or [])
        choices = ((Text(shown(t)), v, v in ticked) for t, v in f.choices)
        return [TickList[Any](*choices, id=wid, compact=True)]
    if f.suggest and f.kind == "lines":
        noun = shown(f.suggest[0].noun if len(f.suggest) == 1 else "values")
        return [SuggestArea(text, title=f.title, noun=noun, soft_wrap=True, id=wid, compact=True)]
    if f.kind in ("json", "multiline", "lines"):
        return [MultilineInput(text, soft_wrap=True, id=wid, compact=True)]
    # Focus must not select the text: the next key would replace what was typed.
    if f.kind == "secret":
        secret = PemSecretInput if f.pem else SecretInput
        return [secret(text, password=True, id=wid, compact=True, select_on_focus=False)]
    if f.suggest and f.kind in ("text", "list"):
        # Free, with likely values: completed as typed, and offered with ctrl+o.
        noun = shown(f.suggest[0].noun if len(f.suggest) == 1 else "values")
        listed = f.kind == "list"
        return [
            SuggestInput(
                text,
                title=f.title,
                noun=noun,
                listed=listed,
                id=wid,
                compact=True,
                select_on_focus=False,
            )
        ]
    kind = INPUT_TYPES.get(f.kind, "text")
    return [Input(text, type=kind, id=wid, compact=True, select_on_focus=False)]


def _choice_inputs(f: FormField, wid: str, value: Any, text: str) -> list[Widget]:
    """A choice list (a chooser, for choices that come with facts), and the text input shown
    instead when the choices come from the API and cannot be loaded."""
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
        ChooserSelect(texts, title=f.title, facts=f.source.facts, fits=f.source.fits, **select_args)
        if f.source is not None and f.source.facts is not None
        else MarkedSelect(texts, **select_args)
    ]
    if f.source is not None:
        # Shown instead of the list if the choices cannot be loaded.
        out.append(
            Input(text, id=f"{wid}-text", classes="-hidden", compact=True, select_on_focus=False)
        )
    return out


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
