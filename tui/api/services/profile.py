"""The acting user's profile: settings, authorized apps, trusted devices, grants, logins, phone
verification and per-client preferences."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from tui.api.pagination import Page
from tui.api.services.base import Service, operation
from tui.models.profile import (
    AuthorizedApp,
    Grants,
    Login,
    PhoneCodeSend,
    PhoneVerify,
    Profile,
    ProfileUpdate,
    TrustedDevice,
)


class ProfileService(Service):
    """Typed access to the profile endpoints."""

    # -- profile ----------------------------------------------------------------------------

    @operation("profile.view")
    async def get(self) -> Profile:
        """GET /profile

        Works with any valid token, whatever its scopes.
        """
        return await self._one("profile.view", Profile)

    @operation("profile.update")
    async def update(self, body: ProfileUpdate | None = None, **fields: Any) -> Profile:
        """PUT /profile

        Args:
            body: The changes; or pass its fields as keyword arguments.
            **fields: Fields of :class:`ProfileUpdate` when ``body`` is None.

        Returns:
            The updated profile.
        """
        request = body if body is not None else ProfileUpdate(**fields)
        return await self._one("profile.update", Profile, body=request)

    # -- authorized apps --------------------------------------------------------------------

    @operation("profile.apps.list")
    async def list_apps(self, page: int = 1, page_size: int | None = None) -> Page[AuthorizedApp]:
        """GET /profile/apps

        Args:
            page: Page number, 1-based.
            page_size: Items per page.
        """
        return await self._page("profile.apps.list", page=page, page_size=page_size)

    @operation("profile.apps.list")
    def iter_apps(self) -> AsyncIterator[Page[AuthorizedApp]]:
        """GET /profile/apps

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("profile.apps.list")

    @operation("profile.apps.view")
    async def get_app(self, app_id: int) -> AuthorizedApp:
        """GET /profile/apps/{appId}

        Args:
            app_id: App authorization id.
        """
        return await self._one("profile.apps.view", AuthorizedApp, {"appId": app_id})

    @operation("profile.apps.revoke")
    async def revoke_app(self, app_id: int) -> None:
        """DELETE /profile/apps/{appId}

        The app's token stops working.

        Args:
            app_id: App authorization id.
        """
        await self._call("profile.apps.revoke", {"appId": app_id})

    # -- trusted devices --------------------------------------------------------------------

    @operation("profile.devices.list")
    async def list_devices(
        self, page: int = 1, page_size: int | None = None
    ) -> Page[TrustedDevice]:
        """GET /profile/devices

        Args:
            page: Page number, 1-based.
            page_size: Items per page.
        """
        return await self._page("profile.devices.list", page=page, page_size=page_size)

    @operation("profile.devices.list")
    def iter_devices(self) -> AsyncIterator[Page[TrustedDevice]]:
        """GET /profile/devices

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("profile.devices.list")

    @operation("profile.devices.view")
    async def get_device(self, device_id: int) -> TrustedDevice:
        """GET /profile/devices/{deviceId}

        Args:
            device_id: Trusted device id.
        """
        return await self._one("profile.devices.view", TrustedDevice, {"deviceId": device_id})

    @operation("profile.devices.revoke")
    async def revoke_device(self, device_id: int) -> None:
        """DELETE /profile/devices/{deviceId}

        The device must log in again (with two-factor authentication when enabled).

        Args:
            device_id: Trusted device id.
        """
        await self._call("profile.devices.revoke", {"deviceId": device_id})

    # -- grants and logins ------------------------------------------------------------------

    @operation("profile.grants")
    async def get_grants(self) -> Grants | None:
        """GET /profile/grants

        Works with any valid token.

        Returns:
            The restricted user's grants, or None for an unrestricted user (the API answers 204
            with no body: such a user may do everything).
        """
        data = await self._call("profile.grants")
        if not data:
            return None
        return Grants.model_validate(data)

    @operation("profile.logins.list")
    async def list_logins(self, page: int = 1, page_size: int | None = None) -> Page[Login]:
        """GET /profile/logins

        Successful logins of the last 90 days.

        Args:
            page: Page number, 1-based.
            page_size: Items per page.
        """
        return await self._page("profile.logins.list", page=page, page_size=page_size)

    @operation("profile.logins.list")
    def iter_logins(self) -> AsyncIterator[Page[Login]]:
        """GET /profile/logins

        Every page, fetched concurrently, yielded in order.
        """
        return self._iter("profile.logins.list")

    @operation("profile.logins.view")
    async def get_login(self, login_id: int) -> Login:
        """GET /profile/logins/{loginId}

        Args:
            login_id: Login id.
        """
        return await self._one("profile.logins.view", Login, {"loginId": login_id})

    # -- phone ------------------------------------------------------------------------------

    @operation("profile.phone.send")
    async def send_phone_code(self, iso_code: str, phone_number: str) -> None:
        """POST /profile/phone-number

        Sends a one-time code by SMS, valid for 10 minutes; asking again before it expires sends
        the same code. To change a verified number, delete it first.

        Args:
            iso_code: Two-letter ISO 3166 country code, for example ``US``.
            phone_number: The number to verify.
        """
        request = PhoneCodeSend(iso_code=iso_code, phone_number=phone_number)
        await self._call("profile.phone.send", body=request)

    @operation("profile.phone.verify")
    async def verify_phone(self, otp_code: str) -> None:
        """POST /profile/phone-number/verify

        Only the user who asked for the code may verify it; success sets
        ``verified_phone_number``.

        Args:
            otp_code: The code received by SMS.
        """
        await self._call("profile.phone.verify", body=PhoneVerify(otp_code=otp_code))

    @operation("profile.phone.delete")
    async def delete_phone(self) -> None:
        """DELETE /profile/phone-number

        Removes the verified number and opts out of SMS.
        """
        await self._call("profile.phone.delete")

    # -- preferences ------------------------------------------------------------------------

    @operation("profile.preferences.view")
    async def get_preferences(self) -> dict[str, Any]:
        """GET /profile/preferences

        Returns:
            The preferences object of the OAuth client that generated the token.
        """
        data = await self._call("profile.preferences.view")
        return dict(data) if isinstance(data, dict) else {}

    @operation("profile.preferences.update")
    async def update_preferences(self, preferences: Mapping[str, Any]) -> dict[str, Any]:
        """PUT /profile/preferences

        Replaces the client's preferences.

        Args:
            preferences: Any JSON object.

        Returns:
            The stored preferences.
        """
        data = await self._call("profile.preferences.update", body=dict(preferences))
        return dict(data) if isinstance(data, dict) else {}
