"""Set-ups probes share, each through the real broker."""
