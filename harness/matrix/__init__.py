"""The matrix: the KIPs' claims as data, cells planned from a selection, one verdict per cell.

``claims`` loads and checks the claims files, ``plan`` turns a selection of
brokers, clients and KIPs into cells, ``limits`` says which request versions
each side can use, ``verdict`` judges an observation, ``cell`` runs one cell
(with ``env``'s clusters and clients, and ``probe``'s context for the
probes), ``runner`` is ``kcompat run``.  The pytest side (fixtures/matrix.py)
parametrizes, schedules and reports cells; scenarios/ hold the claims and the
probes that observe them.
"""
