"""kcompat's one import namespace.

The design's top-level folders (harness/, fixtures/, reports/, scenarios/) are its subpackages:
each is a link here in the source tree and a real directory in the wheel, so nothing kcompat
installs takes a generic top-level name (``fixtures`` is also a PyPI project).
"""
