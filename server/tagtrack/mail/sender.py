"""The background sender: delivers due mail of the outbox, retrying with exponential backoff.

Every process with `mail_sender` runs one. Each mail is sent while its row is locked
(FOR UPDATE SKIP LOCKED) and marked sent in the same transaction, so two senders never
send the same mail. A crash between the mail server's answer and the commit sends it
again: at least once, never lost.
"""

import asyncio
import contextlib
import email
import email.policy
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from email.message import EmailMessage

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.audit.repository import Actor, AuditRepository
from tagtrack.core.config import Settings
from tagtrack.core.mail import Mailer
from tagtrack.core.tasks import running
from tagtrack.mail.metrics import MAIL_FAILED, MAIL_SENT
from tagtrack.mail.repository import OutboxRepository
from tagtrack.models.base import utcnow
from tagtrack.models.mail import FAILED, SENT, OutboxMail

log = logging.getLogger("tagtrack.mail")

# Without a notice (one missed while reconnecting), the outbox is looked at this often.
SAFETY_SECONDS = 60.0
# A due mail another sender holds is looked at again this soon.
BUSY_SECONDS = 0.2
SENDER = Actor(actor="TagTrack mail")


class OutboxSender:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        settings: Settings,
        wake: asyncio.Event | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.settings = settings
        self.mailer = Mailer(settings)
        self.wake = wake or asyncio.Event()
        self.clock = clock

    def backoff(self, attempts: int) -> timedelta:
        """The wait after the given number of failed attempts: doubling, up to the cap."""
        first = self.settings.mail_retry_first_seconds
        seconds = min(first * 2 ** (attempts - 1), self.settings.mail_retry_max_seconds)
        return timedelta(seconds=seconds)

    async def deliver_due(self, org_id: str | None = None) -> int:
        """Try every mail whose attempt is due (of one organization, or all); the number sent."""
        if org_id is None:
            async with self.sessionmaker() as session:
                orgs = list(await OutboxRepository(session).orgs_due(self.clock()))
        else:
            orgs = [org_id]
        sent = 0
        tried: set[str] = set()
        for org in orgs:
            while True:
                async with self.sessionmaker() as session, session.begin():
                    mail = await OutboxRepository(session).claim(org, self.clock())
                    if mail is None or mail.id in tried:  # each mail once a round
                        break
                    tried.add(mail.id)
                    sent += await self._attempt(session, mail)
        return sent

    async def _attempt(self, session: AsyncSession, mail: OutboxMail) -> int:
        message = email.message_from_bytes(mail.message, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        mail.attempts += 1
        try:
            await self.mailer.deliver(message)
        except Exception as exc:  # the mail server away or refusing: try again later
            await self._failed(session, mail, exc)
            return 0
        mail.state = SENT
        mail.time_sent = self.clock()
        mail.message = b""
        mail.last_error = ""
        MAIL_SENT.inc()
        return 1

    async def _failed(self, session: AsyncSession, mail: OutboxMail, exc: Exception) -> None:
        error = str(exc) or type(exc).__name__
        given_up = mail.attempts >= self.settings.mail_max_attempts
        mail.last_error = error[:1000]
        detail: dict[str, object] = {
            "to": ", ".join(mail.recipients),
            "attempt": mail.attempts,
            "error": error[:300],
        }
        if given_up:
            mail.state = FAILED
            mail.message = b""
            action = "mail.given_up"
        else:
            mail.next_attempt = self.clock() + self.backoff(mail.attempts)
            detail["retry"] = mail.next_attempt.isoformat()
            action = "mail.failed"
        MAIL_FAILED.labels(given_up=str(given_up).lower()).inc()
        log.warning("mail %s: attempt %s failed: %s", mail.id, mail.attempts, error)
        who = Actor(org_id=mail.org_id, actor=SENDER.actor)
        await AuditRepository(session).record(who, action, "mail", mail.id, mail.subject, detail)

    async def _wait(self) -> float:
        async with self.sessionmaker() as session:
            due = await OutboxRepository(session).next_due()
        if due is None:
            return SAFETY_SECONDS
        return min(SAFETY_SECONDS, max(BUSY_SECONDS, (due - self.clock()).total_seconds()))

    async def run(self) -> None:
        while True:
            self.wake.clear()
            try:
                await self.deliver_due()
                wait = await self._wait()
            except Exception:  # the database away: look again later
                log.exception("mail delivery failed; retrying")
                wait = SAFETY_SECONDS / 6
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), wait)


@asynccontextmanager
async def outbox_sender(
    sessionmaker: async_sessionmaker[AsyncSession], settings: Settings, wake: asyncio.Event
) -> AsyncIterator[OutboxSender | None]:
    """Deliver the outbox in the background when this process sends mail."""
    if not settings.mail_sender:
        yield None
        return
    sender = OutboxSender(sessionmaker, settings, wake)
    async with running(sender.run(), "mail-sender"):
        yield sender
