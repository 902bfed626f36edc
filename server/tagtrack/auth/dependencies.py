"""The auth dependencies every endpoint starts with."""

from typing import Annotated

from fastapi import Depends, Request

from tagtrack.auth.principal import Principal, merge_grants
from tagtrack.auth.repository import AuthRepository
from tagtrack.core.db import DbSession
from tagtrack.core.errors import Forbidden, Unauthorized
from tagtrack.core.security import token_hash
from tagtrack.models.base import utcnow
from tagtrack.roles.repository import RoleRepository
from tagtrack.roles.rules import Operation

SESSION_COOKIE = "tagtrack_session"


async def load_principal(request: Request, session: DbSession) -> Principal:
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        raise Unauthorized("Not signed in")
    hashed = token_hash(token)
    repository = AuthRepository(session)
    user = await repository.session_user(hashed, utcnow())
    if user is None:
        raise Unauthorized("Session expired or signed out")
    rules = await RoleRepository(session).rules_for_roles(user.org_id, user.role_ids)
    grants = merge_grants((r.resource, r.create, r.modify, r.delete) for r in rules)
    return Principal(
        user_id=user.id,
        org_id=user.org_id,
        name=user.name,
        username=user.username,
        role_ids=tuple(user.role_ids),
        site_ids=tuple(user.site_ids),
        grants=grants,
        session_token_hash=hashed,
    )


SignedIn = Annotated[Principal, Depends(load_principal)]


def allowed(resource: str, operation: Operation) -> object:
    """A dependency that answers 403 unless the caller holds the right."""

    async def check(principal: SignedIn) -> Principal:
        if not principal.can(resource, operation):
            raise Forbidden(f"You do not have the {operation} right on {resource}")
        return principal

    return Depends(check)


def require_super_admin() -> object:
    async def check(principal: SignedIn) -> Principal:
        if not principal.super_admin:
            raise Forbidden("Only super admins may do this")
        return principal

    return Depends(check)
