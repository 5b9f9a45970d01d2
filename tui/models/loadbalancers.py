"""Load balancers, their port configs and backend nodes.

Response models (:class:`LoadBalancer`, :class:`LbConfig`, :class:`LbNode`) are tolerant. Request
models (:class:`LoadBalancerCreate`, :class:`LoadBalancerUpdate`, :class:`LbConfigCreate`,
:class:`LbConfigUpdate`, :class:`LbNodeCreate`, :class:`LbNodeUpdate`) carry the reference's
limits and its cross-field rules as model validators.

:class:`LbNodeUpdate`: the reference does not show the node update body. It accepts the node's
own fields (``label``, ``address``, ``mode``, ``weight``), every one optional, with the same
limits as on create; anything else is refused.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, Field, SecretStr, StringConstraints, model_validator

from tui.models.base import ApiModel, RequestModel
from tui.models.pem import KEEP_STORED, PemCertificate, PemPrivateKey
from tui.models.rules import Part, When

REDACTED = KEEP_STORED
"""What responses show instead of a stored certificate or private key."""

THROTTLE_MAX = 20
CHECK_ATTEMPTS_MAX = 30
CHECK_TIMEOUT_MAX = 30
CHECK_INTERVAL_MIN, CHECK_INTERVAL_MAX = 2, 3600
DEFAULT_PORT = 80
DEFAULT_CHECK_TIMEOUT = 30
DEFAULT_CHECK_INTERVAL = 31
WEIGHT_MAX = 255

Algorithm = Literal["roundrobin", "leastconn", "source"]
HealthCheck = Literal["none", "connection", "http", "http_body"]
CipherSuite = Literal["recommended", "legacy"]
Protocol = Literal["http", "https", "tcp"]
ProxyProtocol = Literal["none", "v1", "v2"]
Stickiness = Literal["none", "table", "http_cookie"]
NodeMode = Literal["accept", "reject", "drain", "backup"]

PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
)
"""Where backends may live: RFC 1918 for IPv4, unique local addresses for IPv6."""


def _printable(value: str) -> str:
    """Refuse control characters (a label is shown on one line)."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ValueError("must not contain control characters")
    return value


