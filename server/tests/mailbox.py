"""A real SMTP server (aiosmtpd) that keeps what it receives."""

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from email import message_from_bytes
from email.message import Message

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.mail.sender import OutboxSender
from tagtrack.models.base import utcnow
from tests.serve import free_port


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802 - aiosmtpd's hook name
        self.messages.append(message_from_bytes(envelope.original_content or b""))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if address in str(m["To"])]

    async def arrived(self, address: str, count: int = 1, seconds: float = 15) -> list[Message]:
        """The mail to the address once at least `count` have come (the outbox sends it in
        the background)."""
        deadline = asyncio.get_running_loop().time() + seconds
        while len(self.to(address)) < count:
            assert asyncio.get_running_loop().time() < deadline, f"no mail to {address}"
            await asyncio.sleep(0.05)
        return self.to(address)


class SmtpServer:
    """The server on one port, to stop (an outage) and start again."""

    def __init__(self, mailbox: Mailbox) -> None:
        self.mailbox = mailbox
        self.port = free_port()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.mailbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@contextmanager
def stoppable_smtp_server() -> Iterator[tuple[Mailbox, str, SmtpServer]]:
    """Yield the mailbox, an smtp:// URL for TAGTRACK_SMTP_URL and the running server."""
    mailbox = Mailbox()
    server = SmtpServer(mailbox)
    server.start()
    try:
        url = f"smtp://127.0.0.1:{server.port}?from=TagTrack%20<tagtrack@example.com>"
        yield mailbox, url, server
    finally:
        server.stop()


@contextmanager
def smtp_server() -> Iterator[tuple[Mailbox, str]]:
    """Yield the mailbox and an smtp:// URL for TAGTRACK_SMTP_URL."""
    with stoppable_smtp_server() as (mailbox, url, _):
        yield mailbox, url


async def deliver(
    sessionmaker: async_sessionmaker[AsyncSession],
    smtp_url: str,
    settings: Settings,
    org_id: str | None = None,
    later: timedelta = timedelta(0),
) -> int:
    """Send the due mail of the outbox (of one organization) to this SMTP server, as the
    background sender does, on a clock `later` ahead; the number sent."""
    given = settings.model_copy(update={"smtp_url": smtp_url})
    sender = OutboxSender(sessionmaker, given, clock=lambda: utcnow() + later)
    # The mailbox keeps each mail before the server answers it: sent is received.
    return await sender.deliver_due(org_id)
