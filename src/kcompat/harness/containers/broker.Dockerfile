# A kcompat broker image: one layout for both build paths (docker/README.md).
#
# BASE is either a registry image with Java at /opt/java/openjdk
# (eclipse-temurin:<major>-jre) or the offline base kcompat imports from a
# local JDK (kcompat/jre:<major>-<hash>).  The build context is made by
# `kcompat images build`: libs/ holds the Maven-resolved broker classpath
# (the same jars the process provider runs), `classpath` their order.
ARG BASE
FROM ${BASE}
COPY libs/ /opt/kafka/libs/
COPY classpath /opt/kafka/classpath
ENV KAFKA_HOME=/opt/kafka
WORKDIR /opt/kafka
