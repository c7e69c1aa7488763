"""kcompat's one import namespace.

The design's folders (harness/, fixtures/, reports/, scenarios/) are its subpackages, so nothing kcompat
installs takes a generic top-level name (``fixtures`` is also a PyPI project).
"""
