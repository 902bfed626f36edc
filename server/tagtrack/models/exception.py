from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, String, Text, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, tenant_key


class TrackingException(IdMixin, Base):
    """Something that needs a person: a dwell too long, a shortage, a read not processed."""

    __tablename__ = "exceptions"
    __table_args__ = (
        Index("ix_exceptions_site_time", "org_id", "site_id", "time"),
        # One dwell alert per visit.
        Index(
            "uq_exceptions_visit",
            "org_id",
            "zone_duration_id",
            unique=True,
            postgresql_where=text("zone_duration_id IS NOT NULL"),
        ),
        tenant_key("site_id", "sites", "CASCADE"),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    site_id: Mapped[str] = mapped_column(String(24), nullable=False)
    type: Mapped[str] = mapped_column(String(40), nullable=False)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    thing_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    zone_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    zone_duration_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    multiple_things: Mapped[list[str]] = mapped_column(
        ARRAY(String(24)), nullable=False, server_default=text("'{}'")
    )
    time_duration: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)
    message: Mapped[str] = mapped_column(Text, nullable=False, default="")
