"""Sign-in with lockout per account and rate limiting per client."""

from dataclasses import dataclass
from datetime import timedelta

from tagtrack.access.principal import holds_super_admin, merge_grants
from tagtrack.access.repository import AuthRepository, FailureRecorder
from tagtrack.access.roles import RoleRepository
from tagtrack.audit.repository import AuditRepository
from tagtrack.audit.service import Actor, record_now
from tagtrack.core.config import Settings
from tagtrack.core.errors import AppError, Unauthorized
from tagtrack.core.security import new_token, token_hash, verify_password_off_loop
from tagtrack.models import User
from tagtrack.models.base import utcnow
from tagtrack.users.repository import UserRepository
from tagtrack.users.schemas import CurrentUser
from tagtrack.users.service import current_user_of

RATE_WINDOW = timedelta(minutes=1)


class RateLimited(AppError):
    status_code = 429
    reason = "rate limited"


class AccountLocked(AppError):
    status_code = 401
    reason = "account locked"


RATE_LIMITED_MESSAGE = "Too many recent failed logins: wait a minute and try again"
LOCKED_MESSAGE = "Too many recent failed logins: use Forgot My Password to unlock your account"
INVALID_MESSAGE = "Invalid username or password"


@dataclass(frozen=True)
class SignedInSession:
    user: CurrentUser
    token: str
    max_age: int


class AuthService:
    def __init__(
        self,
        repository: AuthRepository,
        roles: RoleRepository,
        users: UserRepository,
        failures: FailureRecorder,
        audit: AuditRepository,
        settings: Settings,
    ) -> None:
        self.repository = repository
        self.roles = roles
        self.users = users
        self.failures = failures
        self.audit = audit
        self.settings = settings

    async def login(
        self,
        username: str,
        password: str,
        client: str,
        previous_token: str | None,
        host_org_id: str | None = None,
    ) -> SignedInSession:
        """Sign in; on an organization's subdomain only that organization's users may."""
        now = utcnow()
        typed = username.strip().lower()[:254]
        lock_after = self.settings.login_lockout_failures
        recent = await self.repository.recent_failures(client, now - RATE_WINDOW)
        if recent >= self.settings.login_rate_limit_per_minute:
            raise RateLimited(RATE_LIMITED_MESSAGE)
        found = await self.users.by_username(username.strip())
        if found is not None and host_org_id is not None and found.org_id != host_org_id:
            found = None
        if found is None:
            locked = await self.repository.unknown_username_locked(typed, lock_after)
        else:
            locked = found.locked
        user_id, org_id = (found.id, found.org_id) if found else ("", host_org_id or "")
        password_hash = found.password_hash if found else ""
        if locked:
            await self._failed(user_id, org_id, username, client, "account locked")
            raise AccountLocked(LOCKED_MESSAGE)
        # Nothing is written yet: hand the connection back while the slow hash runs, so a
        # burst of sign-ins holds no connections that other requests wait for.
        await self.repository.release_connection()
        valid = await verify_password_off_loop(password_hash, password)
        user = await self.users.get(org_id, user_id) if user_id and valid else None
        if user is None or not user.active:
            locked = await self.failures.record(
                client, typed, (org_id, user_id) if user_id else None, lock_after
            )
            reason = "account locked" if locked else "invalid credentials"
            await self._failed(user_id, org_id, username, client, reason)
            if locked:
                raise AccountLocked(LOCKED_MESSAGE)
            raise Unauthorized(INVALID_MESSAGE, reason="invalid credentials")
        await self.repository.reset_failures(user)
        if previous_token:
            await self.repository.delete_session(token_hash(previous_token))
        signed_in = await self.start_session(user)
        who = Actor(org_id=user.org_id, actor_id=user.id, actor=user.username, client=client)
        await self.audit.record(who, "login", "user", user.id, user.username)
        return signed_in

    async def _failed(
        self, user_id: str, org_id: str, typed: str, client: str, reason: str
    ) -> None:
        """Audit a failed sign-in in its own transaction (the request's rolls back).

        `org_id` is the user's organization, else the subdomain's, else empty.
        """
        who = Actor(org_id=org_id, actor_id=user_id, actor=typed.strip()[:254], client=client)
        await record_now(
            self.failures.sessionmaker,
            who,
            "login.failed",
            "user",
            user_id,
            typed.strip()[:254],
            {"reason": reason},
        )

    async def start_session(self, user: User) -> SignedInSession:
        """A new session for the user (password or single sign-on)."""
        token = new_token()
        max_age = int(timedelta(days=self.settings.session_days).total_seconds())
        idle = timedelta(minutes=self.settings.session_idle_minutes)
        expires = utcnow() + min(timedelta(seconds=max_age), idle)
        await self.repository.add_session(user, token_hash(token), expires)
        rules = await self.roles.rules_for_roles(user.org_id, user.role_ids)
        grants = merge_grants((r.resource, r.create, r.modify, r.delete) for r in rules)
        return SignedInSession(current_user_of(user, holds_super_admin(grants)), token, max_age)

    async def logout(self, token: str | None) -> None:
        if token:
            await self.repository.delete_session(token_hash(token))
