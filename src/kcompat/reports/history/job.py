"""The spark-submit entry point: the same commands and arguments as ``kcompat history``.

    spark-submit --master spark://HOST:7077 --py-files kcompat-history.zip \\
        --packages io.delta:delta-spark_2.13:VERSION ... src/kcompat/reports/history/job.py report --store S --out O

``kcompat.reports.history.submit`` builds the archive and the whole command line (docs/HISTORY.md).
The session is the one spark-submit configured: its master, its jars.
"""

from kcompat.reports.history.cli import history

if __name__ == "__main__":
    history(prog_name="job.py", obj={"submitted": True})
