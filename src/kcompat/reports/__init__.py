"""Views of the per-cell records: allure, the matrix page, the PySpark history job.

Imports nothing from pytest, ``fixtures`` or any Kafka client (a structural
test checks); it reads records, never allure's files.
"""
