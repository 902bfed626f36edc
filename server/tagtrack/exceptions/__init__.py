"""Exceptions: dwell alerts, inventory shortages and overages, reads not processed."""
