"""Everything that talks to a Docker engine, in one package.

``engine`` (the one client, labels, removal), ``images`` (find or build a
broker image from ``broker.Dockerfile``, shipped here as package data),
``rootfs`` (the offline Java base), ``jvm`` (one JVM in a container, the only
user of testcontainers), ``reuse`` (leases on clusters left running),
``orphans`` (removing what dead owners left) and ``watchdog`` (the process
that sweeps a harness's containers when it dies).  The container provider
(``kcompat.harness.providers.container``) builds on these; nothing here imports a
provider.  Importing this package loads neither the Docker SDK nor
testcontainers: modules import them where they talk to the engine.
"""
