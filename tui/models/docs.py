"""A model field's help text: its ``description``, or the docstring written under it.

Request models document their fields with attribute docstrings, which forms show as help.
pydantic can copy them into ``description`` when a class is made (``use_attribute_docstrings``),
but on this Python it finds each class's source by looking up the module of every frame, and
its first lookup resolves the path of every module loaded (~25 ms in a running app, on the
event loop when the first model is imported, then more per models module). Here the docstrings
are read from the class's own source the first time a form asks.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from functools import cache
from typing import Any

from tui.models.base import RequestModel


def field_help(model: Any, name: str) -> str:
    """The help of field ``name`` of pydantic model ``model``: its ``description`` when one is
    given, else (for a request model) the docstring under the field in the class (or a base
    class) that declares it.

    Args:
        model: A pydantic model class.
        name: The field's name (not its alias).

    Returns:
        The text as written (callers reflow it); "" when there is none.
    """
    info = model.model_fields[name]
    if info.description:
        return str(info.description)
    return attribute_docs(model).get(name, "")


@cache
def attribute_docs(model: type) -> dict[str, str]:
    """Every attribute docstring of ``model`` and its request-model bases (a subclass's own
    win)."""
    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        # Only request models' docstrings are help; a response model's are documentation.
        if isinstance(cls, type) and issubclass(cls, RequestModel) and cls is not RequestModel:
            docs.update(_own_docs(cls))
    return docs


def _own_docs(cls: type) -> dict[str, str]:
    """The docstrings of the attributes ``cls`` itself declares (a string right after
    ``name: type [= value]``)."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return {}
    found: dict[str, str] = {}
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.ClassDef):
        return found
    for declared, after in zip(node.body, node.body[1:], strict=False):
        if (
            isinstance(declared, ast.AnnAssign)
            and isinstance(declared.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[declared.target.id] = inspect.cleandoc(after.value.value)
    return found
