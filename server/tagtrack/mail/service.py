"""Queue mail in the caller's transaction: it goes out only if the transaction commits."""

from collections.abc import Sequence
from email.message import EmailMessage

from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.core.config import Settings
from tagtrack.core.mail import Attachment, Mailer
from tagtrack.core.text import comma_list
from tagtrack.mail.repository import OutboxRepository
from tagtrack.models.base import utcnow
from tagtrack.models.mail import OutboxMail


class Outbox:
    def __init__(self, session: AsyncSession, settings: Settings) -> None:
        self.repository = OutboxRepository(session)
        self.mailer = Mailer(settings)

    async def queue(
        self,
        org_id: str,
        to: list[str],
        subject: str,
        text: str,
        attachments: Sequence[Attachment] = (),
    ) -> None:
        await self.queue_message(org_id, self.mailer.compose(to, subject, text, attachments))

    async def queue_message(self, org_id: str, message: EmailMessage) -> None:
        """A composed message, attachments and all, kept whole until it is delivered."""
        recipients = comma_list(str(message["To"]))
        await self.repository.queue(
            OutboxMail(
                org_id=org_id,
                recipients=recipients,
                subject=str(message["Subject"] or "")[:300],
                message=bytes(message),
                next_attempt=utcnow(),
            )
        )
