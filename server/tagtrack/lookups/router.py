from fastapi import APIRouter

from tagtrack.auth.dependencies import SignedIn
from tagtrack.sites.schemas import TimezoneRead, timezone_names

router = APIRouter(tags=["lookups"])


@router.get("/timezones", response_model=list[TimezoneRead])
async def timezones(principal: SignedIn) -> list[TimezoneRead]:
    """IANA timezone names, sorted."""
    return [TimezoneRead(id=name) for name in timezone_names()]
