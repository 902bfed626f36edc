from sqlalchemy import ForeignKey, String, UniqueConstraint, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin


class ApiKey(IdMixin, TimestampMixin, Base):
    """A token for programs: the rights of its roles within its sites. Only its hash is kept."""

    __tablename__ = "api_keys"
    # Unique across organizations through org_keys: a request with a key names no other.
    __table_args__ = (UniqueConstraint("org_id", "token_hash"),)

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    token_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    # The first characters of the token, so people can tell their keys apart.
    token_hint: Mapped[str] = mapped_column(String(16), nullable=False)
    role_ids: Mapped[list[str]] = mapped_column(
        ARRAY(String(24)), nullable=False, server_default=text("'{}'")
    )
    site_ids: Mapped[list[str]] = mapped_column(
        ARRAY(String(24)), nullable=False, server_default=text("'{}'")
    )
    created_by: Mapped[str] = mapped_column(String(254), nullable=False, default="")
