"""Pydantic models of the API, one module per area (see ``tui.api.endpoints`` for the mapping)."""

from tui.models.base import ApiModel, RequestModel

__all__ = ["ApiModel", "RequestModel"]
