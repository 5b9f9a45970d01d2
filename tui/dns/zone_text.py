"""A domain's records as zone-file text, and zone-file text back to records.

The text is a zone file (RFC 1035 master-file syntax, one record per line) that the user edits
in ``$EDITOR``: ``NAME [TTL] [IN] TYPE DATA``, ``@`` for the domain itself, a name without a
final period relative to the domain, a leading blank repeating the previous name, ``;``
comments. Each record the API holds is written with a trailing ``; id <n>`` comment, which is
how an edited line maps back to the record it changes. :mod:`tui.dns.zone_plan` compares the parsed
lines with the records.

Only what the API stores can be mapped: the types A, AAAA, NS, MX, CNAME, TXT, SRV, PTR and
CAA. The SOA and the service's own NS records are not records of the API; a line of another
type, a malformed line or a value the API would refuse is reported with its line number.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

TYPES = ("A", "AAAA", "NS", "MX", "CNAME", "TXT", "SRV", "PTR", "CAA")
"""Record types the API stores, in the order the text lists them."""

CAA_TAGS = ("issue", "issuewild", "iodef")

REMOTE_ADDR = "[remote_addr]"
"""The API's token for "the caller's IPv4" in an A record's target."""

_ID_COMMENT = re.compile(r"\bid\s*[:=]?\s*(\d+)\b")
_SERVICE = re.compile(r"_([A-Za-z0-9][A-Za-z0-9-]*)\._([A-Za-z0-9]+)")


@dataclass(frozen=True)
class ParsedLine:
    """One record line of the text.

    Attributes:
        number: 1-based line number.
        text: The line as written.
        record: The record's fields as the API names them (``type``, ``name``, ``target``,
            ``ttl_sec`` when given, and per type ``priority``, ``weight``, ``port``,
            ``service``, ``protocol``, ``tag``).
        record_id: The id from the line's ``; id <n>`` comment, if any.
    """

    number: int
    text: str
    record: dict[str, Any]
    record_id: int | None = None


@dataclass(frozen=True)
class LineError:
    """A line that cannot be mapped to a record (nothing is applied for it)."""

    number: int
    text: str
    reason: str
    record_id: int | None = None


@dataclass
class ParsedZone:
    """The record lines of a text and the lines that could not be mapped."""

    lines: list[ParsedLine] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)


class _Bad(ValueError):
    """A line cannot be mapped; the message says why."""


# -- records -> text ------------------------------------------------------------------------


def _quote(value: str) -> str:
    """A TXT/CAA value as one zone-file character-string (quotes and backslashes escaped)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _absolute(name: str) -> str:
    return name if name.endswith(".") or not name else name + "."


def service_of(record: Mapping[str, Any]) -> tuple[str, str]:
    """An SRV record's service and protocol without the API's ``_`` and ``.`` decorations."""
    service = str(record.get("service") or "").strip("_.")
    protocol = str(record.get("protocol") or "tcp").strip("_.")
    return service, protocol


def owner_of(record: Mapping[str, Any]) -> str:
    """The owner name a record is written with (``@`` for the domain itself)."""
    if record.get("type") == "SRV":
        service, protocol = service_of(record)
        return f"_{service}._{protocol}"
    return str(record.get("name") or "") or "@"


def rdata_of(record: Mapping[str, Any]) -> str:
    """The DATA part of a record's line."""
    kind = record.get("type")
    target = str(record.get("target") or "")
    if kind in ("A", "AAAA"):
        return target
    if kind in ("NS", "CNAME", "PTR"):
        return _absolute(target)
    if kind == "MX":
        return f"{record.get('priority') or 0} {_absolute(target) if target else '.'}"
    if kind == "SRV":
        numbers = (record.get(k) or 0 for k in ("priority", "weight", "port"))
        return " ".join(str(n) for n in numbers) + f" {_absolute(target)}"
    if kind == "CAA":
        return f"0 {record.get('tag') or 'issue'} {_quote(target)}"
    return _quote(target)


def record_line(record: Mapping[str, Any], width: int = 16) -> str:
    """One record as a zone-file line, without the id comment."""
    ttl = record.get("ttl_sec")
    ttl_text = str(ttl) if isinstance(ttl, int) and ttl > 0 else ""
    kind = str(record.get("type"))
    return f"{owner_of(record):<{width}} {ttl_text:<6} IN {kind:<5} {rdata_of(record)}"


def _order(record: Mapping[str, Any]) -> tuple[int, str, int]:
    kind = str(record.get("type"))
    rank = TYPES.index(kind) if kind in TYPES else len(TYPES)
    return rank, owner_of(record).lower(), int(record.get("id") or 0)


