"""Shared by the harness's own tests (not the scenarios)."""
