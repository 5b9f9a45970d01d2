"""What a form is: its inputs (:class:`FormField`), repeated groups (:class:`Repeat`), the
whole form (:class:`FormSpec`) and the outcome of sending it (:class:`FormResult`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel

from tui.models.rules import Part, When
from tui.resources.forms.choices import ChoiceSource
from tui.untrusted import Shown, shown

FieldKind = Literal[
    "text",
    "int",
    "float",
    "bool",
    "choice",
    "secret",
    "list",
    "lines",
    "json",
    "multiline",
    "multi",
    "picks",
]
"""Input kinds: ``list`` is comma-separated values, ``lines`` one value per line (SSH keys may
contain commas); ``lines``, ``json`` and ``multiline`` use a text area; ``multi`` picks any
number of fixed :attr:`FormField.choices` (sent comma-separated, as a script's ``manyof``);
``picks`` any number of choices loaded from the API (sent as a list: a script's images)."""

MAX_REPEATED_GROUPS = 3
"""Lists of objects with at most this many entries start with that many rows shown; longer
lists start with one row (or their minimum) and grow a row at a time."""

MULTILINE_MIN_LENGTH = 256
"""Text fields that may hold more than this many characters get a text area."""

MULTILINE_NAMES = frozenset({"script", "comments", "notes"})
"""Fields that hold several lines whatever their declared bound."""

LINE_LIST_NAMES = frozenset({"authorized_keys", "master_ips", "axfr_ips", "allow_list"})
"""Lists entered one value per line (an SSH key's options may contain commas)."""

PASSWORD_HINTS = ("pass", "password")
"""Secret fields whose name says password get the generator (not PEM keys)."""

REDACTED = "<REDACTED>"
"""What the API returns instead of a stored secret: never prefilled, so an edit keeps it."""


def _num(value: float) -> Shown:
    return str(int(value)) if float(value).is_integer() else str(value)


@dataclass(frozen=True)
class FormField:
    """One input.

    Attributes:
        name: Dotted path in the body (``alerts.cpu``, ``interfaces.0.purpose``).
        title: Label text.
        kind: Input kind.
        required: The body needs it (inside a group: when the group is used).
        help: Help text (the model field's docstring).
        choices: Fixed ``(text, value)`` options.
        source: Choices loaded from the API.
        group: Title of the group the input belongs to, if any.
        default: The model's default, shown as a hint.
        min_length: Shortest accepted text.
        max_length: Longest accepted text.
        ge: Smallest accepted number.
        le: Largest accepted number.
        item_type: Element type of a ``list`` field (``str`` or ``int``).
        locked: Why the user may not change this input (shown instead of an editable input);
            empty when they may.
    """

    name: str
    title: Shown
    kind: FieldKind
    required: bool = False
    help: Shown = ""
    choices: tuple[tuple[str, Any], ...] = ()
    source: ChoiceSource | None = None
    group: Shown | None = None
    default: Any = None
    min_length: int | None = None
    max_length: int | None = None
    ge: float | None = None
    le: float | None = None
    item_type: type = str
    locked: Shown = ""
    required_when: str = ""
    """When the model's own checks need this optional field, in words (shown for "optional")."""
    send: bool = True
    """False for a picker that only narrows another input's choices (the instance whose disks
    are offered): it is never part of the body."""
    rule: When | None = None
    """When the input is asked (its deciding field dotted like :attr:`name`); None: always."""
    pem: str = ""
    """What PEM text the field holds (``certificate``, ``private key``; the model declares it),
    else empty. Such a field keeps every line of a paste, and takes a file path instead."""
    part: Part | None = None
    """This input is no field of the request: its value is sent inside :attr:`joins` (a
    node's port in its address; see :class:`~tui.models.rules.Part`). Never sent itself."""
    joins: str = ""
    """The input (dotted like :attr:`name`) a :attr:`part` is sent inside."""
    suggest: tuple[ChoiceSource, ...] = ()
    """Listings of values this free input likely takes (the account's tags): completed as
    typed and offered in a chooser, never required (see ``SUGGESTION_SOURCES``)."""

    @property
    def hint(self) -> str:
        """Placeholder: bounds and default in a few words."""
        return self.hint_for(self.required)

    def hint_for(self, required: bool, note: str = "") -> Shown:
        """The hint while the input is ``required`` (or not), with a rule's ``note`` first."""
        parts: list[Shown] = [shown(note)] if note else []
        if self.kind == "list":
            parts.append("comma-separated")
        if self.kind == "lines":
            parts.append("one per line")
        if self.pem:
            parts.append(f"paste the PEM {shown(self.pem)} or a file path")
        if self.kind == "picks":
            parts.append("space ticks")
        if self.min_length is not None and self.max_length is not None:
            parts.append(f"{self.min_length}..{self.max_length} chars")
        elif self.max_length is not None:
            parts.append(f"up to {self.max_length} chars")
        if self.ge is not None and self.le is not None:
            parts.append(f"{_num(self.ge)}..{_num(self.le)}")
        elif self.ge is not None:
            parts.append(f"at least {_num(self.ge)}")
        if self.default not in (None, "", [], {}) and self.kind not in ("bool", "secret"):
            default = self.default
            if isinstance(default, list | tuple):
                default = ", ".join(map(str, default))  # a multi-choice's: nginx, not ['nginx']
            parts.append(f"default {shown(default)}")
        if self.required_when and not required:
            parts.append(shown(self.required_when))
        elif not required and self.kind not in ("bool",) and not note:
            parts.append("optional")
        return ", ".join(parts)


@dataclass(frozen=True)
class Repeat:
    """A list of objects shown as repeated rows of inputs (a balancer's configs, their nodes).

    Attributes:
        path: Dotted path of the list (``configs.0.nodes``).
        title: Title of one row, numbered when shown (``Nodes`` -> ``Nodes 2``).
        model: The model of one entry.
        group: Group title the rows sit in (``Configs 1``), if any.
        max_rows: Most entries the list takes (None: no limit).
    """

    path: str
    title: Shown
    model: type[BaseModel]
    group: Shown | None = None
    max_rows: int | None = None

    def row_group(self, index: int) -> Shown:
        """The group title of row ``index``."""
        own = f"{self.title} {index + 1}"
        return f"{self.group} · {own}" if self.group else own


@dataclass(frozen=True)
class FormSpec:
    """A whole form.

    Attributes:
        model: The request model class.
        title: Heading (the model's docstring's first line).
        fields: Inputs in model order.
    """

    model: type[BaseModel]
    title: str
    fields: tuple[FormField, ...]
    irreversible: Mapping[str, tuple[Any, str]] = field(default_factory=dict)
    """Input name -> (value, meaning) of values that cannot be taken back once sent."""
    repeats: Mapping[str, Repeat] = field(default_factory=dict)
    """Dotted path of each list of objects shown as rows (``configs``, ``configs.0.nodes``)."""
    confirm_sent: Mapping[str, str] = field(default_factory=dict)
    """Input name -> what sending it does (``{value}``: the value sent), confirmed first."""

    def rows(self, path: str) -> int:
        """How many rows the repeated list at ``path`` has now."""
        prefix = f"{path}."
        indices = {
            int(f.name[len(prefix) :].split(".", 1)[0])
            for f in self.fields
            if f.name.startswith(prefix) and f.name[len(prefix) :].split(".", 1)[0].isdigit()
        }
        return len(indices)

    def field(self, name: str) -> FormField | None:
        """The input named ``name``."""
        return next((f for f in self.fields if f.name == name), None)

    def full(self, path: str) -> bool:
        """True when the repeated list at ``path`` has all the rows it may have."""
        most = self.repeats[path].max_rows
        return most is not None and self.rows(path) >= most

    def lists_ending_at(self, name: str) -> list[str]:
        """The repeated lists whose last input is ``name`` and that take another row, inner
        first: where the form offers to add a row."""
        ends = [
            path
            for path in self.repeats
            if name.startswith(f"{path}.")
            and [f.name for f in self.fields if f.name.startswith(f"{path}.")][-1] == name
            and not self.full(path)
        ]
        return sorted(ends, key=len, reverse=True)

    def list_title(self, path: str) -> Shown:
        """What the repeated list at ``path`` is called (in its group, if it has one)."""
        repeat = self.repeats[path]
        return f"{repeat.group} · {repeat.title}" if repeat.group else repeat.title

    def locking(self, name: str, reason: str) -> FormSpec:
        """This form with input ``name`` (if it has one) shown but not editable, and why."""
        fields = tuple(replace(f, locked=reason) if f.name == name else f for f in self.fields)
        return replace(self, fields=fields)

    @property
    def secret_names(self) -> tuple[str, ...]:
        """Names of the masked inputs."""
        return tuple(f.name for f in self.fields if f.kind == "secret")

    @property
    def password_names(self) -> tuple[str, ...]:
        """Masked inputs that take a password (the generator fills these, not PEM keys)."""
        return tuple(
            name for name in self.secret_names if any(h in name.lower() for h in PASSWORD_HINTS)
        )


@dataclass
class FormResult:
    """What :func:`build_body` made of the inputs.

    Attributes:
        body: The request body (JSON-ready, secrets revealed), when valid.
        errors: Input name -> message.
        general: Messages that belong to no single input.
    """

    body: dict[str, Any] | None = None
    errors: dict[str, str] = field(default_factory=dict)
    general: list[Shown] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the body is valid."""
        return self.body is not None and not self.errors and not self.general
