"""Reader ingest: turning what readers send into reads."""
