from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response

from tagtrack.access.dependencies import SignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.lists import Listing, set_total
from tagtrack.kit.wiring import provide
from tagtrack.users.schemas import (
    CurrentUser,
    EmailCheck,
    EmailCheckResult,
    MeUpdate,
    UserCreate,
    UsernameRead,
    UserRead,
    UserUpdate,
)
from tagtrack.users.service import UserService

router = APIRouter(tags=["users"], responses=ERROR_RESPONSES)


Service = Annotated[UserService, Depends(provide(UserService))]
CanView = Annotated[Principal, allowed("users", "create")]
CanCreate = Annotated[Principal, allowed("users", "create")]
CanModify = Annotated[Principal, allowed("users", "modify")]
CanDelete = Annotated[Principal, allowed("users", "delete")]


@router.get("/users/me", response_model=CurrentUser)
async def get_me(principal: SignedIn, service: Service) -> CurrentUser:
    """The signed-in user."""
    return await service.me(principal)


@router.put("/users/me", response_model=CurrentUser)
async def update_me(body: MeUpdate, principal: SignedIn, service: Service) -> CurrentUser:
    """Edit one's own name, username and password (a new password ends every session)."""
    return await service.update_me(principal, body)


@router.get("/users", response_model=list[UserRead])
async def list_users(
    principal: CanView, service: Service, params: Listing, response: Response
) -> list[UserRead]:
    """Users of the organization; sort by name or username; total in x-total-count."""
    users, total = await service.list_page(principal, params)
    set_total(response, total)
    return users


@router.get("/users/{user_id}", response_model=UserRead)
async def get_user(user_id: str, principal: CanView, service: Service) -> UserRead:
    """One user of the organization."""
    return await service.get(principal, user_id)


@router.post("/users", response_model=UserRead, status_code=201)
async def create_user(
    body: UserCreate,
    principal: CanCreate,
    service: Service,
    email: Annotated[bool, Query(description="Send an activation email instead")] = False,
) -> UserRead:
    """Create a user with a password, or with email=true mail them a link to choose one."""
    return await service.create(principal, body, email)


@router.put("/users", response_model=UserRead)
async def update_user(body: UserUpdate, principal: CanModify, service: Service) -> UserRead:
    """Update a user (the body carries its id); a new password ends its sessions."""
    return await service.update(principal, body)


@router.delete("/users/{user_id}", status_code=204)
async def delete_user(user_id: str, principal: CanDelete, service: Service) -> None:
    """Delete a user; one's own account cannot be deleted."""
    await service.delete(principal, user_id)


@router.get("/usernames", response_model=list[UsernameRead])
async def usernames(principal: SignedIn, service: Service) -> list[UsernameRead]:
    """Usernames of the organization (uploader look-ups and the like)."""
    return await service.usernames(principal)


@router.post("/check/email", response_model=EmailCheckResult)
async def check_email(body: EmailCheck, principal: CanCreate, service: Service) -> EmailCheckResult:
    """Whether a username (email) is already taken."""
    return EmailCheckResult(exists=await service.email_exists(body.email))
