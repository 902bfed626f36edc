from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, String, func, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin, tenant_key, utcnow


class User(IdMixin, TimestampMixin, Base):
    __tablename__ = "users"
    # Sign-in takes only a username, so usernames are unique across organizations: that is
    # org_keys' primary key; this one is what a sharded table can keep.
    __table_args__ = (
        Index("uq_users_org_id_username", "org_id", func.lower(text("username")), unique=True),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    username: Mapped[str] = mapped_column(String(254), nullable=False)
    password_hash: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    role_ids: Mapped[list[str]] = mapped_column(
        ARRAY(String(24)), nullable=False, server_default=text("'{}'")
    )
    site_ids: Mapped[list[str]] = mapped_column(
        ARRAY(String(24)), nullable=False, server_default=text("'{}'")
    )
    active: Mapped[bool] = mapped_column(Boolean, nullable=False, default=True)
    failed_logins: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    locked: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)


class UserSession(Base):
    """A signed-in browser. Found by its token alone, before the organization is known: the
    token is the key, org_id says whose user it is."""

    __tablename__ = "user_sessions"
    __table_args__ = (tenant_key("user_id", "users", "CASCADE"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
    org_id: Mapped[str] = mapped_column(String(24), nullable=False)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, default=utcnow
    )
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class LoginFailure(Base):
    __tablename__ = "login_failures"
    __table_args__ = (
        Index("ix_login_failures_client_time", "client", "time"),
        Index("ix_login_failures_username_time", "username", "time"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    client: Mapped[str] = mapped_column(String(64), nullable=False)
    # As typed (lower case), known or not: unknown usernames "lock" like real ones.
    username: Mapped[str] = mapped_column(String(254), nullable=False, default="")
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False, default=utcnow)
