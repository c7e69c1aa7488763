"""Parametrized compatibility scenarios (KIP-108, -142, -195, -525, -569).

Scenario modules live here and run with ``pytest scenarios``; they import
``fixtures`` and ``harness`` only.  The broker axis comes from
``harness/catalog.toml``; the client axis arrives with the client adapters.
"""
