"""Headless API layer: client (the one typed API surface), endpoint registry, errors, retries."""

from tui.api.client import ApiClient, InsecureBaseUrl, validate_base_url
from tui.api.endpoints import REGISTRY, Endpoint, endpoint
from tui.api.errors import (
    ApiError,
    CloudError,
    Conflict,
    ConnectFailure,
    ConnectionDropped,
    FieldError,
    Forbidden,
    Invalid,
    NotFound,
    RateLimited,
    ServerError,
    TimeoutFailure,
    TransportFailure,
    Unauthorized,
)
from tui.api.pagination import Page
from tui.api.retry import RetryPolicy

__all__ = [
    "REGISTRY",
    "ApiClient",
    "ApiError",
    "CloudError",
    "Conflict",
    "ConnectFailure",
    "ConnectionDropped",
    "Endpoint",
    "FieldError",
    "Forbidden",
    "InsecureBaseUrl",
    "Invalid",
    "NotFound",
    "Page",
    "RateLimited",
    "RetryPolicy",
    "ServerError",
    "TimeoutFailure",
    "TransportFailure",
    "Unauthorized",
    "endpoint",
    "validate_base_url",
]
