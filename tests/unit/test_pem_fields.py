"""PEM-valued fields: declared on the models, read by the form builder, checked before sending
with the same words the simulator answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.simulator.test_loadbalancers_rules import make_pair
from tui.api.client import ApiClient
from tui.api.errors import ApiError
from tui.models import pem
from tui.models.loadbalancers import LbConfigCreate, LoadBalancerCreate
from tui.models.object_storage import BucketSslUpload
from tui.resources.forms import build_body, form_for
from tui.simulator import Simulator
from tui.simulator.handlers import loadbalancers as lb_sim

CERT, KEY = make_pair("pem.example")
FIRST_LINE_ONLY = KEY.splitlines()[0]  # what a one-line input kept of a pasted key


@pytest.mark.parametrize(
    ("model", "cert", "key"),
    [
        (LbConfigCreate, "ssl_cert", "ssl_key"),
        (LoadBalancerCreate, "configs.0.ssl_cert", "configs.0.ssl_key"),
        (BucketSslUpload, "certificate", "private_key"),
    ],
)
def test_pem_fields_are_declared_and_read_as_multi_line(model: Any, cert: str, key: str) -> None:
    form = form_for(model)
    assert form.field(cert).pem == "certificate"
    assert form.field(cert).kind == "multiline"
    assert form.field(key).pem == "private key"
    assert form.field(key).kind == "secret"  # masked, never prefilled
    assert "paste the PEM private key or a file path" in form.field(key).hint


def _https(**fields: Any) -> dict[str, Any]:
    return {"protocol": "https", "port": "443", **fields}


def test_a_key_cut_to_its_first_line_is_refused_locally_with_the_expected_shape() -> None:
    form = form_for(LbConfigCreate)
    result = build_body(form, _https(ssl_cert=CERT, ssl_key=FIRST_LINE_ONLY))
    assert result.body is None
    message = result.errors["ssl_key"]
    assert "must be a PEM private key: -----BEGIN ... PRIVATE KEY-----" in message
    assert "-----END ... PRIVATE KEY-----" in message


def test_a_private_key_in_the_certificate_field_is_refused_locally() -> None:
    form = form_for(LbConfigCreate)
    result = build_body(form, _https(ssl_cert=CERT + KEY, ssl_key=KEY))
    assert "must not contain a private key" in result.errors["ssl_cert"]


def test_a_key_kept_on_one_line_is_sent_with_its_line_breaks() -> None:
    form = form_for(LbConfigCreate)
    one_line = KEY.strip().replace("\n", "\\n")
    result = build_body(form, _https(ssl_cert=CERT, ssl_key=one_line))
    assert result.errors == {}
    assert result.body is not None
    assert result.body["ssl_key"] == KEY.strip()
    assert result.body["ssl_cert"] == CERT.strip()


def test_a_file_path_is_read_instead(tmp_path: Path) -> None:
    (tmp_path / "site.key").write_text(KEY)
    (tmp_path / "site.crt").write_text(CERT)
    form = form_for(BucketSslUpload)
    values = {"certificate": str(tmp_path / "site.crt"), "private_key": str(tmp_path / "site.key")}
    result = build_body(form, values)
    assert result.body == {"certificate": CERT.strip(), "private_key": KEY.strip()}


SHAPES = [
    "",
    "hello",
    FIRST_LINE_ONLY,
    CERT.splitlines()[0],
    CERT,
    KEY,
    CERT + KEY,
    KEY.replace("PRIVATE KEY", "EC PRIVATE KEY"),
    CERT.strip().replace("\n", "\\n"),
    KEY.strip().replace("\n", "\\n"),
]


@pytest.mark.parametrize("text", SHAPES)
def test_the_simulator_refuses_the_shapes_the_form_refuses_in_the_same_words(text: str) -> None:
    for local, remote, field in (
        (pem.certificate_blocks, lb_sim.parse_certificates, "ssl_cert"),
        (pem.private_key_block, lb_sim.parse_private_key, "ssl_key"),
    ):
        try:
            local(text)
            local_error = None
        except ValueError as exc:
            local_error = f"{field} {exc}"
        try:
            remote(text)
            remote_error = None
        except ValueError as exc:
            remote_error = str(exc)
        if local_error is not None:
            assert remote_error == local_error
        else:
            # Well shaped: the simulator may still find the block unreadable, never misshaped.
            assert remote_error is None or "cannot be read" in remote_error


async def test_a_body_the_form_accepts_is_accepted_by_the_simulator(
    client: ApiClient, sim: Simulator
) -> None:
    balancer = next(iter(sim.store.table("loadbalancers.balancers").values()))
    form = form_for(LbConfigCreate)
    pasted = KEY.strip().replace("\n", "\\n")  # as the masked key input keeps a paste
    result = build_body(form, _https(port="8443", ssl_cert=CERT, ssl_key=pasted))
    assert result.body is not None
    params = {"loadbalancerId": balancer["id"]}
    made = await client.call("loadbalancers.configs.create", params, body=result.body, model=dict)
    assert made["ssl_commonname"] == "pem.example"
    with pytest.raises(ApiError) as refused:
        bad = {**result.body, "port": 8444, "ssl_key": FIRST_LINE_ONLY}
        await client.call("loadbalancers.configs.create", params, body=bad, model=dict)
    assert "must be a PEM private key: -----BEGIN ... PRIVATE KEY-----" in str(refused.value)
