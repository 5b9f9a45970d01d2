"""Deployment script UDF tags: parsing, malformed tags, form inputs, the body they make."""

from __future__ import annotations

from tui.models.compute import InstanceCreate
from tui.resources.forms import build_body, form_for
from tui.resources.udf import parse_udfs, preview
from tui.resources.udf_inputs import udf_form_fields
from tui.simulator.seeds.deployscripts import (
    BACKUP_AGENT_SCRIPT,
    DOCKER_SCRIPT,
    HARDENING_SCRIPT,
    LAMP_SCRIPT,
    POS_SCRIPT,
)

EXAMPLE = """#!/bin/bash
# <UDF name="db_password" label="MySQL root password" />
# <UDF name="site_name" label="Site name" default="My site" example="shop.example.com" />
# <UDF name="php_version" label="PHP version" oneOf="8.2,8.3" default="8.3" />
# <UDF NAME='modules' Label="Apache modules" manyof="ssl,rewrite,headers" default="ssl,headers">
echo "$SITE_NAME"
"""


def test_the_seeded_examples_parse_like_the_simulator_reads_them() -> None:
    from tui.simulator.handlers.deployscripts import parse_udf

    scripts = (LAMP_SCRIPT, DOCKER_SCRIPT, HARDENING_SCRIPT, BACKUP_AGENT_SCRIPT, POS_SCRIPT)
    for script in scripts:
        parsed = parse_udfs(script)
        assert parsed.problems == []
        assert [u.name for u in parsed.fields] == [u["name"] for u in parse_udf(script)]
    assert [u.name for u in parse_udfs(LAMP_SCRIPT).fields] == [
        "db_password",
        "site_name",
        "php_version",
    ]


def test_attributes_defaults_choices_and_secrets() -> None:
    parsed = parse_udfs(EXAMPLE)
    assert parsed.problems == []
    db, site, php, modules = parsed.fields
    assert (db.name, db.label, db.default, db.required, db.secret) == (
        "db_password",
        "MySQL root password",
        None,
        True,
        True,
    )
    assert site.default == "My site" and site.example == "shop.example.com" and not site.required
    assert php.oneof == ("8.2", "8.3") and php.default == "8.3"
    assert modules.manyof == ("ssl", "rewrite", "headers") and modules.line == 5
    assert not site.secret and not php.secret


def test_html_entities_and_single_quotes() -> None:
    parsed = parse_udfs("# <UDF name='greeting' label='Say &quot;hi&quot; &amp; bye' />")
    assert parsed.fields[0].label == 'Say "hi" & bye'


def test_malformed_tags_are_reported_and_left_out() -> None:
    script = "\n".join(
        [
            "#!/bin/sh",
            '# <UDF label="No name" />',
            '# <UDF name="bad-name" label="Dash" />',
            '# <UDF name="open" label="never closed"',
            '# <UDF name="x" label=unquoted />',
            '# <UDF name="both" oneof="a,b" manyof="c" />',
            '# <UDF name="wrongdefault" oneof="a,b" default="c" />',
            '# <UDF name="ok" label="Fine" />',
            '# <UDF name="ok" label="Again" />',
        ]
    )
    parsed = parse_udfs(script)
    assert [u.name for u in parsed.fields] == ["ok"]
    problems = "\n".join(parsed.problems)
    assert len(parsed.problems) == 7
    for expected in (
        "line 2: the UDF tag has no name",
        "line 3: UDF name 'bad-name'",
        "line 4: the UDF tag is not closed",
        "line 5: cannot read 'label=unquoted'",
        "line 6: UDF both has both oneOf and manyOf",
        "line 7: the default of UDF wrongdefault (c) is not one of its choices",
        "line 9: UDF ok is defined twice",
    ):
        assert expected in problems


def test_no_tags_and_text_that_only_mentions_udf() -> None:
    assert parse_udfs("#!/bin/sh\necho UDF <UDFX>\n").fields == []
    assert preview("#!/bin/sh\n") == "no user-defined fields"


def test_preview_hides_a_secret_default_and_lists_problems() -> None:
    text = preview('# <UDF name="api_token" label="Token" default="abc123" />\n# <UDF label="x" />')
    assert "abc123" not in text
    assert "api_token: Token · has a default · secret" in text
    assert "✖ line 2: the UDF tag has no name" in text


def test_form_fields_kinds_and_the_body_they_build() -> None:
    fields = udf_form_fields(parse_udfs(EXAMPLE).fields, "LAMP")
    kinds = {f.name: (f.kind, f.required) for f in fields}
    assert kinds == {
        "stackscript_data.db_password": ("secret", True),
        "stackscript_data.site_name": ("text", False),
        "stackscript_data.php_version": ("choice", False),
        "stackscript_data.modules": ("multi", False),
    }
    assert fields[0].group == "Script fields: LAMP"
    base = form_for(InstanceCreate)
    form = base.__class__(base.model, base.title, base.fields + fields)
    values = {
        "region": "us-east",
        "type": "std-2",
        "image": "compute/debian12",
        "root_pass": "S3cure-pass-word",
        "stackscript_id": 10450,
        "stackscript_data.db_password": "",
        "stackscript_data.site_name": "shop",
        "stackscript_data.php_version": "8.2",
        "stackscript_data.modules": ["ssl", "rewrite"],
    }
    missing = build_body(form, values)
    assert "stackscript_data.db_password" in missing.errors
    values["stackscript_data.db_password"] = "hunter2-long"
    result = build_body(form, values)
    assert result.ok, result
    assert result.body is not None
    assert result.body["stackscript_data"] == {
        "db_password": "hunter2-long",
        "site_name": "shop",
        "php_version": "8.2",
        "modules": "ssl,rewrite",
    }