def split_address(value: str) -> tuple[str, int | None]:
    """Split a backend address into host and optional port.

    Accepted forms: ``192.168.1.5``, ``192.168.1.5:8080``, ``fd00::5`` and ``[fd00::5]:8080``.

    Raises:
        ValueError: The text is not an address in one of those forms, or the port is not
            1..65535.
    """
    host, port_text = value, None
    if value.startswith("["):
        host, sep, rest = value[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            raise ValueError("must be an IP address, optionally with :port")
        port_text = rest[1:] if rest else None
    elif value.count(":") == 1:
        host, port_text = value.split(":")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise ValueError("must be an IP address, optionally with :port") from None
    if port_text is None:
        return host, None
    if not (port_text.isascii() and port_text.isdigit()) or not 1 <= int(port_text) <= 65535:
        raise ValueError("port must be 1..65535")
    return host, int(port_text)


def check_private_address(value: str) -> str:
    """Validate a backend address: a private IP, optionally with ``:port``.

    Raises:
        ValueError: Not an address, or not a private one.
    """
    host, _port = split_address(value)
    addr = ipaddress.ip_address(host)
    if not any(addr in net for net in PRIVATE_NETWORKS):
        raise ValueError("must be a private address (10/8, 172.16/12, 192.168/16 or fc00::/7)")
    return value


def with_port(address: Any, port: Any) -> Any:
    """A backend address with ``port``: ``192.168.1.5:8080``, ``[fd00::5]:8080``.

    An address that is not one is returned as it is (the model's own check names it).

    Raises:
        ValueError: The address already holds another port.
    """
    text = str(address).strip()
    try:
        host, given = split_address(text)
    except ValueError:
        return address
    if given is not None:
        if given == port:
            return text
        raise ValueError(f"differs from the port the address already holds ({given})")
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def address_and_port(value: Any) -> tuple[Any, Any]:
    """A stored backend address split into its host and its port (None when it has none)."""
    try:
        return split_address(str(value))
    except ValueError:
        return value, None


NODE_PARTS: Mapping[str, Part] = {
    "port": Part(
        into="address",
        title="Backend port",
        help="Port the backend listens on, 1 to 65535; empty: the config's own port.",
        join=with_port,
        split=address_and_port,
        ge=1,
        le=65535,
    )
}
"""A node's port is asked beside its address and sent inside it (``ip:port``)."""


LbLabel = Annotated[str, StringConstraints(min_length=3, max_length=32), AfterValidator(_printable)]
"""A node's label: 3 to 32 characters on one line."""
BalancerLabel = Annotated[
    str, StringConstraints(min_length=3, max_length=32, pattern=r"^[A-Za-z0-9_-]{3,32}$")
]
"""A balancer's label, the reference's pattern: 3 to 32 ASCII letters, digits, ``-`` or ``_``."""
NodeAddress = Annotated[str, AfterValidator(check_private_address)]
Throttle = Annotated[int, Field(ge=0, le=THROTTLE_MAX)]
Port = Annotated[int, Field(ge=1, le=65535)]
CheckAttempts = Annotated[int, Field(ge=1, le=CHECK_ATTEMPTS_MAX)]
CheckTimeout = Annotated[int, Field(ge=1, le=CHECK_TIMEOUT_MAX)]
CheckInterval = Annotated[int, Field(ge=CHECK_INTERVAL_MIN, le=CHECK_INTERVAL_MAX)]
Weight = Annotated[int, Field(ge=1, le=WEIGHT_MAX)]


# -- responses ------------------------------------------------------------------------------


class LbTransfer(ApiModel):
    """Traffic through a balancer this month, in MB."""

    in_: float | None = Field(default=None, alias="in")
    """Received, MB."""
    out: float | None = None
    """Sent, MB."""
    total: float | None = None
    """Both directions, MB."""


class LoadBalancer(ApiModel):
    """A load balancer: public addresses in one region, spreading traffic over backends."""

    id: int | None = None
    """Load balancer id."""
    label: str | None = None
    """Label, 3..32 characters, unique on the account."""
    region: str | None = None
    """Region id."""
    hostname: str | None = None
    """DNS name of the balancer's public address."""
    ipv4: str | None = None
    """Public IPv4 address."""
    ipv6: str | None = None
    """Public IPv6 address."""
    client_conn_throttle: int | None = None
    """New connections per second allowed from one client (0: no throttling)."""
    tags: list[str] = Field(default_factory=list)
    """Tags."""
    transfer: LbTransfer | None = None
    """Traffic this month."""
    created: str | None = None
    """Creation time (UTC)."""
    updated: str | None = None
    """Last change (UTC)."""


class LbNodesStatus(ApiModel):
    """How many backends of a config pass and fail their health checks."""

    up: int | None = None
    """Backends answering health checks."""
    down: int | None = None
    """Backends failing health checks."""


class LbConfig(ApiModel):
    """One port of a load balancer: protocol, balancing, health checks and TLS."""

    id: int | None = None
    """Config id."""
    loadbalancer_id: int | None = None
    """The balancer this config belongs to."""
    port: int | None = None
    """Port the balancer listens on, 1..65535."""
    protocol: str | None = None
    """``http``, ``https`` or ``tcp``."""
    algorithm: str | None = None
    """``roundrobin``, ``leastconn`` or ``source``."""
    stickiness: str | None = None
    """``none``, ``table`` or ``http_cookie``."""
    check: str | None = None
    """Health check: ``none``, ``connection``, ``http`` or ``http_body``."""
    check_interval: int | None = None
    """Seconds between health checks."""
    check_timeout: int | None = None
    """Seconds to wait for a health check answer."""
    check_attempts: int | None = None
    """Failed checks before a backend counts as down."""
    check_path: str | None = None
    """URL path requested by HTTP health checks."""
    check_body: str | None = None
    """Text the ``http_body`` check expects in the answer."""
    check_passive: bool | None = None
    """Take a backend out of rotation when it answers 5xx."""
    proxy_protocol: str | None = None
    """``none``, ``v1`` or ``v2`` (TCP only)."""
    cipher_suite: str | None = None
    """``recommended`` or ``legacy`` (insecure)."""
    ssl_cert: str | None = None
    """Always ``<REDACTED>`` when a certificate is stored, else empty."""
    ssl_key: str | None = None
    """Always ``<REDACTED>`` when a key is stored, else empty."""
    ssl_commonname: str | None = None
    """Common name of the stored certificate."""
    ssl_fingerprint: str | None = None
    """SHA-256 fingerprint of the stored certificate."""
    nodes_status: LbNodesStatus | None = None
    """Backends up and down."""


class LbNode(ApiModel):
    """A backend of a port config."""

    id: int | None = None
    """Node id."""
    config_id: int | None = None
    """The config this node belongs to."""
    loadbalancer_id: int | None = None
    """The balancer this node belongs to."""
    label: str | None = None
    """Label, 3..32 characters."""
    address: str | None = None
    """Private address, optionally with ``:port``."""
    status: str | None = None
    """Health: ``UP``, ``DOWN`` or ``unknown`` (open set)."""
    mode: str | None = None
    """``accept``, ``reject``, ``drain`` or ``backup``."""
    weight: int | None = None
    """Share of traffic, 1..255."""


# -- requests -------------------------------------------------------------------------------


class LbNodeCreate(RequestModel):
    """A new backend for a port config."""

    choices_from: ClassVar[Mapping[str, str]] = {"address": "private_address"}
    parts: ClassVar[Mapping[str, Part]] = NODE_PARTS

    address: NodeAddress
    """Private IP address of the backend, chosen among your instances' (for example
    192.168.10.5); the backend port below is sent with it."""
    label: LbLabel
    """Name of the backend, 3 to 32 characters."""
    mode: NodeMode | None = None
    """accept: takes traffic (default); reject: no traffic; drain: no new connections, existing
    ones continue; backup: traffic only while every accept node is down."""
    weight: Weight | None = None
    """Share of traffic, 1 to 255 (higher gets more; default 50)."""


class LbNodeUpdate(RequestModel):
    """Changes to a backend (every field optional; the reference does not show this body)."""

    choices_from: ClassVar[Mapping[str, str]] = {"address": "private_address"}
    parts: ClassVar[Mapping[str, Part]] = NODE_PARTS

    label: LbLabel | None = None
    """Name of the backend, 3 to 32 characters."""
    address: NodeAddress | None = None
    """Private IP address, chosen among your instances'; the backend port below is sent
    with it."""
    mode: NodeMode | None = None
    """accept, reject, drain (finish current connections) or backup."""
    weight: Weight | None = None
    """Share of traffic, 1 to 255."""


def _reveal(secret: SecretStr | None) -> str:
    """The text of an optional secret ('' when absent)."""
    return secret.get_secret_value() if secret is not None else ""


def _blame(fields_set: set[str], preferred: str, other: str) -> str:
    """The field a cross-field error names: the preferred one unless only the other was set."""
    return other if other in fields_set and preferred not in fields_set else preferred


_CHECKS = ("connection", "http", "http_body")


def config_rules(*, creating: bool) -> dict[str, When]:
    """Which config fields the protocol and the health check ask for (the spec's config table).

    Args:
        creating: A new config: https then requires the certificate and key, and an http check
            its path (an update keeps the stored ones).
    """
    https = When("protocol", ("https",), required=creating, unset="http")
    return {
        # protocol: "http and tcp do not accept ssl_cert or ssl_key; https requires both".
        "ssl_cert": https,
        "ssl_key": https,
        "cipher_suite": When("protocol", ("https",), unset="http"),
        # proxy_protocol: "v1 and v2 require tcp".
        "proxy_protocol": When("protocol", ("tcp",), unset="http"),
        # check: none (default) needs nothing; http and http_body a path, http_body a body.
        "check_interval": When("check", _CHECKS, unset="none"),
        "check_timeout": When("check", _CHECKS, unset="none"),
        "check_attempts": When("check", _CHECKS, unset="none"),
        "check_path": When("check", ("http", "http_body"), required=creating, unset="none"),
        "check_body": When("check", ("http_body",), required=creating, unset="none"),
    }


class _ConfigFields(RequestModel):
    """The fields a port config accepts (create and update alike)."""

    port: Port | None = None
    """Port the balancer listens on, 1 to 65535 (default 80); unique per balancer."""
    protocol: Protocol | None = None
    """http (default), https (needs certificate and key) or tcp."""
    algorithm: Algorithm | None = None
    """roundrobin (default), leastconn (fewest connections) or source (same client, same
    backend)."""
    stickiness: Stickiness | None = None
    """none (default), table (same client address, same backend) or http_cookie (a cookie set
    by the balancer; http and https only)."""
    check: HealthCheck | None = None
    """Health check: none (default), connection (a TCP connection succeeds), http (a 2xx/3xx
    answer on the check path) or http_body (the answer contains the expected body)."""
    check_interval: CheckInterval | None = None
    """Seconds between checks, 2 to 3600 (default 31); more than the timeout."""
    check_timeout: CheckTimeout | None = None
    """Seconds to wait for an answer, 1 to 30 (default 30); less than the interval."""
    check_attempts: CheckAttempts | None = None
    """Failed checks before a backend counts as down, 1 to 30 (default 3)."""
    check_path: str | None = None
    """URL path the http and http_body checks request, for example /healthz."""
    check_body: str | None = None
    """Text the http_body check expects in the answer."""
    check_passive: bool = True
    """Take a backend out of rotation when it answers 5xx (default on)."""
    proxy_protocol: ProxyProtocol | None = None
    """Pass the client address to backends: none (default), v1 (text) or v2 (binary); v1 and v2
    need protocol tcp."""
    cipher_suite: CipherSuite | None = None
    """TLS ciphers: recommended (default) or legacy (insecure, for old clients)."""
    ssl_cert: PemCertificate | None = None
    """PEM certificate (plus chain) for https. Line breaks may be written as \\n."""
    ssl_key: PemPrivateKey | None = None
    """PEM private key matching the certificate, unencrypted, for https."""

    def _check_pairs(self, *, creating: bool) -> None:
        """Cross-field rules over the set fields (plus the defaults when ``creating``).

        Raises:
            ValueError: A rule is broken; the message names the field to fix.
        """
        given = set(self.model_fields_set)
        protocol = self.protocol or ("http" if creating else None)
        timeout = self.check_timeout or (DEFAULT_CHECK_TIMEOUT if creating else None)
        interval = self.check_interval or (DEFAULT_CHECK_INTERVAL if creating else None)
        if timeout is not None and interval is not None and timeout >= interval:
            field = _blame(given, "check_timeout", "check_interval")
            raise ValueError(f"{field}: check_timeout must be less than check_interval")
        if protocol is not None and protocol != "tcp" and self.proxy_protocol in ("v1", "v2"):
            field = _blame(given, "proxy_protocol", "protocol")
            raise ValueError(f"{field}: proxy_protocol {self.proxy_protocol} needs protocol tcp")
        if protocol == "tcp" and self.stickiness == "http_cookie":
            field = _blame(given, "stickiness", "protocol")
            raise ValueError(f"{field}: http_cookie stickiness needs protocol http or https")
        tls = {"ssl_cert": self.ssl_cert or "", "ssl_key": _reveal(self.ssl_key)}
        if protocol in ("http", "tcp"):
            for name, text in tls.items():
                # The redaction placeholder means "keep the stored value": harmless here.
                if text and text != REDACTED:
                    raise ValueError(f"{name}: protocol {protocol} does not accept {name}")
        if protocol == "https" and creating:
            for name, text in tls.items():
                if not text:
                    raise ValueError(f"{name}: protocol https requires {name}")
        if self.check in ("http", "http_body") and creating and not self.check_path:
            raise ValueError(f"check_path: check {self.check} needs check_path")
        if self.check == "http_body" and creating and not self.check_body:
            raise ValueError("check_body: check http_body needs check_body")
        if self.check_path and not self.check_path.startswith("/"):
            raise ValueError("check_path: must start with /")


class LbConfigCreate(_ConfigFields):
    """A new port config, optionally with its first backends."""

    shown_when: ClassVar[Mapping[str, When]] = config_rules(creating=True)

    nodes: list[LbNodeCreate] | None = None
    """Backends to add at once (a config created with a new balancer needs at least one)."""

    @model_validator(mode="after")
    def _rules(self) -> LbConfigCreate:
        self._check_pairs(creating=True)
        return self


class LbConfigUpdate(_ConfigFields):
    """Changes to a port config. Switching to http or tcp drops a stored certificate and key."""

    shown_when: ClassVar[Mapping[str, When]] = config_rules(creating=False)

    @model_validator(mode="after")
    def _rules(self) -> LbConfigUpdate:
        self._check_pairs(creating=False)
        return self


class LbTransferUpdate(RequestModel):
    """This month's traffic counters, in MB (the reference accepts them in an update)."""

    in_: Annotated[float, Field(ge=0)] | None = Field(default=None, alias="in")
    """Received, MB."""
    out: Annotated[float, Field(ge=0)] | None = None
    """Sent, MB."""
    total: Annotated[float, Field(ge=0)] | None = None
    """Both directions, MB; must equal in plus out when given."""


class LoadBalancerCreate(RequestModel):
    """A new load balancer (charges apply)."""

    never_null: ClassVar[frozenset[str]] = frozenset({"label"})

    region: Annotated[str, StringConstraints(min_length=1)]
    """Region id, for example us-east (backends are reached over its private network)."""
    label: BalancerLabel | None = None
    """3 to 32 ASCII letters, digits, dashes or underscores, unique on the account (default:
    generated)."""
    client_conn_throttle: Throttle | None = None
    """New connections per second allowed from one client, 0 to 20 (0, the default, disables
    throttling)."""
    configs: list[LbConfigCreate] | None = None
    """Port configs to create at once, each with a unique port and at least one node."""
    tags: list[str] | None = None
    """Tags (only unrestricted users may set them)."""

    @model_validator(mode="after")
    def _configs(self) -> LoadBalancerCreate:
        seen: set[int] = set()
        for index, config in enumerate(self.configs or []):
            port = config.port if config.port is not None else DEFAULT_PORT
            if port in seen:
                raise ValueError(f"configs[{index}].port: port {port} is used twice")
            seen.add(port)
            if not config.nodes:
                raise ValueError(f"configs[{index}].nodes: a new balancer's config needs a node")
        return self


class LoadBalancerUpdate(RequestModel):
    """Changes to a load balancer."""

    never_null: ClassVar[frozenset[str]] = frozenset({"label"})

    label: BalancerLabel | None = None
    """3 to 32 ASCII letters, digits, dashes or underscores, unique on the account."""
    client_conn_throttle: Throttle | None = None
    """New connections per second allowed from one client, 0 to 20 (0 disables throttling)."""
    tags: list[str] | None = None
    """Tags; replaces the whole list (only unrestricted users may change them)."""
    transfer: LbTransferUpdate | None = None
    """This month's traffic counters (rarely needed)."""
