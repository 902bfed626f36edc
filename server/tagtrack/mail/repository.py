"""The SQL of the outbox: queueing with a wake-up notice, and claiming due mail."""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select

from tagtrack.core.wakeups import MAIL_CHANNEL
from tagtrack.kit.repository import Repository
from tagtrack.models.mail import PENDING, OutboxMail


class OutboxRepository(Repository[OutboxMail]):
    model = OutboxMail

    async def queue(self, mail: OutboxMail) -> None:
        """Add the mail to the caller's transaction; senders are woken when it commits."""
        await self.add(mail)
        await self.session.execute(select(func.pg_notify(MAIL_CHANNEL, "")))

    async def orgs_due(self, now: datetime) -> Sequence[str]:
        """Organizations with mail whose next attempt has come (the sender's round)."""
        stmt = (
            select(OutboxMail.org_id)
            .where(OutboxMail.state == PENDING, OutboxMail.next_attempt <= now)
            .distinct()
        )
        return (await self.session.scalars(stmt)).all()

    async def next_due(self) -> datetime | None:
        """When the soonest pending mail of any organization is due."""
        stmt = select(func.min(OutboxMail.next_attempt)).where(OutboxMail.state == PENDING)
        return await self.session.scalar(stmt)

    async def claim(self, org_id: str, now: datetime) -> OutboxMail | None:
        """The organization's oldest due mail, locked until the transaction ends; mail
        another sender holds is skipped, so no mail goes out twice at once."""
        stmt = (
            select(OutboxMail)
            .where(
                OutboxMail.org_id == org_id,
                OutboxMail.state == PENDING,
                OutboxMail.next_attempt <= now,
            )
            .order_by(OutboxMail.next_attempt)
            .limit(1)
            .with_for_update(skip_locked=True)
        )
        return await self.session.scalar(stmt)
