"""The matrix: the KIPs' claims as data, cells planned from a selection, one verdict per cell.

``claims`` loads and checks the claims files, ``plan`` turns a selection of
brokers, clients and KIPs into cells, ``limits`` says which request versions
each side can use, ``verdict`` judges an observation, ``cell`` runs one cell
(with ``env``'s clusters and clients, the claim's probe from ``probes``, one
module each, and ``probe``'s context for it), ``runner`` is ``kcompat run``.
The pytest side (src/kcompat/fixtures/cells.py) parametrizes, schedules and reports
cells; src/kcompat/scenarios/ hold the claims.
"""
