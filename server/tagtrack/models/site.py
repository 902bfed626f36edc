from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, String, Text, UniqueConstraint, text
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin, tenant_key


class Site(IdMixin, TimestampMixin, Base):
    __tablename__ = "sites"
    __table_args__ = (UniqueConstraint("org_id", "name"),)

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    start_date: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    address_line1: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    address_line2: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    city: Mapped[str] = mapped_column(String(100), nullable=False, default="")
    state: Mapped[str] = mapped_column(String(100), nullable=False, default="")
    country: Mapped[str] = mapped_column(String(100), nullable=False, default="")
    zipcode: Mapped[str] = mapped_column(String(20), nullable=False, default="")
    timezone: Mapped[str] = mapped_column(String(64), nullable=False)
    report_daily_time: Mapped[str] = mapped_column(String(5), nullable=False, default="")
    report_emails: Mapped[list[str]] = mapped_column(
        ARRAY(String(254)), nullable=False, server_default=text("'{}'")
    )


class SiteSettings(Base):
    __tablename__ = "site_settings"
    __table_args__ = (tenant_key("site_id", "sites", "CASCADE"),)

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    site_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    settings: Mapped[dict[str, Any]] = mapped_column(
        JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )
