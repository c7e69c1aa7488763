"""The compatibility scenarios: one test over every cell of the claim book, and the probes.

``test_cells.py`` is parametrized from the claims (``scenarios/claims``, the documents'
texts in ``scenarios/sources``) and runs with ``pytest scenarios``; ``probes.py`` observes
what each claim names.  They import ``fixtures`` and ``harness`` only.
"""
