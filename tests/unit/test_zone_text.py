"""Zone text <-> records, and the plan an edited zone text makes (adds, changes, deletes, errors)."""

from __future__ import annotations

from typing import Any

import pytest

from tui.dns.zone_plan import plan_zone, text_with_errors
from tui.dns.zone_text import parse_zone_text, render_zone_text, unquote

ZONE = "example.com"

RECORDS: list[dict[str, Any]] = [
    {"id": 1, "type": "A", "name": "", "target": "203.0.113.10", "ttl_sec": 3600},
    {"id": 2, "type": "A", "name": "www", "target": "203.0.113.10", "ttl_sec": 3600},
    {"id": 3, "type": "AAAA", "name": "www", "target": "2001:db8::10", "ttl_sec": 3600},
    {"id": 4, "type": "MX", "name": "", "target": "mail.example.com", "priority": 10,
     "ttl_sec": 3600},
    {"id": 5, "type": "CNAME", "name": "shop", "target": "shops.example.net", "ttl_sec": 300},
    {"id": 6, "type": "TXT", "name": "", "target": 'v=spf1 "quoted" \\ -all', "ttl_sec": 3600},
    {"id": 7, "type": "SRV", "name": "_sip._tcp", "service": "_sip.", "protocol": "_tcp",
     "target": "sip.example.com", "priority": 10, "weight": 5, "port": 5060, "ttl_sec": 3600},
    {"id": 8, "type": "CAA", "name": "", "tag": "issue", "target": "letsencrypt.org",
     "ttl_sec": 86400},
    {"id": 9, "type": "NS", "name": "eu", "target": "ns1.eu.example.net", "ttl_sec": 86400},
    {"id": 10, "type": "PTR", "name": "10", "target": "www.example.com", "ttl_sec": 86400},
]  # fmt: skip


def text() -> str:
    return render_zone_text(ZONE, RECORDS)


def edit(old: str, new: str, source: str | None = None) -> str:
    source = source if source is not None else text()
    assert old in source, old
    return source.replace(old, new, 1)


def line_of(record_id: int, source: str | None = None) -> str:
    return next(
        line for line in (source or text()).splitlines() if line.endswith(f"; id {record_id}")
    )


def test_the_rendered_text_parses_back_to_no_change() -> None:
    plan = plan_zone(ZONE, RECORDS, text())
    assert plan.empty and plan.errors == []
    assert plan.counts() == "no change"


def test_every_record_has_one_line_with_its_id_and_the_origin_is_set() -> None:
    rendered = text()
    assert "$ORIGIN example.com." in rendered
    for record in RECORDS:
        assert rendered.count(f"; id {record['id']}\n") == 1
    assert '"v=spf1 \\"quoted\\" \\\\ -all"' in line_of(6)
    assert "_sip._tcp" in line_of(7) and "10 5 5060 sip.example.com." in line_of(7)


def test_added_lines_become_creates_with_only_their_types_fields() -> None:
    source = text() + "\n".join(
        [
            "api 300 IN A 198.51.100.7",
            "        IN AAAA 2001:db8::7",  # indented: the previous name again
            "@ IN MX 20 mx2",  # relative target: completed with the zone
            "_xmpp._udp 3600 IN SRV 5 0 5269 xmpp.example.com.",
            '@ 3600 IN CAA 0 iodef "mailto:security@example.com"',
            '_dmarc IN TXT "v=DMARC1; p=none" " more"',
        ]
    )
    plan = plan_zone(ZONE, RECORDS, source)
    assert plan.errors == []
    bodies = [c.body for c in plan.changes]
    assert [c.op for c in plan.changes] == ["+"] * 6
    assert bodies == [
        {"type": "A", "name": "api", "target": "198.51.100.7", "ttl_sec": 300},
        {"type": "AAAA", "name": "api", "target": "2001:db8::7"},
        {"type": "MX", "name": "", "target": "mx2.example.com", "priority": 20},
        {
            "type": "SRV",
            "service": "xmpp",
            "protocol": "udp",
            "target": "xmpp.example.com",
            "priority": 5,
            "weight": 0,
            "port": 5269,
            "ttl_sec": 3600,
        },
        {"type": "CAA", "tag": "iodef", "target": "mailto:security@example.com", "ttl_sec": 3600},
        {"type": "TXT", "name": "_dmarc", "target": "v=DMARC1; p=none more"},
    ]
    assert plan.changes[0].summary() == "+ api 300 IN A 198.51.100.7"
    assert plan.counts() == "6 to create"


