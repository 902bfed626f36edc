from typing import Any

from sqlalchemy import Boolean, ForeignKey, Integer, String, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin


class Organization(IdMixin, TimestampMixin, Base):
    __tablename__ = "organizations"

    name: Mapped[str] = mapped_column(String(200), nullable=False)
    subdomain: Mapped[str] = mapped_column(String(63), nullable=False, unique=True)
    okta_enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    entra_enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    # Days of events and zone visits kept; 0 keeps them forever (core/retention.py).
    history_retention_days: Mapped[int] = mapped_column(
        Integer, nullable=False, default=0, server_default=text("0")
    )


class OrgSettings(Base):
    __tablename__ = "org_settings"

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    settings: Mapped[dict[str, Any]] = mapped_column(
        JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )
