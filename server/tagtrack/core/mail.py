"""Outgoing mail: SMTP when TAGTRACK_SMTP_URL is set, else .eml files in the data dir."""

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import aiosmtplib

from tagtrack.core.config import Settings
from tagtrack.core.logging import get_logger

log = get_logger("tagtrack.mail")

DEFAULT_SENDER = "TagTrack <no-reply@tagtrack.example.com>"


@dataclass(frozen=True)
class Attachment:
    filename: str
    content: bytes
    media_type: str


class Mailer:
    """smtp://user:pass@host:587?from=...&starttls=true or smtps://host:465 (implicit TLS)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.url = urlparse(settings.smtp_url) if settings.smtp_url else None
        options = parse_qs(self.url.query) if self.url else {}
        self.sender = options.get("from", [DEFAULT_SENDER])[0]
        self.starttls = options.get("starttls", ["false"])[0].lower() == "true"

    def compose(
        self,
        to: list[str],
        subject: str,
        text: str,
        attachments: Sequence[Attachment] = (),
        *,
        html: str | None = None,
        date: datetime | None = None,
    ) -> EmailMessage:
        """A dated message: the text, an HTML alternative if given, then the attachments."""
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = ", ".join(to)
        message["Subject"] = subject
        message["Date"] = format_datetime(date or datetime.now(UTC))
        message["Message-ID"] = make_msgid(domain="tagtrack")
        message.set_content(text)
        if html is not None:
            message.add_alternative(html, subtype="html")
        for attachment in attachments:
            main, sub = attachment.media_type.split("/", 1)
            message.add_attachment(
                attachment.content, maintype=main, subtype=sub, filename=attachment.filename
            )
        return message

    async def deliver(self, message: EmailMessage) -> None:
        """Hand a composed message to the mail server (or write it to the data dir)."""
        if self.url is None:
            await asyncio.to_thread(self._write_file, message)
            return
        await aiosmtplib.send(
            message,
            hostname=self.url.hostname or "localhost",
            port=self.url.port or (465 if self.url.scheme == "smtps" else 25),
            username=unquote(self.url.username) if self.url.username else None,
            password=unquote(self.url.password) if self.url.password else None,
            use_tls=self.url.scheme == "smtps",
            start_tls=self.starttls or None,
            timeout=15,
        )

    def _write_file(self, message: EmailMessage) -> None:
        folder: Path = self.settings.data_dir / "mail"
        folder.mkdir(parents=True, exist_ok=True)
        name = str(message["Message-ID"]).strip("<>").replace("@", "_")
        (folder / f"{name}.eml").write_bytes(bytes(message))
        log.info("mail written to a folder (no SMTP server configured)", folder=str(folder))
