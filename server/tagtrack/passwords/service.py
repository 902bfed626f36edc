"""Password reset by mailed link: self-service, or sent by an administrator."""

import base64
import json
from datetime import datetime, timedelta

from tagtrack.access.principal import Principal
from tagtrack.audit.repository import AuditRepository
from tagtrack.audit.service import Actor
from tagtrack.core.config import Settings
from tagtrack.core.errors import AppError, NotFound
from tagtrack.core.security import hash_password_off_loop, new_token, password_problem, token_hash
from tagtrack.core.signing import sign, signature_valid
from tagtrack.mail.service import Outbox
from tagtrack.models import PasswordReset, User
from tagtrack.models.base import utcnow
from tagtrack.passwords.repository import PasswordResetRepository

TOKEN_LIFETIME = timedelta(hours=24)
# One mail per user per minute, whoever asks.
RESEND_INTERVAL = timedelta(minutes=1)


class ResetRejected(AppError):
    status_code = 401
    reason = "invalid token"


def reset_token(username: str, secret: str, expires: datetime) -> str:
    """payload.random.signature: the payload carries the username (the reset page shows it)
    and the expiry; the signature is an HMAC with the installation's secret."""
    body = {"username": username, "exp": int(expires.timestamp())}
    payload = base64.urlsafe_b64encode(json.dumps(body, separators=(",", ":")).encode())
    unsigned = payload.decode().rstrip("=") + "." + new_token()
    return unsigned + "." + sign(secret, unsigned)


def token_signed_and_current(token: str, secret: str, now: datetime) -> bool:
    """The signature is this installation's and the expiry in the payload is still ahead."""
    unsigned, _, signature = token.rpartition(".")
    if not unsigned or not signature_valid(secret, unsigned, signature):
        return False
    try:
        payload = unsigned.split(".", 1)[0]
        body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        return bool(int(body["exp"]) > now.timestamp())
    except (ValueError, KeyError, TypeError):
        return False


class PasswordResetService:
    def __init__(
        self,
        repository: PasswordResetRepository,
        outbox: Outbox,
        audit: AuditRepository,
        settings: Settings,
    ) -> None:
        self.repository = repository
        self.outbox = outbox
        self.audit = audit
        self.settings = settings

    def _link(self, token: str) -> str:
        base = self.settings.public_url or f"http://{self.settings.host}:{self.settings.port}"
        return f"{base.rstrip('/')}/passwordreset/form?token={token}"

    async def _issue(self, user: User, reason: str) -> None:
        now = utcnow()
        if await self.repository.issued_since(user, now - RESEND_INTERVAL):
            return
        token = reset_token(user.username, self.settings.secret_key, now + TOKEN_LIFETIME)
        await self.repository.add(
            PasswordReset(
                token_hash=token_hash(token),
                org_id=user.org_id,
                user_id=user.id,
                expires_at=now + TOKEN_LIFETIME,
            )
        )
        # The user's organization's outbox, in the transaction that keeps the token.
        await self.outbox.queue(
            user.org_id,
            [user.username],
            "Reset your TagTrack password",
            f"Hello {user.name},\n\n{reason}\n\nChoose a new password here (the link works for "
            f"24 hours and unlocks your account):\n{self._link(token)}\n\n"
            "If you did not ask for this, you can ignore this message.\n",
        )

    async def request(self, email: str) -> None:
        """Mail a link when the email matches an active account; say nothing either way."""
        user = await self.repository.user_by_username(email.strip())
        if user is not None and user.active:
            await self._issue(user, "Someone asked to reset the password of your account.")

    async def send_for_user(self, principal: Principal, user_id: str) -> None:
        user = await self.repository.user(principal.org_id, user_id)
        if user is None:
            raise NotFound("User not found")
        await self._issue(user, f"{principal.name} sent you a link to set your password.")
        await self.audit.record(principal, "user.reset.sent", "user", user.id, user.username)

    async def invite(self, user: User, inviter: str) -> None:
        """Mail a new user the link to choose a first password."""
        await self._issue(user, f"{inviter} created a TagTrack account for you.")

    async def reset(self, token: str, password: str) -> None:
        now = utcnow()
        signed = token_signed_and_current(token, self.settings.secret_key, now)
        user = await self.repository.user_for_token(token_hash(token), now) if signed else None
        if user is None:
            raise ResetRejected("Your password reset token is invalid or has expired")
        problem = password_problem(password, [user.name, user.username])
        if problem:
            raise ResetRejected(problem, reason="password too weak")
        user.password_hash = await hash_password_off_loop(password)
        user.locked = False
        user.failed_logins = 0
        # The token is used up, and every session of the user ends.
        await self.repository.forget_user(user)
        who = Actor(org_id=user.org_id, actor_id=user.id, actor=user.username)
        await self.audit.record(who, "password.reset", "user", user.id, user.username)
