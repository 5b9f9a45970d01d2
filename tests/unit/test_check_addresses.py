"""Address ownership for the dangling-reference rules: one address, however it is spelled."""

from __future__ import annotations

from tui.check.addresses import holds, owned_addresses, parse_address


def test_an_ipv6_address_is_held_whatever_its_spelling() -> None:
    owned = owned_addresses(
        [{"ipv4": ["192.0.2.2"], "ipv6": "2001:db8:100::f03c:95ff:fe37:d3c8/128"}], []
    )
    for spelling in (
        "2001:db8:100:0:f03c:95ff:fe37:d3c8",
        "2001:DB8:100::F03C:95FF:FE37:D3C8",
        "2001:0db8:0100:0000:f03c:95ff:fe37:d3c8",
    ):
        address = parse_address(spelling)
        assert address is not None and holds(owned, address), spelling
    other = parse_address("2001:db8:100::1")
    assert other is not None and not holds(owned, other)
    address = parse_address("192.0.2.2")
    assert address is not None and holds(owned, address)
