"""The matchers behind the relations table: one key per address, range or name."""

from __future__ import annotations

from tui.relations.matchers import (
    address,
    address_of_host_port,
    bucket_grant,
    bucket_itself,
    dns_name,
    host_of_network,
    network,
    network_covers,
    same_id,
)


def test_every_spelling_of_an_address_is_one_key() -> None:
    assert address("2001:db8::1") == address("2001:0db8:0000::0001") == address("2001:db8::1/128")
    assert address("192.0.2.5") == address(" 192.0.2.5 ") == address("192.0.2.5/32")
    assert address("192.0.2.5") != address("192.0.2.50")
    assert address("192.0.2.0/24") is None  # a range is no address
    assert address("www.example.com") is None
    assert address(None) is None and address(5) is None


def test_a_node_address_is_matched_by_its_host() -> None:
    assert address_of_host_port("192.168.128.7:80") == address("192.168.128.7")
    assert address_of_host_port("192.168.128.7") == address("192.168.128.7")
    assert address_of_host_port("[2001:db8::7]:443") == address("2001:db8::7")
    assert address_of_host_port("2001:db8::7") == address("2001:db8::7")
    assert address_of_host_port("nonsense:80") is None


def test_ranges_cover_their_addresses_only() -> None:
    net = network("203.0.113.0/24")
    assert net is not None
    assert network_covers(net, address("203.0.113.77"))
    assert not network_covers(net, address("203.0.114.1"))
    assert not network_covers(net, address("2001:db8::1"))  # another version
    assert network_covers(network("0.0.0.0/1"), address("98.51.100.1"))
    # A range open to every address links to no instance in particular.
    assert network("0.0.0.0/0") is None and network("::/0") is None
    assert network_covers(network("2001:db8::/32"), address("2001:db8:1::5/128"))
    # A single address is a one-host range, looked up directly.
    assert host_of_network(network("192.0.2.10")) == address("192.0.2.10")
    assert host_of_network(net) is None
    assert network("not a range") is None


def test_names_ids_and_buckets() -> None:
    assert dns_name("LB-1.Example.NET.") == dns_name("lb-1.example.net") == "lb-1.example.net"
    assert dns_name("") is None
    assert same_id("51200") == same_id(51200) == 51200
    assert same_id("21000-abc") == "21000-abc"
    assert same_id(True) is None and same_id(None) is None
    grant = {"cluster": "us-east-1", "bucket_name": "logs", "permissions": "read_only"}
    assert bucket_grant(grant) == bucket_itself({"cluster": "us-east-1", "label": "logs"})
    assert bucket_grant({"cluster": "us-east-1"}) is None
