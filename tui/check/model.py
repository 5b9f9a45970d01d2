"""What a check rule is, what it finds and how it fixes it: plain data, no behaviour beyond
naming and describing it (headless)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from tui.api.endpoints import REGISTRY
from tui.api.paths import fill_path
from tui.resources.areas import SPECS

if TYPE_CHECKING:
    from tui.check.account import Account


class Severity(IntEnum):
    """How much a finding matters; ordered, so ``severity >= Severity.WARNING`` reads plainly."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def word(self) -> str:
        """``info``, ``warning`` or ``error`` (the JSON and the command line use these)."""
        return self.name.lower()

    @classmethod
    def parse(cls, word: str) -> Severity:
        """The severity named ``word`` (any case).

        Raises:
            ValueError: No severity has that name.
        """
        try:
            return cls[word.upper()]
        except KeyError:
            raise ValueError(f"no severity {word!r} (info, warning, error)") from None


@dataclass(frozen=True)
class Subject:
    """The object a finding is about, named so the UI can open it and a fix can address it.

    Attributes:
        kind: The spec that lists it (``volumes``, ``domains.records`` ...), a key of
            :data:`tui.resources.areas.SPECS`.
        key: Its identity within ``kind``: its path parameters' values joined by ``/``.
        label: Its name as the API gives it (untrusted text: show it through ``shown``).
        params: The path parameters naming it (its view endpoint's and its actions').
        item: The object as listed (what a fix plan reads).
    """

    kind: str
    key: str
    label: str
    params: Mapping[str, Any]
    item: Mapping[str, Any] = field(compare=False, repr=False)


def subject(
    kind: str,
    item: Mapping[str, Any],
    parent: Mapping[str, Any] | None = None,
    *,
    label: str | None = None,
) -> Subject:
    """The :class:`Subject` of ``item``, listed by spec ``kind`` under ``parent`` parameters."""
    spec = SPECS[kind]
    params = spec.params_for(item, parent)
    parts = [str(value) for value in params.values()]
    own = item.get(spec.id_field)
    if own is not None and str(own) not in parts:
        parts.append(str(own))  # an object in a bucket: its name is no path parameter
    name = label if label is not None else item.get("label") or item.get("domain") or ""
    return Subject(kind, "/".join(parts), str(name), params, item)


@dataclass(frozen=True)
class Request:
    """One request of a fix, by operation name (the endpoint registry says method and path).

    Attributes:
        endpoint: Operation name in :data:`tui.api.endpoints.REGISTRY`.
        params: Path parameters.
        body: JSON body, or None for a request without one.
        query: Query parameters, or None.
    """

    endpoint: str
    params: Mapping[str, Any]
    body: Mapping[str, Any] | None = None
    query: Mapping[str, Any] | None = None

    @property
    def method(self) -> str:
        """HTTP method."""
        return REGISTRY[self.endpoint].method

    @property
    def path(self) -> str:
        """The path relative to the base URL, parameters filled in."""
        return fill_path(REGISTRY[self.endpoint].path, dict(self.params))

    def as_data(self) -> dict[str, Any]:
        """The request as JSON data (the report and the UI's request preview)."""
        return {
            "endpoint": self.endpoint,
            "method": self.method,
            "path": self.path,
            "query": dict(self.query) if self.query else None,
            "body": dict(self.body) if self.body is not None else None,
        }


Plan = Callable[[Subject], tuple[Request, ...]]
"""A fix's requests for one subject, in the order they are sent."""


@dataclass(frozen=True)
class Fix:
    """How a finding is fixed: a title and the requests that do it.

    Attributes:
        title: What it does (``Delete the volume``).
        plan: The requests for one subject.
        irreversible: It destroys something (the UI asks for the label to be typed).
    """

    title: str
    plan: Plan
    irreversible: bool = False


@dataclass(frozen=True)
class Hit:
    """What a finder found: the object and a short note saying what is wrong with it.

    Attributes:
        subject: The object.
        detail: One line about it (``powered off since 2026-10-21``); may quote API text.
    """

    subject: Subject
    detail: str = ""


Finder = Callable[["Account"], Iterable[Hit]]
"""A rule's search over the account's listings."""

Saving = Callable[[Subject, "Account"], float | None]
"""Estimated dollars a month that fixing the finding saves (None: no price given)."""


@dataclass(frozen=True)
class Rule:
    """One check: what it looks for, how bad it is, what it needs and how it is fixed.

    Attributes:
        id: Stable id (``volume-unattached``): the JSON, silences and the command line use it.
        severity: How much a finding matters.
        title: Short name of the problem.
        explanation: Why it matters and what to do, in a sentence or three.
        needs: The listings (:data:`tui.check.gather.LISTINGS` names) the finder reads.
        finder: The search.
        fix: The fix, or None when none can be sent (``manual`` then says what to do).
        saving: The monthly saving of a fix, for rules about waste.
        manual: What to do by hand when there is no fix.
    """

    id: str
    severity: Severity
    title: str
    explanation: str
    needs: tuple[str, ...]
    finder: Finder
    fix: Fix | None = None
    saving: Saving | None = None
    manual: str = ""


@dataclass(frozen=True)
class Finding:
    """One object a rule found.

    Attributes:
        rule: The rule.
        subject: The object.
        detail: What is wrong with it.
        saving: Estimated monthly saving of fixing it (None: not priced or not a waste).
        requests: The fix's requests ([] when the rule has no fix).
        silenced: The reason it was silenced ('' when it is not).
    """

    rule: Rule
    subject: Subject
    detail: str
    saving: float | None
    requests: tuple[Request, ...]
    silenced: str = ""

    @property
    def id(self) -> str:
        """``rule:kind:key``: what a silence names, stable across runs."""
        return finding_id(self.rule.id, self.subject.kind, self.subject.key)

    @property
    def severity(self) -> Severity:
        """The rule's severity."""
        return self.rule.severity


def finding_id(rule_id: str, kind: str, key: str) -> str:
    """The id of a finding of ``rule_id`` about object ``key`` of ``kind``."""
    return f"{rule_id}:{kind}:{key}"
