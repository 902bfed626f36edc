"""Settings from environment variables prefixed TAGTRACK_."""

from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

# Database connections each process keeps open, and half as many more at busy moments.
DEFAULT_DATABASE_POOL_SIZE = 20
# The built console: inside the installed wheel, or web/dist of the source tree.
_PACKAGED_WEB = Path(__file__).resolve().parents[1] / "web"
DEFAULT_WEB_DIST = (
    _PACKAGED_WEB
    if _PACKAGED_WEB.is_dir()
    else Path(__file__).resolve().parents[3] / "web" / "dist"
)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TAGTRACK_", extra="ignore")

    database_url: str = ""
    data_dir: Path = Path("./data")
    host: str = "127.0.0.1"
    port: int = 8000
    # HTTP worker processes of `tagtrack serve` (0: one per core it may use).
    workers: int = 0
    # Every HTTP worker opens its own pool at start: workers x this stays within the
    # database's max_connections with room for the other processes.
    database_pool_size: int = DEFAULT_DATABASE_POOL_SIZE
    storage_url: str = ""
    smtp_url: str = ""
    mqtt_url: str = ""
    public_url: str = ""
    admin_email: str = ""
    admin_password: str = ""
    # Signs password reset links; empty: a random secret the migrations keep in the database.
    secret_key: str = ""
    # Entra single sign-on: this installation's app registration (multi-tenant); each
    # organization names its tenant. The authority is overridable for tests and sovereign clouds.
    entra_authority: str = "https://login.microsoftonline.com"
    entra_client_id: str = ""
    entra_client_secret: str = ""
    # Serve the built console from this folder when it exists.
    web_dist: Path = DEFAULT_WEB_DIST
    # A session ends this long after sign-in, or after this long unused, whichever is first.
    session_days: int = 14
    session_idle_minutes: int = 720
    cookie_secure: bool = False
    # Reverse proxies (comma-separated addresses) whose X-Forwarded-Proto and X-Forwarded-For
    # are believed; anyone else's are ignored.
    trusted_proxies: str = ""
    # Login protection: per-client failures per minute, per-account failures before lock.
    login_rate_limit_per_minute: int = 10
    login_lockout_failures: int = 10
    demo: bool = False
    # Tag reads: run the processing worker and its sweeps for this process.
    processing: bool = True
    # ... in a child OS process of its own, so that requests keep a core to themselves
    # (false: in this process's event loop).
    processing_process: bool = True
    # Reads of a tag at one endpoint and antenna closer than this fold into one event.
    repeat_window_seconds: float = 60
    # A handheld stays at the location tag it read for this long.
    location_hold_seconds: float = 60
    # Ingest answers 429 when this many acknowledged reads wait to be processed.
    ingest_max_pending: int = 500_000
    sweep_interval_seconds: float = 15
    # How often each process looks for sites whose daily time has come.
    daily_tick_seconds: float = 30
    # MQTT: the processes of an installation share the reader topics as one group. Each
    # process keeps a persistent session under a stable client id (default: host and port),
    # so a restarted process gets back what the broker held for it.
    mqtt_share_group: str = "tagtrack"
    mqtt_client_id: str = ""
    mqtt_session_expiry_seconds: int = 86_400
    # mqtts://: the CA that signed the broker's certificate (empty: the system's), and a
    # client certificate and key when the broker asks for one.
    mqtt_ca_file: str = ""
    mqtt_cert_file: str = ""
    mqtt_key_file: str = ""
    raw_payload_days: int = 3
    # Mail goes through the outbox: this process delivers it, and a failed attempt is tried
    # again after the first wait, doubling up to the longest, until this many have failed.
    mail_sender: bool = True
    mail_retry_first_seconds: float = 30
    mail_retry_max_seconds: float = 3600
    mail_max_attempts: int = 12
    log_json: bool = True


@lru_cache
def get_settings() -> Settings:
    return Settings()
