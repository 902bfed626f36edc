from prometheus_client import Counter

MAIL_SENT = Counter("tagtrack_mail_sent", "Mail handed to the mail server")
MAIL_FAILED = Counter(
    "tagtrack_mail_failed",
    "Failed mail delivery attempts; given_up=true when the last one failed",
    ["given_up"],
)
