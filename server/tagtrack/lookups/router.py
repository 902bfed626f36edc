from fastapi import APIRouter

from tagtrack.auth.dependencies import SignedIn
from tagtrack.kit.schemas import ApiModel
from tagtrack.sites.schemas import TimezoneRead, timezone_names

router = APIRouter(tags=["lookups"])


class Choice(ApiModel):
    id: str
    name: str


KILL_MODES = (Choice(id="zone", name="Leave the zone"), Choice(id="site", name="Leave the site"))
THING_CLASSES = (Choice(id="item", name="Item"), Choice(id="worker", name="Worker"))


@router.get("/timezones", response_model=list[TimezoneRead])
async def timezones(principal: SignedIn) -> list[TimezoneRead]:
    """IANA timezone names, sorted."""
    return [TimezoneRead(id=name) for name in timezone_names()]


@router.get("/killmodes", response_model=list[Choice])
async def kill_modes(principal: SignedIn) -> list[Choice]:
    """What a zone's kill does: leave the zone, or leave the site."""
    return list(KILL_MODES)


@router.get("/thingclasses", response_model=list[Choice])
async def thing_classes(principal: SignedIn) -> list[Choice]:
    """The classes of things: item and worker."""
    return list(THING_CLASSES)
