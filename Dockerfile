# The scorer image, built from this repository: docker build -t mmgr-stream .
# The FFmpeg natives bundled for video decoding are linux-x86_64 only, hence the amd64 platform.

FROM --platform=linux/amd64 maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
# The deployable artifact is the app module's jar and its dependency closure (src/app/target/lib): no
# embedded broker, no Scala, no scripted provider (the build fails if one comes in). The reactor reads
# every module's pom; only the app and the modules below it are built (the embedded broker too, a test
# dependency of theirs, built and not shipped).
COPY pom.xml .
COPY schemas schemas
COPY src src
RUN mvn -B -ntp -q -DskipTests -pl src/app -am package

FROM --platform=linux/amd64 eclipse-temurin:17-jre
RUN useradd --system --home-dir /var/lib/mmgr --create-home mmgr \
    && mkdir -p /artifacts && chown mmgr /artifacts
COPY --from=build /src/src/app/target/mmgr-app.jar /opt/mmgr/target/mmgr-stream.jar
COPY --from=build /src/src/app/target/lib /opt/mmgr/target/lib
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
