"""The matrix: the KIPs' claims as data, cells planned from a selection, one verdict per cell.

``claims`` loads and checks the claims files, ``plan`` turns a selection of
brokers, clients and KIPs into cells, ``limits`` says which request versions
each side can use, ``verdict`` judges an observation, ``runner`` is ``kcompat
run``.  The pytest side (fixtures/matrix.py) executes cells; scenarios/ hold
the claims and the probes that observe them.
"""
