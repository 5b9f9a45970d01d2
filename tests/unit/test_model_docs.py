"""Form help from attribute docstrings, read from the source when a form asks: the same text
pydantic's own extraction gives, for every field of every model."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from pydantic import BaseModel, Field
from pydantic._internal._docs_extraction import extract_docstrings_from_cls

import tui.models
from tui.models.base import RequestModel
from tui.models.docs import field_help


class _Base(RequestModel):
    name: str = "x"
    """The name,
    on two lines."""

    size: int = Field(1, description="Given explicitly.")
    """Not this one: the description wins."""

    bare: int = 0


class _Child(_Base):
    extra: bool = False
    """Only the child has it."""


def test_the_docstring_under_a_field_is_its_help_and_subclasses_inherit_it() -> None:
    assert field_help(_Base, "name") == "The name,\non two lines."
    assert field_help(_Base, "size") == "Given explicitly."
    assert field_help(_Base, "bare") == ""
    assert field_help(_Child, "name") == "The name,\non two lines."
    assert field_help(_Child, "extra") == "Only the child has it."


def test_every_models_field_has_the_help_pydantic_would_extract() -> None:
    checked = 0
    for info in pkgutil.iter_modules(tui.models.__path__, "tui.models."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if not issubclass(cls, BaseModel) or cls.__module__ != module.__name__:
                continue
            # What pydantic gave with ``use_attribute_docstrings`` (request models only).
            expected: dict[str, str] = {}
            for base in reversed(cls.__mro__):
                if issubclass(base, RequestModel) and base is not RequestModel:
                    expected.update(extract_docstrings_from_cls(base, use_inspect=True))
            for name, field in cls.model_fields.items():
                assert field_help(cls, name) == (field.description or expected.get(name, "")), (
                    f"{cls.__name__}.{name}"
                )
                checked += 1
    assert checked > 500  # the walk found the models


class _Answer(BaseModel):
    shown: str = ""
    """Documentation of a response, not help."""


def test_a_response_models_docstrings_are_not_help() -> None:
    assert field_help(_Answer, "shown") == ""
