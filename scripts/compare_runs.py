"""Two runs' records, compared cell by cell minus what differs by nature (times, ids, workers, log paths).

``python scripts/compare_runs.py RUN_A RUN_B [--ignore KEY]...`` prints one line per cell whose
judgement differs (missing on a side; outcome, limits, documented side,
differences, request version, observations' outcomes...) and exits 1 when any
does: a refactoring of the engine must leave them byte-for-byte the same.
The raw ``observed`` values are compared too but only counted: brokers vary
between two runs of the same code (connection ids in error messages, a
partition count read before KRaft's metadata caught up), so they are
reported as a figure, never a failure (the comparison is kcompat.reports.compare's, which the golden
records' test uses too).  ``--ignore schema_version`` compares runs written on
either side of a records version that changed no field (4: a bug of ours is ``infra_error``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from kcompat.reports.compare import compare, load


def main(a: str, b: str, ignore: frozenset[str] = frozenset()) -> int:
    """Print each cell judged differently and the summary; 1 when any is."""
    result = compare(load(Path(a), ignore), load(Path(b), ignore), (a, b))
    for line in result.differences:
        print(line)
    print(result.summary())
    return 1 if result.differences else 0


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_a", type=Path)
    parser.add_argument("run_b", type=Path)
    parser.add_argument("--ignore", action="append", default=[], metavar="KEY",
                        help="a record key to leave out of the comparison (repeatable)")
    args = parser.parse_args()
    sys.exit(main(str(args.run_a), str(args.run_b), frozenset(args.ignore)))
