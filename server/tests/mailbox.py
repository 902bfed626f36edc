"""A real SMTP server (aiosmtpd) that keeps what it receives."""

from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import Message

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from tests.serve import free_port


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802 - aiosmtpd's hook name
        self.messages.append(message_from_bytes(envelope.original_content or b""))
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[Message]:
        return [m for m in self.messages if address in str(m["To"])]


@contextmanager
def smtp_server() -> Iterator[tuple[Mailbox, str]]:
    """Yield the mailbox and an smtp:// URL for TAGTRACK_SMTP_URL."""
    mailbox = Mailbox()
    port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield mailbox, f"smtp://127.0.0.1:{port}?from=TagTrack%20<tagtrack@example.com>"
    finally:
        controller.stop()