def test_changed_lines_become_updates_of_the_changed_fields_only() -> None:
    source = edit("203.0.113.10  ; id 2", "203.0.113.99  ; id 2")
    source = edit(line_of(5), "shop 3600 IN CNAME shops.example.org.  ; id 5", source)
    source = edit(line_of(7), "_sip._tcp 3600 IN SRV 10 5 5061 sip.example.com.  ; id 7", source)
    plan = plan_zone(ZONE, RECORDS, source)
    assert plan.errors == []
    assert [(c.op, c.record_id, c.body) for c in plan.changes] == [
        ("~", 2, {"target": "203.0.113.99"}),
        ("~", 5, {"target": "shops.example.org", "ttl_sec": 3600}),
        ("~", 7, {"port": 5061}),
    ]
    assert plan.changes[0].detail == "target 203.0.113.10 -> 203.0.113.99"
    assert plan.changes[0].summary().startswith("~ www 3600 IN A 203.0.113.99")


def test_a_line_without_ttl_keeps_the_records_ttl() -> None:
    source = edit(line_of(2), "www IN A 203.0.113.10  ; id 2")
    assert plan_zone(ZONE, RECORDS, source).empty


def test_removed_lines_become_deletes_and_deletes_come_first() -> None:
    source = edit(line_of(9) + "\n", "")
    source = edit(line_of(3) + "\n", "", source) + "new IN A 192.0.2.1\n"
    source = edit("203.0.113.10  ; id 1", "203.0.113.11  ; id 1", source)
    plan = plan_zone(ZONE, RECORDS, source)
    assert [(c.op, c.record_id) for c in plan.changes] == [
        ("-", 3),
        ("-", 9),
        ("~", 1),
        ("+", None),
    ]
    assert plan.changes[0].summary() == "- www 3600 IN AAAA 2001:db8::10"
    assert plan.counts() == "1 to create, 1 to update, 2 to delete"


def test_a_type_change_deletes_and_creates() -> None:
    source = edit(line_of(2), "www 3600 IN CNAME example.com.  ; id 2")
    plan = plan_zone(ZONE, RECORDS, source)
    assert [(c.op, c.record_id) for c in plan.changes] == [("-", 2), ("+", None)]
    assert plan.changes[1].body == {
        "type": "CNAME",
        "name": "www",
        "target": "example.com",
        "ttl_sec": 3600,
    }
    assert plan.changes[0].detail == "becomes CNAME"
    # If the CNAME is refused, the deleted A record can be put back as it was.
    assert plan.changes[1].restore == {
        "type": "A",
        "name": "www",
        "target": "203.0.113.10",
        "ttl_sec": 3600,
    }


def test_restoring_an_srv_or_apex_mx_uses_the_create_fields() -> None:
    from tui.dns.zone_plan import restore_body

    assert restore_body(RECORDS[6]) == {
        "type": "SRV",
        "service": "sip",
        "protocol": "tcp",
        "target": "sip.example.com",
        "priority": 10,
        "weight": 5,
        "port": 5060,
        "ttl_sec": 3600,
    }
    assert restore_body(RECORDS[3])["name"] == ""


def test_a_record_written_without_its_id_is_unchanged() -> None:
    source = edit(line_of(4), "@ 3600 IN MX 10 mail.example.com.")
    assert plan_zone(ZONE, RECORDS, source).empty


def test_a_null_mx_is_a_dot() -> None:
    source = edit(line_of(4), "@ 3600 IN MX 0 .  ; id 4")
    plan = plan_zone(ZONE, RECORDS, source)
    assert [(c.op, c.body) for c in plan.changes] == [("~", {"target": "", "priority": 0})]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("host IN HINFO pc linux", "HINFO cannot be mapped to a record type"),
        ("@ IN SOA ns1. host. 1 2 3 4 5", "SOA cannot be mapped"),
        ("bad IN A 300.1.1.1", "300.1.1.1 is not an IPv4 address"),
        ("bad IN A 2001:db8::1", "2001:db8::1 is not an IPv4 address"),
        ("bad IN AAAA 192.0.2.1", "192.0.2.1 is not an IPv6 address"),
        ("bad IN MX mail.example.com.", "MX takes a priority and a mail server"),
        ("bad IN MX 300 mail.example.com.", "priority must be a whole number from 0 to 255"),
        ("sip IN SRV 1 2 3 x.example.com.", "SRV record's name must be _service._protocol"),
        ('@ IN CAA 128 issue "ca.example"', "CAA flags other than 0"),
        ('@ IN CAA 0 policy "x"', "CAA tag must be one of issue, issuewild, iodef"),
        ("@ IN CNAME example.net.", "CNAME cannot be at the zone apex"),
        ("www.other.org. IN A 192.0.2.1", "www.other.org. is outside the zone example.com"),
        ("www 1h IN A 192.0.2.1", "write the TTL in seconds, not 1h"),
        ("www CH A 192.0.2.1", "class CH cannot be stored"),
        ('www IN TXT "open', "a quoted string is not closed"),
        ("www IN A ( 192.0.2.1 )", "spread over several lines"),
        ("$ORIGIN example.org.", "$ORIGIN must stay example.com."),
        ("$INCLUDE other.zone", "$INCLUDE is not supported"),
        ("www IN", "the record type is missing"),
    ],
)
def test_lines_that_cannot_be_mapped_are_reported_and_nothing_is_applied_for_them(
    line: str, reason: str
) -> None:
    plan = plan_zone(ZONE, RECORDS, text() + line + "\n")
    assert plan.empty
    assert len(plan.errors) == 1
    error = plan.errors[0]
    assert reason in error.reason and error.text == line
    assert error.number == len(text().splitlines()) + 1


