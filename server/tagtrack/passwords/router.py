from typing import Annotated

from fastapi import APIRouter, Depends, Query

from tagtrack.access.dependencies import allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.schemas import Email
from tagtrack.kit.wiring import provide
from tagtrack.passwords.schemas import PasswordResetBody
from tagtrack.passwords.service import PasswordResetService

router = APIRouter(tags=["passwords"], responses=ERROR_RESPONSES)


Service = Annotated[PasswordResetService, Depends(provide(PasswordResetService))]


@router.post("/auth/passwordresetrequest", status_code=204)
async def request_reset(email: Annotated[Email, Query()], service: Service) -> None:
    """Mail a reset link if the email matches an active account (the answer never says)."""
    await service.request(email)


@router.post("/auth/passwordreset", status_code=204)
async def reset_password(body: PasswordResetBody, service: Service) -> None:
    """Set a new password with a mailed token; 401 reason 'password too weak' or otherwise."""
    await service.reset(body.token, body.password)


@router.put("/users/{user_id}", status_code=204)
async def send_reset(
    user_id: str,
    principal: Annotated[Principal, allowed("users", "modify")],
    service: Service,
) -> None:
    """Mail the user a link to set a new password."""
    await service.send_for_user(principal, user_id)
