from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from tagtrack.access.dependencies import SESSION_COOKIE
from tagtrack.auth.schemas import LoginRequest
from tagtrack.auth.service import AuthService, SignedInSession
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.core.web_security import client_address, request_is_https
from tagtrack.kit.wiring import provide
from tagtrack.organizations.host import HostOrganizations
from tagtrack.users.schemas import CurrentUser

router = APIRouter(prefix="/auth", tags=["auth"])


Hosts = Annotated[HostOrganizations, Depends(provide(HostOrganizations))]


async def host_org_id(request: Request, hosts: HostOrganizations) -> str | None:
    """The organization the request's subdomain names, if any."""
    org = await hosts.by_subdomain(request.headers.get("host", ""))
    return org.id if org else None


def set_session_cookie(request: Request, response: Response, signed_in: SignedInSession) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        signed_in.token,
        max_age=signed_in.max_age,
        httponly=True,
        samesite="lax",
        secure=request_is_https(request),
        path="/",
    )


Service = Annotated[AuthService, Depends(provide(AuthService))]


@router.post(
    "/login",
    response_model=CurrentUser,
    responses={429: ERROR_RESPONSES[400] | {"description": "rate limited"}, **ERROR_RESPONSES},
)
async def login(
    body: LoginRequest,
    request: Request,
    response: Response,
    service: Service,
    hosts: Hosts,
) -> CurrentUser:
    """Sign in; sets a new HttpOnly session cookie. Failures: 'rate limited', 'account locked'.

    On an organization's subdomain (`acme.` in the host) only that organization's users sign in.
    """
    client = client_address(request) or "unknown"
    signed_in = await service.login(
        body.username,
        body.password,
        client,
        request.cookies.get(SESSION_COOKIE),
        host_org_id=await host_org_id(request, hosts),
    )
    set_session_cookie(request, response, signed_in)
    return signed_in.user


@router.post("/logout", status_code=204)
async def logout(request: Request, response: Response, service: Service) -> None:
    """Revoke the session and clear its cookie."""
    await service.logout(request.cookies.get(SESSION_COOKIE))
    response.delete_cookie(SESSION_COOKIE, path="/")
