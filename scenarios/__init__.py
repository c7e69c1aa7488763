"""The compatibility scenarios: one test over every cell of the claim book.

``test_cells.py`` is parametrized from the claims (``scenarios/claims``, the documents'
texts in ``scenarios/sources``) and runs with ``pytest scenarios``; the probes that
observe what each claim names are harness's (``harness/matrix/probes/``).  It imports
``fixtures`` and ``harness`` only.
"""
