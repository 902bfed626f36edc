from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin, tenant_key

_EMPTY_ARRAY = text("'{}'")


class ReportConfig(IdMixin, TimestampMixin, Base):
    """A saved report of a site: what it shows, and whether the daily mail carries it."""

    __tablename__ = "report_configs"
    __table_args__ = (
        UniqueConstraint("org_id", "site_id", "name"),
        tenant_key("site_id", "sites", "CASCADE"),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    site_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    type: Mapped[str] = mapped_column(String(40), nullable=False)
    format: Mapped[str] = mapped_column(String(16), nullable=False)
    email: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    zones: Mapped[list[str]] = mapped_column(
        ARRAY(String(24)), nullable=False, server_default=_EMPTY_ARRAY
    )
    categories: Mapped[list[str]] = mapped_column(
        ARRAY(String(200)), nullable=False, server_default=_EMPTY_ARRAY
    )
    headings: Mapped[list[str]] = mapped_column(
        ARRAY(String(100)), nullable=False, server_default=_EMPTY_ARRAY
    )


class DailyRun(IdMixin, Base):
    """One daily job of a site (inventory cycle or report mail) on one local day.

    The unique row is the claim: whichever process inserts it does the job, once.
    """

    __tablename__ = "daily_runs"
    __table_args__ = (
        UniqueConstraint("org_id", "site_id", "kind", "day"),
        tenant_key("site_id", "sites", "CASCADE"),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    site_id: Mapped[str] = mapped_column(String(24), nullable=False)
    kind: Mapped[str] = mapped_column(String(16), nullable=False)
    day: Mapped[date] = mapped_column(Date, nullable=False)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    # The inventory cycle keeps what each zone held: {zone id: [thing ids]}.
    snapshot: Mapped[dict[str, Any]] = mapped_column(
        JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )
