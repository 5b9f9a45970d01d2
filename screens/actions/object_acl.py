"""The object ACL action: its form opens on the object's current ACL.

The generic form could only guess the ACL (listings do not carry it), so this flow asks
``object_storage.objects.acl_view`` first and prefills the ``acl_update`` form with the answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from screens.actions.run import run_form
from tui.api.errors import CloudError

if TYPE_CHECKING:
    from screens.actions.context import ActionContext

ENDPOINTS: tuple[str, ...] = ("object_storage.objects.acl_view",)
"""Operations this module calls by name (the coverage test checks they are reachable)."""


async def edit_object_acl(ctx: ActionContext) -> bool:
    """Show the object's current ACL in the form, then send the change.

    Args:
        ctx: The action (an object of a bucket).

    Returns:
        True when the new ACL was accepted.
    """
    name = (ctx.item or {}).get("name")
    try:
        current = await ctx.call(endpoint="object_storage.objects.acl_view", query={"name": name})
    except CloudError as error:
        ctx.failed(error)
        return False
    return await run_form(ctx, {"name": name, "acl": current.get("acl")})
