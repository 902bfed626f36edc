from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, utcnow


class SsoSettings(Base):
    """An organization's identity providers: Okta by issuer and client, Entra by tenant."""

    __tablename__ = "sso_settings"

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    okta_issuer: Mapped[str] = mapped_column(String(500), nullable=False, default="")
    okta_client_id: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    # Sealed (core/sealing.py): never stored or logged in the clear.
    okta_client_secret: Mapped[str] = mapped_column(String(2000), nullable=False, default="")
    entra_tenant: Mapped[str] = mapped_column(String(100), nullable=False, default="")
    time_modified: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, default=utcnow, onupdate=utcnow
    )


class SsoLogin(Base):
    """A sign-in in flight between the redirect to the provider and its callback."""

    __tablename__ = "sso_logins"

    state_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False
    )
    kind: Mapped[str] = mapped_column(String(10), nullable=False)
    nonce: Mapped[str] = mapped_column(String(100), nullable=False)
    code_verifier: Mapped[str] = mapped_column(String(200), nullable=False)
    redirect_uri: Mapped[str] = mapped_column(String(500), nullable=False)
    referer: Mapped[str] = mapped_column(String(500), nullable=False, default="")
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
