"""Users of an organization: validation, role and site checks, passwords."""

from collections.abc import Sequence

from tagtrack.access.principal import Principal
from tagtrack.access.repository import AuthRepository
from tagtrack.access.rules import SUPER_ADMIN
from tagtrack.audit.repository import AuditRepository
from tagtrack.core.errors import BadRequest, Forbidden, NotFound, ValidationFailed
from tagtrack.core.security import hash_password_off_loop, password_problem
from tagtrack.kit.lists import ListParams
from tagtrack.models import User
from tagtrack.models.ids import ALL_SITES_ID
from tagtrack.passwords.service import PasswordResetService
from tagtrack.users.repository import UserRepository
from tagtrack.users.schemas import (
    CurrentUser,
    MeUpdate,
    SecurityContext,
    UserCreate,
    UserFields,
    UsernameRead,
    UserRead,
    UserUpdate,
)


def current_user_of(user: User, super_admin: bool) -> CurrentUser:
    return CurrentUser(
        id=user.id,
        name=user.name,
        username=user.username,
        roles=list(user.role_ids),
        securityCtx=SecurityContext(sites=list(user.site_ids), companies=[user.org_id]),
        superAdmin=super_admin,
        orgId=user.org_id,
    )


class UserService:
    def __init__(
        self,
        repository: UserRepository,
        auth: AuthRepository,
        invites: PasswordResetService,
        audit: AuditRepository,
    ) -> None:
        self.repository = repository
        self.auth = auth
        self.invites = invites
        self.audit = audit

    async def _super_admin_role_ids(self, org_id: str, role_ids: list[str]) -> set[str]:
        roles = await self.repository.roles_by_id(org_id, role_ids)
        return {rid for rid, role in roles.items() if role.name == SUPER_ADMIN}

    async def _read(self, principal: Principal, users: Sequence[User]) -> list[UserRead]:
        hidden: set[str] = set()
        if not principal.super_admin:
            all_roles = sorted({rid for u in users for rid in u.role_ids})
            hidden = await self._super_admin_role_ids(principal.org_id, all_roles)
        return [
            UserRead(
                id=u.id,
                name=u.name,
                username=u.username,
                roles=[r for r in u.role_ids if r not in hidden],
                securityCtx=SecurityContext(sites=list(u.site_ids), companies=[u.org_id]),
            )
            for u in users
        ]

    async def list_page(
        self, principal: Principal, params: ListParams
    ) -> tuple[list[UserRead], int]:
        users, total = await self.repository.list_page(principal.org_id, params)
        return await self._read(principal, users), total

    async def _get(self, principal: Principal, user_id: str) -> User:
        user = await self.repository.get(principal.org_id, user_id)
        if user is None:
            raise NotFound("User not found")
        return user

    async def get(self, principal: Principal, user_id: str) -> UserRead:
        return (await self._read(principal, [await self._get(principal, user_id)]))[0]

    async def _unique_username(self, username: str, except_id: str | None) -> None:
        if await self.repository.username_taken(username, except_id):
            raise BadRequest(
                f"A user with the username {username} already exists (duplicate)",
                reason="duplicate",
            )

    async def _check_fields(
        self, principal: Principal, fields: UserFields, except_id: str | None
    ) -> None:
        await self._unique_username(str(fields.username), except_id)
        roles = await self.repository.roles_by_id(principal.org_id, fields.roles)
        unknown = [r for r in fields.roles if r not in roles]
        if unknown:
            raise BadRequest(f"Unknown role: {', '.join(unknown)}", reason="unknown role")
        if any(r.name == SUPER_ADMIN for r in roles.values()) and not principal.super_admin:
            raise Forbidden("Only super admins may assign the Super Admin role")
        sites = [s for s in fields.securityCtx.sites if s != ALL_SITES_ID]
        known = await self.repository.site_ids_in_org(principal.org_id, sites)
        missing = [s for s in sites if s not in known]
        if missing:
            raise BadRequest(f"Unknown site: {', '.join(missing)}", reason="unknown site")
        # A site-scoped administrator must not hand out sites (or All Sites) beyond their own.
        if any(not principal.sees_site(s) for s in fields.securityCtx.sites):
            raise Forbidden("You may only grant sites within your own scope")

    async def _guard_super_admin_target(self, principal: Principal, user: User) -> None:
        if principal.super_admin:
            return
        if await self._super_admin_role_ids(principal.org_id, list(user.role_ids)):
            raise Forbidden("Only super admins may change a super admin")

    @staticmethod
    async def _checked_password(password: str, user_inputs: list[str]) -> str:
        problem = password_problem(password, user_inputs)
        if problem:
            raise ValidationFailed(problem, reason="password too weak")
        return await hash_password_off_loop(password)

    async def create(self, principal: Principal, body: UserCreate, send_email: bool) -> UserRead:
        await self._check_fields(principal, body, None)
        if not send_email and not body.password:
            raise ValidationFailed("A password is required for a new user", reason="validation")
        user = User(
            org_id=principal.org_id,
            name=body.name,
            username=str(body.username),
            # Invited users have no password until they follow the mailed link.
            password_hash=""
            if send_email
            else await self._checked_password(body.password or "", [body.name, str(body.username)]),
            role_ids=body.roles,
            site_ids=list(dict.fromkeys(body.securityCtx.sites)),
        )
        await self.repository.add(user)
        if send_email:
            await self.invites.invite(user, principal.name)
        await self._audit(principal, "user.created", user, {"activationEmail": send_email})
        return (await self._read(principal, [user]))[0]

    async def update(self, principal: Principal, body: UserUpdate) -> UserRead:
        user = await self._get(principal, body.id)
        await self._guard_super_admin_target(principal, user)
        await self._check_fields(principal, body, user.id)
        user.name = body.name
        user.username = str(body.username)
        user.role_ids = body.roles
        user.site_ids = list(dict.fromkeys(body.securityCtx.sites))
        if body.password:
            user.password_hash = await self._checked_password(
                body.password, [body.name, user.username]
            )
            user.locked = False
            user.failed_logins = 0
            await self.auth.delete_user_sessions(user)
        await self._audit(principal, "user.updated", user, {"passwordChanged": bool(body.password)})
        return (await self._read(principal, [user]))[0]

    async def delete(self, principal: Principal, user_id: str) -> None:
        user = await self._get(principal, user_id)
        if user.id == principal.user_id:
            raise BadRequest("You cannot delete your own account", reason="self delete")
        await self._guard_super_admin_target(principal, user)
        await self.repository.delete(user)
        await self._audit(principal, "user.deleted", user)

    async def me(self, principal: Principal) -> CurrentUser:
        user = await self._get(principal, principal.user_id)
        return current_user_of(user, principal.super_admin)

    async def update_me(self, principal: Principal, body: MeUpdate) -> CurrentUser:
        user = await self._get(principal, principal.user_id)
        await self._unique_username(str(body.username), user.id)
        user.name = body.name
        user.username = str(body.username)
        if body.password:
            user.password_hash = await self._checked_password(
                body.password, [body.name, user.username]
            )
            # A new password ends every session, this one included.
            await self.auth.delete_user_sessions(user)
            await self._audit(principal, "password.changed", user)
        await self._audit(principal, "user.updated", user, {"self": True})
        return current_user_of(user, principal.super_admin)

    async def _audit(
        self, principal: Principal, action: str, user: User, detail: dict[str, object] | None = None
    ) -> None:
        base = {"roles": list(user.role_ids), "sites": list(user.site_ids)}
        await self.audit.record(
            principal,
            action,
            "user",
            user.id,
            user.username,
            base | (detail or {}),
        )

    async def usernames(self, principal: Principal) -> list[UsernameRead]:
        users = await self.repository.all_in_org(principal.org_id)
        return [UsernameRead(id=u.id, username=u.username, name=u.name) for u in users]

    async def email_exists(self, email: str) -> bool:
        return await self.repository.username_taken(email.strip())
