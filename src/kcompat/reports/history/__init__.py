"""The nightly history: every run's records in a transactional table, and what they say over time.

``kcompat history ingest`` adds run directories to a Delta Lake store; ``kcompat history report``
answers from it: the latest matrix, regressions, flaky cells, each KIP's compatibility table as
observed, and every cell's history.  The job runs in a local Spark session by default and unchanged
under ``spark-submit`` (``src/kcompat/reports/history/job.py``).  Layout and choices: docs/HISTORY.md.

Like every report, this package reads records only (``kcompat.harness.records``); it never imports pytest,
fixtures, scenarios or a Kafka client.
"""
