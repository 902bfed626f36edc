from sqlalchemy import Boolean, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin


class Role(IdMixin, Base):
    __tablename__ = "roles"
    __table_args__ = (UniqueConstraint("org_id", "name"),)

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False, index=True
    )
    name: Mapped[str] = mapped_column(String(100), nullable=False)


class AccessRule(Base):
    __tablename__ = "access_rules"

    role_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("roles.id", ondelete="CASCADE"), primary_key=True
    )
    resource: Mapped[str] = mapped_column(String(50), primary_key=True)
    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False, index=True
    )
    create: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    modify: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    delete: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