def render_zone_text(domain: str, records: Iterable[Mapping[str, Any]]) -> str:
    """The records of ``domain`` as an editable zone file (each line ends in ``; id <n>``)."""
    ordered = sorted(records, key=_order)
    width = min(max([len(owner_of(r)) for r in ordered] + [8]), 24)
    lines = [
        f"; Records of {domain} as a zone file. Save and quit to see the plan;",
        "; nothing is sent before you confirm it.",
        "; Change a line to update its record (keep its '; id' comment), delete a",
        "; line to delete the record, add lines without an id to create records.",
        "; NAME [TTL] [IN] TYPE DATA. @ is the domain itself; a name without a",
        "; final period is relative to it. Without a TTL: the zone default (new",
        "; records) or unchanged (existing ones).",
        f"; Types: {' '.join(TYPES)}.",
        "; The SOA and the service's own NS records are not listed.",
        f"$ORIGIN {_absolute(domain)}",
    ]
    for record in ordered:
        lines.append(f"{record_line(record, width)}  ; id {record.get('id')}")
    return "\n".join(lines) + "\n"


# -- text -> records ------------------------------------------------------------------------


def _split(line: str) -> tuple[list[str], str, bool]:
    """Tokens, the comment, and whether a token was quoted (quotes kept on quoted tokens)."""
    tokens: list[str] = []
    current: list[str] = []
    quoted = in_quotes = False
    index = 0
    while index < len(line):
        char = line[index]
        if in_quotes:
            if char == "\\" and index + 1 < len(line):
                current.append(line[index : index + 2])
                index += 2
                continue
            current.append(char)
            if char == '"':
                in_quotes = False
        elif char == '"':
            in_quotes = quoted = True
            current.append(char)
        elif char == ";":
            if current:
                tokens.append("".join(current))
            return tokens, line[index + 1 :], quoted
        elif char.isspace():
            if current:
                tokens.append("".join(current))
                current = []
        elif char in "()":
            raise _Bad("records spread over several lines with ( ) are not supported")
        else:
            current.append(char)
        index += 1
    if in_quotes:
        raise _Bad("a quoted string is not closed")
    if current:
        tokens.append("".join(current))
    return tokens, "", quoted


def unquote(token: str) -> str:
    """A character-string's text: quotes removed, ``\\X`` and ``\\DDD`` escapes decoded."""
    body = token[1:-1] if len(token) >= 2 and token[0] == token[-1] == '"' else token
    out = bytearray()
    index = 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            digits = body[index + 1 : index + 4]
            if len(digits) == 3 and digits.isdigit():
                out.append(int(digits) & 0xFF)
                index += 4
                continue
            out.extend(body[index + 1].encode("utf-8"))
            index += 2
            continue
        out.extend(char.encode("utf-8"))
        index += 1
    return out.decode("utf-8", errors="replace")


def _owner(token: str, origin: str) -> str:
    """The record name relative to the zone ("" for the zone itself)."""
    if token == "@":
        return ""
    lowered = token.lower()
    if lowered.endswith("."):
        if lowered == origin + ".":
            return ""
        suffix = "." + origin + "."
        if not lowered.endswith(suffix):
            raise _Bad(f"{token} is outside the zone {origin}")
        return token[: -len(suffix)]
    return token


def _domain_name(token: str, origin: str) -> str:
    """A target name as the API takes it: absolute without the final period."""
    if token == "@":
        return origin
    if token.endswith("."):
        return token[:-1]
    return f"{token}.{origin}"


def _integer(token: str, what: str, high: int) -> int:
    if not token.isdigit() or int(token) > high:
        raise _Bad(f"{what} must be a whole number from 0 to {high}, not {token}")
    return int(token)


def _expect(data: list[str], count: int, kind: str, shape: str) -> None:
    if len(data) != count:
        raise _Bad(f"{kind} takes {shape}")


