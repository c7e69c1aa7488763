"""The compatibility scenarios: one test over every cell of the claim book.

``test_cells.py`` is parametrized from the claims (``src/kcompat/scenarios/claims``, the documents'
texts in ``src/kcompat/scenarios/sources``) and runs with ``pytest scenarios``; the probes that
observe what each claim names are harness's (``src/kcompat/harness/matrix/probes/``).  It imports
``fixtures`` and ``harness`` only.
"""
