from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import RedirectResponse

from tagtrack.access.dependencies import MaybeSignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.auth.router import set_session_cookie
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.core.web_security import client_address, request_is_https
from tagtrack.kit.wiring import provide
from tagtrack.sso.schemas import SsoAvailability, SsoSettingsRead, SsoSettingsWrite
from tagtrack.sso.service import SsoFailed, SsoService, callback_uri, login_error_path

router = APIRouter(tags=["sso"], responses=ERROR_RESPONSES)

# Binds a sign-in to the browser that started it: the callback's state must match it.
STATE_COOKIE = "tagtrack_sso_state"
STATE_COOKIE_PATH = "/api/auth"


Service = Annotated[SsoService, Depends(provide(SsoService))]
Kind = Literal["okta", "entra"]


def _host(request: Request) -> str:
    return request.headers.get("host", "")


@router.get("/auth/{kind}/available", response_model=SsoAvailability)
async def sso_available(
    kind: Kind, request: Request, principal: MaybeSignedIn, service: Service
) -> SsoAvailability:
    """Whether the login page offers this kind for the organization of the request's subdomain
    (for a signed-in caller: their own organization).

    `available`: enabled for the organization and configured; `enabled`: enabled by a super
    admin (the SSO Settings screen is offered then).
    """
    org_id = principal.org_id if principal else None
    return await service.availability(kind, _host(request), org_id)


@router.get("/auth/{kind}/redirect", response_class=RedirectResponse, status_code=302)
async def sso_redirect(
    kind: Kind,
    request: Request,
    service: Service,
    referer: Annotated[str, Query(max_length=500, description="Path to open afterwards")] = "",
) -> RedirectResponse:
    """Send the browser to the provider (code flow, PKCE S256, state and nonce)."""
    settings = request.app.state.settings
    redirect_uri = callback_uri(settings.public_url, request.url.scheme, _host(request), kind)
    try:
        start = await service.begin(kind, _host(request), redirect_uri, referer)
    except SsoFailed as failed:
        return RedirectResponse(login_error_path(failed.message), status_code=302)
    response = RedirectResponse(start.url, status_code=302)
    response.set_cookie(
        STATE_COOKIE,
        start.state,
        max_age=600,
        httponly=True,
        samesite="lax",
        secure=request_is_https(request),
        path=STATE_COOKIE_PATH,
    )
    return response


@router.get("/auth/{kind}/callback", response_class=RedirectResponse, status_code=302)
async def sso_callback(
    kind: Kind,
    request: Request,
    service: Service,
    code: Annotated[str, Query(max_length=2000)] = "",
    state: Annotated[str, Query(max_length=200)] = "",
    error: Annotated[str, Query(max_length=200)] = "",
    error_description: Annotated[str, Query(max_length=500)] = "",
) -> RedirectResponse:
    """Where the provider returns: sign in and open the console, or go to /login?error=..."""
    client = client_address(request)
    try:
        done = await service.finish(
            kind,
            _host(request),
            client,
            state=state,
            browser_state=request.cookies.get(STATE_COOKIE, ""),
            code=code,
            error=error,
            error_description=error_description,
        )
    except SsoFailed as failed:
        response = RedirectResponse(login_error_path(failed.message), status_code=302)
    else:
        response = RedirectResponse(done.path, status_code=302)
        set_session_cookie(request, response, done.session)
    response.delete_cookie(STATE_COOKIE, path=STATE_COOKIE_PATH)
    return response


@router.get("/ssosettings", response_model=SsoSettingsRead)
async def get_sso_settings(
    request: Request,
    principal: Annotated[Principal, allowed("ssosettings", "create")],
    service: Service,
) -> SsoSettingsRead:
    """The organization's single sign-on settings; the client secret is never sent back."""
    return await service.read(principal, request.url.scheme, _host(request))


@router.put("/ssosettings", response_model=SsoSettingsRead)
async def save_sso_settings(
    body: SsoSettingsWrite,
    request: Request,
    principal: Annotated[Principal, allowed("ssosettings", "modify")],
    service: Service,
) -> SsoSettingsRead:
    """Replace the single sign-on settings; an empty oktaClientSecret keeps the stored one."""
    return await service.save(principal, body, request.url.scheme, _host(request))
