from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request, Response

from tagtrack.auth.dependencies import SESSION_COOKIE
from tagtrack.auth.repository import AuthRepository, FailureRecorder
from tagtrack.auth.schemas import CurrentUser, LoginRequest, SsoAvailability
from tagtrack.auth.service import AuthService
from tagtrack.core.config import Settings
from tagtrack.core.db import DbSession
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.roles.repository import RoleRepository
from tagtrack.users.repository import UserRepository

router = APIRouter(prefix="/auth", tags=["auth"])


def _service(request: Request, session: DbSession) -> AuthService:
    settings: Settings = request.app.state.settings
    return AuthService(
        AuthRepository(session),
        RoleRepository(session),
        UserRepository(session),
        FailureRecorder(request.app.state.sessionmaker),
        settings,
    )


Service = Annotated[AuthService, Depends(_service)]


@router.post(
    "/login",
    response_model=CurrentUser,
    responses={429: ERROR_RESPONSES[400] | {"description": "rate limited"}, **ERROR_RESPONSES},
)
async def login(
    body: LoginRequest, request: Request, response: Response, service: Service
) -> CurrentUser:
    """Sign in; sets a new HttpOnly session cookie. Failures: 'rate limited', 'account locked'."""
    client = request.client.host if request.client else "unknown"
    signed_in = await service.login(
        body.username, body.password, client, request.cookies.get(SESSION_COOKIE)
    )
    response.set_cookie(
        SESSION_COOKIE,
        signed_in.token,
        max_age=signed_in.max_age,
        httponly=True,
        samesite="lax",
        secure=request.app.state.settings.cookie_secure,
        path="/",
    )
    return signed_in.user


@router.post("/logout", status_code=204)
async def logout(request: Request, response: Response, service: Service) -> None:
    """Revoke the session and clear its cookie."""
    await service.logout(request.cookies.get(SESSION_COOKIE))
    response.delete_cookie(SESSION_COOKIE, path="/")


@router.get("/{kind}/available", response_model=SsoAvailability)
async def sso_available(kind: Literal["okta", "entra"], service: Service) -> SsoAvailability:
    """Whether single sign-on of this kind is offered on the login page."""
    return SsoAvailability(available=await service.sso_available(kind))