def _rdata(kind: str, owner: str, data: list[str], origin: str) -> dict[str, Any]:
    """The type-specific fields of a record from its DATA tokens."""
    record: dict[str, Any] = {"type": kind, "name": owner}
    if kind in ("A", "AAAA"):
        _expect(data, 1, kind, "one address")
        address = data[0]
        if not (kind == "A" and address == REMOTE_ADDR):
            try:
                parsed = ipaddress.ip_address(address)
            except ValueError:
                raise _Bad(f"{address} is not an IPv{4 if kind == 'A' else 6} address") from None
            if parsed.version != (4 if kind == "A" else 6):
                raise _Bad(f"{address} is not an IPv{4 if kind == 'A' else 6} address")
        record["target"] = address
    elif kind in ("NS", "CNAME", "PTR"):
        _expect(data, 1, kind, "one domain name")
        record["target"] = _domain_name(data[0], origin)
        if kind == "CNAME" and not owner:
            raise _Bad("a CNAME cannot be at the zone apex (@)")
    elif kind == "MX":
        _expect(data, 2, kind, "a priority and a mail server (. for a Null MX)")
        record["priority"] = _integer(data[0], "priority", 255)
        record["target"] = "" if data[1] == "." else _domain_name(data[1], origin)
    elif kind == "SRV":
        _expect(data, 4, kind, "priority, weight, port and target")
        match = _SERVICE.fullmatch(owner)
        if not match:
            raise _Bad("an SRV record's name must be _service._protocol, such as _sip._tcp")
        record.update(
            name=owner,
            service=match.group(1),
            protocol=match.group(2),
            priority=_integer(data[0], "priority", 255),
            weight=_integer(data[1], "weight", 65535),
            port=_integer(data[2], "port", 65535),
            target=_domain_name(data[3], origin),
        )
    elif kind == "CAA":
        _expect(data, 3, kind, 'flags, a tag and a quoted value: 0 issue "letsencrypt.org"')
        if data[0] != "0":
            raise _Bad("CAA flags other than 0 cannot be stored")
        if data[1].lower() not in CAA_TAGS:
            raise _Bad(f"CAA tag must be one of {', '.join(CAA_TAGS)}, not {data[1]}")
        record.update(tag=data[1].lower(), target=unquote(data[2]))
    else:  # TXT
        if not data:
            raise _Bad("TXT takes a quoted text")
        record["target"] = "".join(unquote(t) for t in data)
    return record


def _ttl_and_type(tokens: list[str]) -> tuple[int | None, str, list[str]]:
    """TTL (if given), TYPE and DATA tokens; TTL and class may come in either order."""
    ttl: int | None = None
    index = 0
    while index < len(tokens) and index < 2:
        token = tokens[index]
        if token.isdigit() and ttl is None:
            ttl = int(token)
        elif token.upper() == "IN":
            pass
        elif token.upper() in ("CH", "HS", "CS"):
            raise _Bad(f"class {token.upper()} cannot be stored (only IN)")
        else:
            break
        index += 1
    if index >= len(tokens):
        raise _Bad("the record type is missing")
    kind = tokens[index].upper()
    if kind not in TYPES:
        if re.fullmatch(r"\d+[smhdwSMHDW]\w*", tokens[index]):
            raise _Bad(f"write the TTL in seconds, not {tokens[index]}")
        raise _Bad(f"{tokens[index]} cannot be mapped to a record type ({', '.join(TYPES)})")
    return ttl, kind, tokens[index + 1 :]


def parse_zone_text(text: str, domain: str) -> ParsedZone:
    """The record lines of ``text`` (a zone file of ``domain``) and the lines that failed."""
    origin = domain.rstrip(".").lower()
    zone = ParsedZone()
    previous: str | None = None
    default_ttl: int | None = None
    for number, line in enumerate(text.splitlines(), 1):
        record_id: int | None = None
        try:
            tokens, comment, _quoted = _split(line)
            match = _ID_COMMENT.search(comment)
            record_id = int(match.group(1)) if match else None
            if not tokens:
                continue
            directive = tokens[0].upper()
            if directive == "$ORIGIN":
                if len(tokens) != 2 or tokens[1].rstrip(".").lower() != origin:
                    raise _Bad(f"$ORIGIN must stay {origin}.")
                continue
            if directive == "$TTL":
                if len(tokens) != 2 or not tokens[1].isdigit():
                    raise _Bad("$TTL takes a number of seconds")
                default_ttl = int(tokens[1])
                continue
            if directive.startswith("$"):
                raise _Bad(f"{tokens[0]} is not supported")
            if line[:1].isspace():
                if previous is None:
                    raise _Bad("an indented line repeats the previous name, and there is none")
                owner, rest = previous, tokens
            else:
                owner, rest = _owner(tokens[0], origin), tokens[1:]
            previous = owner
            ttl, kind, data = _ttl_and_type(rest)
            record = _rdata(kind, owner, data, origin)
            if ttl is None:
                ttl = default_ttl
            if ttl is not None:
                record["ttl_sec"] = ttl
            zone.lines.append(ParsedLine(number, line, record, record_id))
        except _Bad as problem:
            zone.errors.append(LineError(number, line, str(problem), record_id))
    return zone
