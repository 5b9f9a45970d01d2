"""Deployment scripts: public ones for everyone, the account's private ones with a token.

Choices where the reference is silent:

* "Own" scripts are those whose ``username`` is a user of the account (``users`` table); others'
  scripts are visible only when public. Restricted users see public scripts and the account's
  private ones they hold a ``deployscript`` grant on, and change only those with ``read_write``.
* Changing or deleting someone else's (public) script: 403. Deleting a public script of the
  account: 409 (public scripts cannot be deleted). Making a public script private: 400, field
  ``is_public``.
* ``images`` entries are ``any/all`` or ids of images the caller can see; ``script`` must start
  with ``#!``, and every ``<UDF ... />`` tag in it needs a ``name``. The tags are parsed into
  ``user_defined_fields`` (attribute names lowercased: ``oneOf`` -> ``oneof``).
* ``deployments_total`` and ``deployments_active`` start at 0; the compute area may raise them.
"""

from __future__ import annotations

import html
import re
from typing import Any

from tui.simulator.auth import Principal
from tui.simulator.context import Collection, Ctx, public
from tui.simulator.errors import conflict, forbidden, not_found
from tui.simulator.handlers.images import IMAGES, can_see_image, drop_grants
from tui.simulator.registry import handles
from tui.simulator.store import Store
from tui.simulator.validate import Check

SCRIPTS = "deployscripts.scripts"
ANY_IMAGE = "any/all"
LABEL_MIN, LABEL_MAX = 3, 128
ID_START = 10450
FIELDS = ("label", "images", "script", "description", "rev_note", "is_public")

