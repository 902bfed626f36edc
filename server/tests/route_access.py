"""Who may call each API route: the table the access test checks every route against.

Every route under /api must have an entry; a new route is one more line here.
"""

from dataclasses import dataclass
from typing import Literal

from tagtrack.access.rules import SUPER_ADMIN, Operation, seeded_rules

Kind = Literal["public", "signed_in", "right", "super_admin", "reader"]


@dataclass(frozen=True)
class Access:
    kind: Kind
    resource: str = ""
    operation: Operation = "create"

    def allows_role(self, role: str) -> bool:
        """Whether a seeded role (or a key holding it) may call the route."""
        if self.kind in ("public", "signed_in"):
            return True
        if self.kind == "super_admin":
            return role == SUPER_ADMIN
        if self.kind == "reader":
            return False
        create, modify, delete = seeded_rules(role)[self.resource]
        return {"create": create, "modify": modify, "delete": delete}[self.operation]


PUBLIC = Access("public")
SIGNED_IN = Access("signed_in")
SUPER_ADMIN_ONLY = Access("super_admin")
# Readers: an endpoint's own key, never a person or an API key.
READER = Access("reader")


def right(resource: str, operation: Operation) -> Access:
    return Access("right", resource, operation)


ROUTES: dict[str, Access] = {
    "GET /api/openapi.json": PUBLIC,
    "GET /api/docs": PUBLIC,
    "GET /api/docs/init.js": PUBLIC,
    "GET /api/{path:path}": PUBLIC,
    "POST /api/{path:path}": PUBLIC,
    "PUT /api/{path:path}": PUBLIC,
    "DELETE /api/{path:path}": PUBLIC,
    "GET /api/version": PUBLIC,
    "POST /api/auth/login": PUBLIC,
    "POST /api/auth/logout": PUBLIC,
    "POST /api/auth/passwordresetrequest": PUBLIC,
    "POST /api/auth/passwordreset": PUBLIC,
    "GET /api/auth/{kind}/available": PUBLIC,
    "GET /api/auth/{kind}/redirect": PUBLIC,
    "GET /api/auth/{kind}/callback": PUBLIC,
    "GET /api/users/me": SIGNED_IN,
    "PUT /api/users/me": SIGNED_IN,
    "GET /api/users": right("users", "create"),
    "GET /api/users/{user_id}": right("users", "create"),
    "POST /api/users": right("users", "create"),
    "PUT /api/users": right("users", "modify"),
    "DELETE /api/users/{user_id}": right("users", "delete"),
    "PUT /api/users/{user_id}": right("users", "modify"),
    "GET /api/usernames": SIGNED_IN,
    "POST /api/check/email": right("users", "create"),
    "GET /api/roles": SIGNED_IN,
    "GET /api/accessRules": SIGNED_IN,
    "GET /api/organizations": SUPER_ADMIN_ONLY,
    "GET /api/organizations/{org_id}": SUPER_ADMIN_ONLY,
    "POST /api/organizations": right("organizations", "create"),
    "PUT /api/organizations/{org_id}": right("organizations", "modify"),
    "DELETE /api/organizations/{org_id}": right("organizations", "delete"),
    "GET /api/apikeys": right("apikeys", "create"),
    "GET /api/apikeys/{key_id}": right("apikeys", "create"),
    "POST /api/apikeys": right("apikeys", "create"),
    "DELETE /api/apikeys/{key_id}": right("apikeys", "modify"),
    "GET /api/ssosettings": right("ssosettings", "create"),
    "PUT /api/ssosettings": right("ssosettings", "modify"),
    "GET /api/auditlog": right("orgsettings", "modify"),
    "GET /api/sites": SIGNED_IN,
    "GET /api/sites/{site_id}": SIGNED_IN,
    "POST /api/sites": right("sites", "create"),
    "PUT /api/sites/{site_id}": right("sites", "modify"),
    "DELETE /api/sites/{site_id}": right("sites", "delete"),
    "GET /api/orgsettings": SIGNED_IN,
    "POST /api/orgsettings": right("orgsettings", "modify"),
    "GET /api/sites/{site_id}/settings": SIGNED_IN,
    "PUT /api/sites/{site_id}/settings": right("sites", "modify"),
    "GET /api/endpoints": SIGNED_IN,
    "GET /api/endpoints/status": SIGNED_IN,
    "GET /api/endpoints/status/{endpoint_id}": SIGNED_IN,
    "GET /api/endpoints/statusfb/{endpoint_id}": SIGNED_IN,
    "GET /api/endpoints/config/{endpoint_id}": SIGNED_IN,
    "PUT /api/endpoints/config/{endpoint_id}": right("endpoints", "modify"),
    "GET /api/endpoints/{endpoint_id}": SIGNED_IN,
    "POST /api/endpoints": right("endpoints", "create"),
    "PUT /api/endpoints/{endpoint_id}": right("endpoints", "modify"),
    "DELETE /api/endpoints/{endpoint_id}": right("endpoints", "delete"),
    "GET /api/eventsources": SIGNED_IN,
    "GET /api/zones": SIGNED_IN,
    "GET /api/zones/{zone_id}": SIGNED_IN,
    "POST /api/zones": right("zones", "create"),
    "PUT /api/zones/{zone_id}": right("zones", "modify"),
    "DELETE /api/zones/{zone_id}": right("zones", "delete"),
    "GET /api/locationtags": SIGNED_IN,
    "GET /api/locationtags/{tag_id}": SIGNED_IN,
    "POST /api/locationtags": right("locationtags", "create"),
    "PUT /api/locationtags/{tag_id}": right("locationtags", "modify"),
    "DELETE /api/locationtags/{tag_id}": right("locationtags", "delete"),
    "GET /api/things": SIGNED_IN,
    "GET /api/things/export": SIGNED_IN,
    "GET /api/things/tag/{tag}": SIGNED_IN,
    "GET /api/things/{thing_id}": SIGNED_IN,
    "GET /api/things/{thing_id}/children": SIGNED_IN,
    "GET /api/things/{thing_id}/parents": SIGNED_IN,
    "POST /api/things": right("things", "create"),
    "PUT /api/things/{thing_id}": right("things", "modify"),
    "DELETE /api/things/{thing_id}": right("things", "delete"),
    "GET /api/images": SIGNED_IN,
    "POST /api/images": right("images", "create"),
    "DELETE /api/images": right("images", "delete"),
    "GET /api/images/uploaders": SIGNED_IN,
    "GET /api/images/tags": SIGNED_IN,
    "GET /api/images/uploaders/{user_id}": SIGNED_IN,
    "POST /api/images/edit": right("images", "modify"),
    "GET /api/images//csv": SIGNED_IN,
    "GET /api/images//zip": SIGNED_IN,
    "GET /api/images/{ids}/csv": SIGNED_IN,
    "GET /api/images/{ids}/zip": SIGNED_IN,
    "GET /api/images/{image_id}": SIGNED_IN,
    "GET /api/images/{image_id}/thumb": SIGNED_IN,
    "GET /api/images/{image_id}/mini": SIGNED_IN,
    "GET /api/images/{image_id}/meta": SIGNED_IN,
    "GET /api/images/{image_id}/neighbours": SIGNED_IN,
    "PUT /api/images/{image_id}/meta": right("images", "modify"),
    "DELETE /api/images/{ids}": right("images", "delete"),
    "GET /api/image-categories": SIGNED_IN,
    "GET /api/image-categories/{category_id}": SIGNED_IN,
    "GET /api/image-categories/{category_id}/usage": SIGNED_IN,
    "POST /api/image-categories": right("image-categories", "create"),
    "PUT /api/image-categories/{category_id}": right("image-categories", "modify"),
    "DELETE /api/image-categories/{category_id}": right("image-categories", "delete"),
    "GET /api/categories": SIGNED_IN,
    "GET /api/timezones": SIGNED_IN,
    "GET /api/killmodes": SIGNED_IN,
    "GET /api/thingclasses": SIGNED_IN,
    "POST /api/ingest/reads": READER,
    "POST /api/ingest/status": READER,
    "GET /api/ingest/config": READER,
    "POST /api/messages/user": right("things", "modify"),
    "GET /api/events": SIGNED_IN,
    "POST /api/events": right("things", "modify"),
    "GET /api/live": SIGNED_IN,
    "GET /api/zonedurations": SIGNED_IN,
    "GET /api/zonedurations/totals": SIGNED_IN,
    "GET /api/zonedurations/export": SIGNED_IN,
    "GET /api/exceptions": SIGNED_IN,
    "GET /api/exceptions/export": SIGNED_IN,
    "GET /api/exceptions/{exception_id}": SIGNED_IN,
    "GET /api/eventsbything": SIGNED_IN,
    "GET /api/eventsbything/export": SIGNED_IN,
    "GET /api/zonestatus/export": SIGNED_IN,
    "GET /api/reporttypes": SIGNED_IN,
    "GET /api/reportformat": SIGNED_IN,
    "GET /api/reportconfigs": SIGNED_IN,
    "GET /api/reportconfigs/{config_id}": SIGNED_IN,
    "POST /api/reportconfigs": right("reportconfigs", "create"),
    "PUT /api/reportconfigs/{config_id}": right("reportconfigs", "modify"),
    "DELETE /api/reportconfigs/{config_id}": right("reportconfigs", "delete"),
    "GET /api/reports/{config_id}": SIGNED_IN,
    "POST /api/reports/adhoc": SIGNED_IN,
    "GET /api/maps": SIGNED_IN,
    "GET /api/maps/{map_id}": SIGNED_IN,
    "GET /api/maps/{map_id}/image": SIGNED_IN,
    "GET /api/maps/{map_id}/things": SIGNED_IN,
    "POST /api/maps": right("maps", "create"),
    "PUT /api/maps/{map_id}": right("maps", "modify"),
    "PUT /api/maps/{map_id}/image": right("maps", "modify"),
    "POST /api/maps/withplan": right("maps", "create"),
    "DELETE /api/maps/{map_id}": right("maps", "delete"),
    "POST /api/import/parse": right("import", "modify"),
    "POST /api/import/row": right("import", "modify"),
    "POST /api/import/rows": right("import", "modify"),
    "PUT /api/import/mapping": right("import", "modify"),
}
