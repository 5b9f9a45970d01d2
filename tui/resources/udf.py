"""A deployment script's user-defined fields (``<UDF ...>`` tags), without a terminal.

A script asks for input with tags in its text, usually in comments::

    # <UDF name="site_name" label="Site name" default="My site" example="shop.example.com" />
    # <UDF name="php_version" label="PHP version" oneOf="8.2,8.3" default="8.3" />
    # <UDF name="modules" label="Modules" manyOf="ssl,rewrite,headers" default="ssl" />

:func:`parse_udfs` reads them (attribute names case-insensitive, values HTML-unescaped) and
reports malformed ones instead of guessing; :func:`tui.resources.udf_inputs.udf_form_fields`
turns them into form inputs named ``stackscript_data.<name>`` (a choice for ``oneof``, a
multi-choice for ``manyof``, the default prefilled, required when there is no default, masked
when the name or label says password/secret/token), which the generic form builder nests into
``stackscript_data``. This module imports no form code: :mod:`tui.resources.format` previews a
script's fields with :func:`preview`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tui.resources.secret_keys import SECRET_WORDS, is_secret_key

DATA_FIELD = "stackscript_data"
"""The request field the answers travel in (the interface keeps this name)."""

_TAG_START = re.compile(r"<UDF\b", re.IGNORECASE)
_ATTR = re.compile(r"""\s*([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
NAME_RULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
"""A UDF name becomes an environment variable (and part of an input's dotted name)."""


@dataclass(frozen=True)
class Udf:
    """One user-defined field.

    Attributes:
        name: Variable name (the key in ``stackscript_data``).
        label: What the user is asked.
        default: Value used when none is given (None: no default, so an answer is required).
        oneof: Allowed values when exactly one must be chosen.
        manyof: Allowed values when several may be chosen (sent comma-separated).
        example: An example answer (shown as help).
        line: Line of the script the tag is on (1-based).
    """

    name: str
    label: str = ""
    default: str | None = None
    oneof: tuple[str, ...] = ()
    manyof: tuple[str, ...] = ()
    example: str = ""
    line: int = 0

    @property
    def required(self) -> bool:
        """True when the script has no default for it."""
        return self.default is None

    @property
    def secret(self) -> bool:
        """True when the name or label looks like a password, secret or token."""
        if is_secret_key(self.name):
            return True
        words = set(re.findall(r"[a-z]+", self.label.lower()))
        return not SECRET_WORDS.isdisjoint(words)


@dataclass
class UdfParse:
    """What :func:`parse_udfs` found.

    Attributes:
        fields: The well-formed fields, in script order (first of a repeated name).
        problems: Malformed tags, one sentence each with its line.
    """

    fields: list[Udf] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _split(values: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in values.split(",") if v.strip())


def parse_udfs(script: str) -> UdfParse:
    """Every ``<UDF ...>`` tag of ``script``.

    A tag must close with ``>`` (``/>`` too) and have a ``name`` of letters, digits and
    underscores; ``oneof`` and ``manyof`` exclude each other; a default must be one of the
    choices. A tag that breaks a rule is reported and left out, never half-read.

    Args:
        script: The script's text.

    Returns:
        The fields and the problems.
    """
    out = UdfParse()
    seen: set[str] = set()
    for start in _TAG_START.finditer(script):
        line = script.count("\n", 0, start.start()) + 1
        where = f"line {line}"
        end = script.find(">", start.end())
        newline = script.find("\n", start.end())
        if end < 0 or (0 <= newline < end):
            out.problems.append(f"{where}: the UDF tag is not closed with '>' on its line")
            continue
        body = script[start.end() : end].rstrip().removesuffix("/")
        attrs: dict[str, str] = {}
        position = 0
        bad = ""
        while position < len(body):
            if not body[position:].strip():
                break
            match = _ATTR.match(body, position)
            if match is None:
                bad = body[position:].strip()
                break
            value = match.group(2) if match.group(2) is not None else match.group(3)
            attrs[match.group(1).lower()] = html.unescape(value or "")
            position = match.end()
        if bad:
            out.problems.append(f'{where}: cannot read {bad[:30]!r} (attributes are name="value")')
            continue
        name = attrs.get("name", "")
        if not name:
            out.problems.append(f"{where}: the UDF tag has no name")
            continue
        if not NAME_RULE.fullmatch(name):
            out.problems.append(
                f"{where}: UDF name {name!r} must be letters, digits and underscores"
            )
            continue
        if name in seen:
            out.problems.append(f"{where}: UDF {name} is defined twice (the first one is used)")
            continue
        oneof, manyof = _split(attrs.get("oneof", "")), _split(attrs.get("manyof", ""))
        if oneof and manyof:
            out.problems.append(f"{where}: UDF {name} has both oneOf and manyOf")
            continue
        default = attrs.get("default")
        if default is not None and default != "":
            allowed = oneof or manyof
            given = _split(default) if manyof else (default,)
            wrong = [v for v in given if allowed and v not in allowed]
            if wrong:
                out.problems.append(
                    f"{where}: the default of UDF {name} ({default}) is not one of its choices"
                )
                continue
        seen.add(name)
        out.fields.append(
            Udf(
                name=name,
                label=attrs.get("label", "") or name,
                default=default,
                oneof=oneof,
                manyof=manyof,
                example=attrs.get("example", ""),
                line=line,
            )
        )
    return out


def udfs_of(script_record: Mapping[str, Any]) -> UdfParse:
    """The fields of a script record: parsed from its ``script`` text."""
    return parse_udfs(str(script_record.get("script") or ""))


def preview(script: Any) -> str:
    """The fields a script asks for, one per line (the script's detail shows this)."""
    parsed = parse_udfs(str(script or ""))
    lines: list[str] = []
    for udf in parsed.fields:
        parts = [f"{udf.name}: {udf.label}"]
        if udf.oneof:
            parts.append(f"one of {', '.join(udf.oneof)}")
        if udf.manyof:
            parts.append(f"any of {', '.join(udf.manyof)}")
        if udf.default is None:
            parts.append("required")
        elif udf.secret:
            parts.append("has a default")
        else:
            # Quoted only when blanks would otherwise be invisible; a list reads "ssl, rewrite".
            plain = udf.default and udf.default.strip() == udf.default
            shown = udf.default if plain else repr(udf.default)
            parts.append(f"default {', '.join(_split(shown)) if udf.manyof else shown}")
        if udf.example:
            parts.append(f"e.g. {udf.example}")
        if udf.secret:
            parts.append("secret")
        lines.append(" · ".join(parts))
    lines.extend(f"✖ {problem}" for problem in parsed.problems)
    return "\n".join(lines) if lines else "no user-defined fields"


def input_name(udf: Udf) -> str:
    """The form input of ``udf`` (nested into ``stackscript_data`` by the form builder)."""
    return f"{DATA_FIELD}.{udf.name}"


def answer(udf: Udf, raw: Any) -> str:
    """The value sent for ``udf``: text, or a multi-choice joined with commas."""
    if isinstance(raw, list | tuple):
        return ",".join(str(v) for v in raw)
    return "" if raw is None else str(raw)


def initial_value(udf: Udf) -> Any:
    """What the input starts with: the default (a list for a multi-choice), else empty."""
    if udf.default is None:
        return [] if udf.manyof else None
    if udf.manyof:
        return list(_split(udf.default))
    return udf.default


def help_of(udf: Udf) -> str:
    """Help text: the example, where the value goes."""
    parts = []
    if udf.example:
        parts.append(f"Example: {udf.example}.")
    if udf.manyof:
        parts.append("Choose any number (space toggles).")
    parts.append(f"Sent to the script as {udf.name.upper()}.")
    return " ".join(parts)


def choices_of(udf: Udf) -> Sequence[str]:
    """The fixed values of ``udf`` (empty for free text)."""
    return udf.oneof or udf.manyof
