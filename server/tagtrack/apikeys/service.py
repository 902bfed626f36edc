"""API keys: create, view and delete; a key has exactly the rights of its roles and sites."""

import secrets

from tagtrack.access.principal import Principal
from tagtrack.access.rules import SUPER_ADMIN
from tagtrack.apikeys.repository import ApiKeyRepository
from tagtrack.apikeys.schemas import (
    AT_LEAST_ONE,
    ApiKeyCreate,
    ApiKeyRead,
    ApiKeySecurityContext,
)
from tagtrack.audit.repository import AuditRepository
from tagtrack.core.errors import BadRequest, Forbidden, NotFound, ValidationFailed
from tagtrack.core.security import token_hash
from tagtrack.kit.lists import ListParams
from tagtrack.models import ApiKey
from tagtrack.models.ids import ALL_SITES_ID
from tagtrack.users.repository import UserRepository

TOKEN_PREFIX = "tt_"
HINT_LENGTH = 8


def new_api_token() -> str:
    """32 random bytes, URL-safe, with a prefix that tells people what it is."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def api_key_read(key: ApiKey, token: str | None = None) -> ApiKeyRead:
    return ApiKeyRead(
        id=key.id,
        name=key.name,
        token=token or f"{key.token_hint}…",
        roles=list(key.role_ids),
        securityCtx=ApiKeySecurityContext(sites=list(key.site_ids)),
        timeCreated=key.time_created,
        createdBy=key.created_by,
    )


class ApiKeyService:
    def __init__(
        self, repository: ApiKeyRepository, users: UserRepository, audit: AuditRepository
    ) -> None:
        self.repository = repository
        self.users = users
        self.audit = audit

    async def list_page(
        self, principal: Principal, params: ListParams
    ) -> tuple[list[ApiKeyRead], int]:
        keys, total = await self.repository.list_page(principal.org_id, params)
        return [api_key_read(k) for k in keys], total

    async def _get(self, principal: Principal, key_id: str) -> ApiKey:
        key = await self.repository.get(principal.org_id, key_id)
        if key is None:
            raise NotFound("API key not found")
        return key

    async def get(self, principal: Principal, key_id: str) -> ApiKeyRead:
        return api_key_read(await self._get(principal, key_id))

    async def _check(self, principal: Principal, body: ApiKeyCreate) -> tuple[list[str], list[str]]:
        roles = list(dict.fromkeys(body.roles))
        sites = list(dict.fromkeys(body.securityCtx.sites))
        if not roles:
            raise ValidationFailed(f"roles: {AT_LEAST_ONE}")
        if not sites:
            raise ValidationFailed(f"securityCtx.sites: {AT_LEAST_ONE}")
        known_roles = await self.users.roles_by_id(principal.org_id, roles)
        unknown = [r for r in roles if r not in known_roles]
        if unknown:
            raise BadRequest(f"Unknown role: {', '.join(unknown)}", reason="unknown role")
        if any(r.name == SUPER_ADMIN for r in known_roles.values()):
            raise BadRequest(
                "The Super Admin role cannot be given to an API key", reason="super admin key"
            )
        named = [s for s in sites if s != ALL_SITES_ID]
        known_sites = await self.users.site_ids_in_org(principal.org_id, named)
        missing = [s for s in named if s not in known_sites]
        if missing:
            raise BadRequest(f"Unknown site: {', '.join(missing)}", reason="unknown site")
        if any(not principal.sees_site(s) for s in sites):
            raise Forbidden("You may only grant sites within your own scope")
        return roles, sites

    async def create(self, principal: Principal, body: ApiKeyCreate) -> ApiKeyRead:
        roles, sites = await self._check(principal, body)
        token = new_api_token()
        key = await self.repository.add(
            ApiKey(
                org_id=principal.org_id,
                name=body.name,
                token_hash=token_hash(token),
                token_hint=token[: len(TOKEN_PREFIX) + HINT_LENGTH],
                role_ids=roles,
                site_ids=sites,
                created_by=principal.actor,
            )
        )
        await self.audit.record(
            principal,
            "apikey.created",
            "apikey",
            key.id,
            key.name,
            {"roles": roles, "sites": sites},
        )
        return api_key_read(key, token)

    async def delete(self, principal: Principal, key_id: str) -> None:
        key = await self._get(principal, key_id)
        await self.repository.delete(key)
        await self.audit.record(principal, "apikey.deleted", "apikey", key.id, key.name)