def test_a_broken_line_keeps_its_record_instead_of_deleting_it() -> None:
    source = edit(line_of(2), "www 3600 IN A 203.0.113.999  ; id 2")
    source = edit("203.0.113.10  ; id 1", "203.0.113.11  ; id 1", source)
    plan = plan_zone(ZONE, RECORDS, source)
    assert [(c.op, c.record_id) for c in plan.changes] == [("~", 1)]  # no delete of 2
    assert [(e.record_id, e.reason) for e in plan.errors] == [
        (2, "203.0.113.999 is not an IPv4 address")
    ]


def test_lines_in_error_are_marked_in_the_text_reopened_and_the_notes_do_not_pile_up() -> None:
    source = edit(line_of(2), "www 3600 IN A 203.0.113.999  ; id 2")
    plan = plan_zone(ZONE, RECORDS, source)
    marked = text_with_errors(source, plan)
    lines = marked.splitlines()
    assert lines[0].startswith("; ! 1 problem(s)")
    at = lines.index("; ! 203.0.113.999 is not an IPv4 address")
    assert lines[at + 1] == "www 3600 IN A 203.0.113.999  ; id 2"
    # The notes are comments: the same plan again, and a second round does not add more.
    again = plan_zone(ZONE, RECORDS, marked)
    assert [e.reason for e in again.errors] == [e.reason for e in plan.errors]
    assert text_with_errors(marked, again).count("not an IPv4 address") == 1
    fixed = marked.replace("203.0.113.999", "203.0.113.99")
    assert text_with_errors(fixed, plan_zone(ZONE, RECORDS, fixed)) == source.replace(
        "203.0.113.999", "203.0.113.99"
    )


def test_unknown_and_repeated_ids_are_errors() -> None:
    source = text() + "x 300 IN A 192.0.2.1  ; id 999\n" + line_of(2) + "\n"
    plan = plan_zone(ZONE, RECORDS, source)
    assert plan.empty
    assert [e.reason for e in plan.errors] == [
        "no record with id 999 in this zone",
        "id 2 is on an earlier line too",
    ]


def test_owner_names_absolute_relative_and_apex() -> None:
    parsed = parse_zone_text(
        "www.example.com. IN A 192.0.2.1\nexample.com. IN A 192.0.2.2\n@ IN A 192.0.2.3\n", ZONE
    )
    assert [line.record["name"] for line in parsed.lines] == ["www", "", ""]


def test_txt_escapes_decode() -> None:
    assert unquote('"a\\"b\\\\c\\065"') == 'a"b\\cA'
    assert unquote('"caf\\195\\169"') == "café"


def test_ttl_directive_applies_to_following_lines() -> None:
    parsed = parse_zone_text("$TTL 300\nwww IN A 192.0.2.1\n", ZONE)
    assert parsed.lines[0].record["ttl_sec"] == 300


def test_a_name_the_api_would_refuse_fails_in_the_plan_and_keeps_its_record() -> None:
    source = edit(line_of(2), "bad$ 3600 IN A 203.0.113.10  ; id 2")
    source += "new$ IN A 192.0.2.1\n"
    source += '@ IN CAA 0 issue "not a domain"\n'
    source += "ok IN A 192.0.2.1\n"
    plan = plan_zone(ZONE, RECORDS, source)
    assert [(c.op, c.body) for c in plan.changes] == [
        ("+", {"type": "A", "name": "ok", "target": "192.0.2.1"})
    ]  # record 2 is neither renamed nor deleted
    reasons = [(e.record_id, e.reason) for e in plan.errors]
    assert reasons[0] == (2, reasons[1][1])
    assert reasons[1][0] is None and reasons[1][1].startswith("name must be a host name")
    assert reasons[2][1].startswith("target must be the issuer's domain")
    # Records the API already holds are not judged when their lines do not change them.
    assert plan_zone(ZONE, RECORDS, text()).errors == []
