"""TagTrack: RFID tracking of items and workers."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tagtrack")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "1.31.2"
