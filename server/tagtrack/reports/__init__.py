"""Report configurations, report runs (XLSX and JSON), the Activity report and the daily
jobs of each site: the inventory cycle and the report mail."""
