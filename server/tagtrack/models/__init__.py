"""All tables; import from here so metadata is complete."""

from tagtrack.models.apikey import ApiKey
from tagtrack.models.audit import AuditEntry, InstallSecret
from tagtrack.models.base import Base
from tagtrack.models.endpoint import Endpoint, EndpointStatus
from tagtrack.models.event import Event, EventCount
from tagtrack.models.exception import TrackingException
from tagtrack.models.floor_map import Map
from tagtrack.models.image import Image, ImageCategory
from tagtrack.models.ingest import IngestBatch, PendingReadBatch, ProcessingEpoch, RawPayload
from tagtrack.models.location_tag import LocationTag
from tagtrack.models.mail import OutboxMail
from tagtrack.models.org import Organization, OrgSettings
from tagtrack.models.org_key import OrgKey
from tagtrack.models.password_reset import PasswordReset
from tagtrack.models.report import DailyRun, ReportConfig
from tagtrack.models.role import AccessRule, Role
from tagtrack.models.site import Site, SiteSettings
from tagtrack.models.sso import SsoLogin, SsoSettings
from tagtrack.models.thing import Thing, ThingTag
from tagtrack.models.user import LoginFailure, User, UserSession
from tagtrack.models.zone import Zone, ZoneGate
from tagtrack.models.zone_duration import ZoneDuration

__all__ = [
    "AccessRule",
    "ApiKey",
    "AuditEntry",
    "Base",
    "DailyRun",
    "Endpoint",
    "EndpointStatus",
    "Event",
    "EventCount",
    "Image",
    "ImageCategory",
    "IngestBatch",
    "InstallSecret",
    "LocationTag",
    "LoginFailure",
    "Map",
    "OrgKey",
    "OrgSettings",
    "Organization",
    "OutboxMail",
    "PasswordReset",
    "PendingReadBatch",
    "ProcessingEpoch",
    "RawPayload",
    "ReportConfig",
    "Role",
    "Site",
    "SiteSettings",
    "SsoLogin",
    "SsoSettings",
    "Thing",
    "ThingTag",
    "TrackingException",
    "User",
    "UserSession",
    "Zone",
    "ZoneDuration",
    "ZoneGate",
]
