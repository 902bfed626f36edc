"""The auth dependencies every endpoint starts with: a session cookie or an API key."""

from dataclasses import replace
from datetime import timedelta
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.access.cache import PrincipalCache
from tagtrack.access.org_keys import OrgKeyRepository
from tagtrack.access.principal import Principal, merge_grants
from tagtrack.access.repository import AuthRepository
from tagtrack.access.roles import RoleRepository
from tagtrack.access.rules import ALL_SITES_RESOURCE, Operation
from tagtrack.core.db import DbSession
from tagtrack.core.errors import Forbidden, Unauthorized
from tagtrack.core.security import token_hash
from tagtrack.core.web_security import client_address
from tagtrack.models.base import utcnow

SESSION_COOKIE = "tagtrack_session"


def _bearer(request: Request) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, if the request has one."""
    scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
    return credentials.strip() if scheme.lower() == "bearer" else None


async def _key_principal(session: DbSession, hashed: str) -> Principal | None:
    key = await OrgKeyRepository(session).api_key(hashed)
    if key is None:
        return None
    rules = await RoleRepository(session).rules_for_roles(key.org_id, key.role_ids)
    grants = merge_grants((r.resource, r.create, r.modify, r.delete) for r in rules)
    # A key is never a super admin, whatever its roles say.
    grants.pop(ALL_SITES_RESOURCE, None)
    return Principal(
        user_id="",
        org_id=key.org_id,
        name=f"API key {key.name}",
        username="",
        role_ids=tuple(key.role_ids),
        site_ids=tuple(key.site_ids),
        grants=grants,
        api_key_id=key.id,
    )


async def load_principal(request: Request, session: DbSession) -> Principal:
    return await _principal(request, session, extend=True)


async def _principal(request: Request, session: AsyncSession, *, extend: bool) -> Principal:
    client = client_address(request)
    cache: PrincipalCache = request.app.state.principals
    bearer = _bearer(request)
    if bearer is not None:
        hashed = token_hash(bearer) if bearer else ""
        kept = cache.get(f"key:{hashed}") if hashed else None
        if kept is not None:
            return replace(kept.principal, client=client)
        generation = cache.generation
        principal = await _key_principal(session, hashed) if hashed else None
        if principal is None:
            raise Unauthorized("Invalid or deleted API key", reason="invalid api key")
        cache.put(f"key:{hashed}", principal, generation)
        return replace(principal, client=client)
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        raise Unauthorized("Not signed in")
    hashed = token_hash(token)
    repository = AuthRepository(session)
    settings = request.app.state.settings
    now = utcnow()
    idle = timedelta(minutes=settings.session_idle_minutes)
    lifetime = timedelta(days=settings.session_days)
    kept = cache.get(hashed)
    if kept is not None and kept.expires_at and kept.created_at and kept.usable(now, lifetime):
        if extend:
            expires_at = await repository.extend_session(
                hashed, now, kept.expires_at, kept.created_at, idle, lifetime
            )
            if expires_at != kept.expires_at:
                cache.moved_deadline(hashed, kept, expires_at)
        return replace(kept.principal, client=client)
    generation = cache.generation
    found = await repository.session_user(hashed, now, idle=idle, lifetime=lifetime, extend=extend)
    if found is None:
        raise Unauthorized("Session expired or signed out")
    user = found.user
    grants = cache.grants_of(user.org_id, user.role_ids)
    if grants is None:
        rules = await RoleRepository(session).rules_for_roles(user.org_id, user.role_ids)
        grants = merge_grants((r.resource, r.create, r.modify, r.delete) for r in rules)
        cache.put_grants(user.org_id, user.role_ids, grants, generation)
    principal = Principal(
        user_id=user.id,
        org_id=user.org_id,
        name=user.name,
        username=user.username,
        role_ids=tuple(user.role_ids),
        site_ids=tuple(user.site_ids),
        grants=grants,
        session_token_hash=hashed,
    )
    cache.put(hashed, principal, generation, found.expires_at, found.created_at)
    return replace(principal, client=client)


SignedIn = Annotated[Principal, Depends(load_principal)]


async def _watching_principal(request: Request, session: DbSession) -> Principal:
    return await _principal(request, session, extend=False)


# A signed-in caller whose call is not a use of the session: a long-lived stream (and its
# reconnections) must not keep an idle session alive.
SignedInWatching = Annotated[Principal, Depends(_watching_principal)]


async def _maybe_principal(request: Request, session: DbSession) -> Principal | None:
    try:
        return await load_principal(request, session)
    except Unauthorized:
        return None


# The caller when signed in (or holding a key), else None: for endpoints open to anyone.
MaybeSignedIn = Annotated[Principal | None, Depends(_maybe_principal)]


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
