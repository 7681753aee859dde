# The scorer image, built from this repository: docker build -t mmgr-stream .
# The FFmpeg natives bundled for video decoding are linux-x86_64 only, hence the amd64 platform.

FROM --platform=linux/amd64 maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
# dependencies first, so source edits reuse this layer
COPY pom.xml .
RUN mvn -B -ntp -q -DskipTests dependency:go-offline
COPY schemas schemas
COPY src/main src/main
RUN mvn -B -ntp -q -DskipTests package

FROM --platform=linux/amd64 eclipse-temurin:17-jre
RUN useradd --system --home-dir /var/lib/mmgr --create-home mmgr \
    && mkdir -p /artifacts && chown mmgr /artifacts
COPY --from=build /src/target/mmgr-stream.jar /opt/mmgr/target/mmgr-stream.jar
COPY --from=build /src/target/lib /opt/mmgr/target/lib
COPY bin/mmgr /opt/mmgr/bin/mmgr
USER mmgr
WORKDIR /var/lib/mmgr
# every flag of 'run' has an MMGR_* environment default (docs/configuration.md)
ENV MMGR_DATA_DIR=/var/lib/mmgr \
    MMGR_ARTIFACT_ROOTS=/artifacts \
    MMGR_JAVA_OPTS="-XX:MaxRAMPercentage=75"
VOLUME ["/var/lib/mmgr"]
ENTRYPOINT ["/opt/mmgr/bin/mmgr"]
CMD ["run"]
