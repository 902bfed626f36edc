"""The mail outbox: mail is written in the transaction of what causes it and a background
sender delivers it, retrying with backoff, so a mail server outage loses none."""
