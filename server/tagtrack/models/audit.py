from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, Index, String, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, utcnow


class AuditEntry(Base):
    """Who did what, when, in which organization. Kept when the actor or target is deleted."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_org_id_time", "org_id", "time"),)

    time: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False, default=utcnow)
    # Empty when no organization is known (a sign-in with an unknown username).
    org_id: Mapped[str] = mapped_column(String(24), primary_key=True, default="")
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    actor_id: Mapped[str] = mapped_column(String(24), nullable=False, default="")
    actor: Mapped[str] = mapped_column(String(300), nullable=False, default="")
    action: Mapped[str] = mapped_column(String(64), nullable=False)
    target_type: Mapped[str] = mapped_column(String(64), nullable=False, default="")
    target_id: Mapped[str] = mapped_column(String(100), nullable=False, default="")
    target: Mapped[str] = mapped_column(String(300), nullable=False, default="")
    client: Mapped[str] = mapped_column(String(64), nullable=False, default="")
    detail: Mapped[dict[str, Any]] = mapped_column(
        JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )


class InstallSecret(Base):
    """Secrets of this installation (signing keys), made once by the migrations."""

    __tablename__ = "install_secrets"

    name: Mapped[str] = mapped_column(String(50), primary_key=True)
    value: Mapped[str] = mapped_column(String(200), nullable=False)
