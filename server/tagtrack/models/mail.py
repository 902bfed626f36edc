from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, LargeBinary, String, Text, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, utcnow

PENDING = "pending"
SENT = "sent"
FAILED = "failed"


class OutboxMail(IdMixin, Base):
    """A mail written in the transaction of what caused it, until the sender delivers it.

    `message` is the whole composed message (attachments included); once sent it is
    emptied, since a password reset link in it is a secret."""

    __tablename__ = "mail_outbox"
    __table_args__ = (
        Index(
            "ix_mail_outbox_due",
            "next_attempt",
            postgresql_where=text("state = 'pending'"),
        ),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    time_created: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, nullable=False
    )
    recipients: Mapped[list[str]] = mapped_column(ARRAY(String(320)), nullable=False)
    subject: Mapped[str] = mapped_column(String(300), nullable=False)
    message: Mapped[bytes] = mapped_column(LargeBinary, nullable=False)
    state: Mapped[str] = mapped_column(String(16), nullable=False, default=PENDING)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    next_attempt: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    last_error: Mapped[str] = mapped_column(Text, nullable=False, default="")
    time_sent: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
