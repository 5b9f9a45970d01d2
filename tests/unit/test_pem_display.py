"""Certificates and keys are shown line by line: the text on the screen (and copied from it) is
the PEM itself, never its lines joined with spaces."""

from __future__ import annotations

from cryptography import x509

from tests.simulator.test_loadbalancers_rules import make_pair
from tui.resources.databases import MONGODB_SSL
from tui.resources.format import field_display
from tui.resources.profile import PROFILE

CERT, _KEY = make_pair("ca.example")


def _ca_field_text(value: str) -> str:
    field = MONGODB_SSL.sections[0].fields[0]
    return field_display({"ca_certificate": value}, field)


def test_the_ca_certificate_is_shown_as_a_valid_pem() -> None:
    text = _ca_field_text(CERT)
    assert text.splitlines() == CERT.strip().splitlines()  # every line whole, none joined
    assert " " not in text.replace("BEGIN CERTIFICATE", "").replace("END CERTIFICATE", "")
    x509.load_pem_x509_certificate(text.encode())  # the screen's text is a certificate


def test_a_pem_sent_with_written_line_breaks_is_shown_with_real_ones() -> None:
    one_line = CERT.strip().replace("\n", "\\n")
    text = _ca_field_text(one_line)
    assert text.splitlines() == CERT.strip().splitlines()
    x509.load_pem_x509_certificate(text.encode())


def test_the_profile_keys_are_shown_one_per_line() -> None:
    keys = ["ssh-ed25519 AAAA first@a", "ssh-ed25519 BBBB second@b"]
    field = next(f for s in PROFILE.sections for f in s.fields if f.key == "authorized_keys")
    assert field_display({"authorized_keys": keys}, field) == "\n".join(keys)
