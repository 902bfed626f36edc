from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin


class ZoneDuration(IdMixin, Base):
    """One visit of a thing to a zone; open while `time_end` is null."""

    __tablename__ = "zone_durations"
    __table_args__ = (
        Index("ix_zone_durations_site_start", "org_id", "site_id", "time_start"),
        Index(
            "uq_zone_durations_open_thing",
            "thing_id",
            unique=True,
            postgresql_where=text("time_end IS NULL"),
        ),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False
    )
    site_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("sites.id", ondelete="CASCADE"), nullable=False
    )
    thing_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("things.id", ondelete="CASCADE"), nullable=False
    )
    zone_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("zones.id", ondelete="CASCADE"), nullable=False, index=True
    )
    time_start: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    time_end: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Nanoseconds; set when the visit closes.
    time_duration: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)