_UDF_TAG = re.compile(r"<UDF\b([^>]*?)/?>", re.IGNORECASE)
_UDF_ATTR = re.compile(r"""([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def parse_udf(script: str) -> list[dict[str, str]]:
    """The ``<UDF name="..." label="..." default="..." />`` tags of a script, in order.

    Args:
        script: Script text.

    Returns:
        One dict per tag: its attributes, names lowercased, values HTML-unescaped.
    """
    fields: list[dict[str, str]] = []
    for tag in _UDF_TAG.finditer(script):
        attrs: dict[str, str] = {}
        for match in _UDF_ATTR.finditer(tag.group(1)):
            value = match.group(2) if match.group(2) is not None else match.group(3)
            attrs[match.group(1).lower()] = html.unescape(value or "")
        fields.append(attrs)
    return fields


def new_script(
    store: Store,
    *,
    username: str,
    label: str,
    images: list[str],
    script: str,
    now_iso: str,
    description: str = "",
    rev_note: str = "",
    is_public: bool = False,
    deployments_total: int = 0,
    deployments_active: int = 0,
) -> dict[str, Any]:
    """Build and store a script record."""
    script_id = store.next_id("deployscripts.script", start=ID_START)
    record = {
        "id": script_id,
        "username": username,
        "label": label,
        "description": description,
        "images": list(images),
        "is_public": is_public,
        "rev_note": rev_note,
        "script": script,
        "user_defined_fields": parse_udf(script),
        "deployments_total": deployments_total,
        "deployments_active": deployments_active,
        "created": now_iso,
        "updated": now_iso,
    }
    return store.put(SCRIPTS, script_id, record)


def is_own(store: Store, record: dict[str, Any]) -> bool:
    """True when the script belongs to a user of the account."""
    return str(record.get("username")) in store.table("users")


def can_see_script(store: Store, principal: Principal, record: dict[str, Any]) -> bool:
    """Public scripts for anyone; the account's private ones with a token, within grants."""
    if record.get("is_public"):
        return True
    if not principal.authenticated or not is_own(store, record):
        return False
    return principal.can_read("deployscript", record["id"])


def _script(ctx: Ctx) -> dict[str, Any]:
    record = ctx.store.get(SCRIPTS, ctx.param_int("deployscriptId"))
    if record is None or not can_see_script(ctx.store, ctx.principal, record):
        raise not_found("Deployment script not found")
    return record


def _writable(ctx: Ctx) -> dict[str, Any]:
    record = _script(ctx)
    if not is_own(ctx.store, record):
        raise forbidden("You can change only your own deployment scripts")
    ctx.principal.require_write("deployscript", record["id"])
    return record


# -- validation -----------------------------------------------------------------------------


def _check_images(ctx: Ctx, v: Check, *, required: bool) -> Any:
    if not v.has("images"):
        if required:
            v.fail("images", "images is required")
        return None
    images = v.string_list("images")
    if not isinstance(images, list):
        return None
    if not images:
        v.fail("images", "images must name at least one image (or any/all)")
        return None
    for image_id in images:
        if image_id == ANY_IMAGE:
            continue
        image = ctx.store.get(IMAGES, image_id)
        if image is None or not can_see_image(ctx.principal, image):
            v.fail("images", f"{image_id} is not an image id you can use (or any/all)")
    return images


def _check_script(v: Check, *, required: bool) -> Any:
    script = v.string("script", required=required, min_len=1)
    if not isinstance(script, str) or not script:
        return script
    if not script.startswith("#!"):
        v.fail("script", "script must start with an interpreter line such as #!/bin/bash")
    for i, udf in enumerate(parse_udf(script), start=1):
        if not udf.get("name"):
            v.fail("script", f'UDF tag {i} needs a name attribute: <UDF name="..." label="..." />')
    return script


def _check_fields(ctx: Ctx, v: Check, *, create: bool) -> dict[str, Any]:
    v.unknown(FIELDS, nullable=("description", "rev_note"))
    return {
        "label": v.string("label", required=create, min_len=LABEL_MIN, max_len=LABEL_MAX),
        "images": _check_images(ctx, v, required=create),
        "script": _check_script(v, required=create),
        "description": v.string("description", nullable=True),
        "rev_note": v.string("rev_note", nullable=True),
        "is_public": v.boolean("is_public"),
    }


# -- handlers -------------------------------------------------------------------------------


@handles("deployscripts.list")
def scripts_list(ctx: Ctx) -> Collection:
    """Public scripts; with a token also the account's private ones the caller may see."""
    return Collection(
        [public(r) for r in ctx.store.rows(SCRIPTS) if can_see_script(ctx.store, ctx.principal, r)]
    )


@handles("deployscripts.create")
def scripts_create(ctx: Ctx) -> dict[str, Any]:
    """Create a script owned by the caller."""
    p = ctx.principal
    p.require_global("add_deployscripts")
    v = Check(ctx.body)
    f = _check_fields(ctx, v, create=True)
    v.done()
    record = new_script(
        ctx.store,
        username=p.username,
        label=f["label"],
        images=f["images"],
        script=f["script"],
        now_iso=ctx.now_iso,
        description=f["description"] or "",
        rev_note=f["rev_note"] or "",
        is_public=bool(f["is_public"]),
    )
    p.add_grant("deployscript", record["id"], record["label"])
    return public(record)


@handles("deployscripts.view")
def scripts_view(ctx: Ctx) -> dict[str, Any]:
    """One script with its content."""
    return public(_script(ctx))


@handles("deployscripts.update")
def scripts_update(ctx: Ctx) -> dict[str, Any]:
    """Change one of the account's scripts; publishing cannot be undone."""
    record = _writable(ctx)
    v = ctx.check()
    f = _check_fields(ctx, v, create=False)
    if record["is_public"] and f["is_public"] is False:
        v.fail("is_public", "a public deployment script cannot be made private")
    v.done()
    for key in ("label", "images", "script", "is_public"):
        if f[key] is not None:
            record[key] = f[key]
    for key in ("description", "rev_note"):
        if v.has(key):
            record[key] = f[key] or ""
    if f["script"] is not None:
        record["user_defined_fields"] = parse_udf(f["script"])
    record["updated"] = ctx.now_iso
    ctx.store.put(SCRIPTS, record["id"], record)
    return public(record)


@handles("deployscripts.delete")
def scripts_delete(ctx: Ctx) -> None:
    """Delete a private script of the account."""
    record = _writable(ctx)
    if record["is_public"]:
        raise conflict("Public deployment scripts cannot be deleted")
    ctx.store.delete(SCRIPTS, record["id"])
    drop_grants(ctx.store, "deployscript", record["id"])
