# syntax=docker/dockerfile:1
# loomgate's container image: built with Maven on a JDK 25, run on a JRE 25 as a non-root user.
#   docker build -t loomgate:0.1.0 .
#   docker run --rm -p 8080:8080 loomgate:0.1.0
# The admin port (9091: /metrics, /dashboard, /debug/*) binds the container's loopback, where the
# HEALTHCHECK reaches it; to scrape it from outside, add --admin-host 0.0.0.0 and publish it on the
# host's loopback only: docker run -p 8080:8080 -p 127.0.0.1:9091:9091 loomgate:0.1.0 ... --admin-host 0.0.0.0
# Not built on the machines loomgate is developed on (no Docker engine there): see the README's
# "Operating at scale" for what is tested and what is not.

FROM maven:3.9-eclipse-temurin-25 AS build
WORKDIR /src
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY src ./src
RUN mvn -B -q -DskipTests package

FROM eclipse-temurin:25-jre
RUN groupadd --system --gid 10001 loomgate \
 && useradd --system --uid 10001 --gid loomgate --no-create-home --shell /usr/sbin/nologin loomgate
COPY --from=build /src/target/loomgate.jar /app/loomgate.jar
USER 10001:10001
EXPOSE 8080
# A heap capped whatever the host and started at 32 MB, as scripts/run does (docs/operations.md#memory); exit on
# OutOfMemoryError so the runtime restarts it. Raise it with -e JDK_JAVA_OPTIONS=-Xmx1g (read after
# this, so it wins; a ceiling below 32 MB needs -Xms with it), or size it from a memory limit with -e JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75
# -XX:+ExitOnOutOfMemoryError", as deploy/k8s does.
ENV JAVA_TOOL_OPTIONS="-Xmx256m -Xms32m -XX:+ExitOnOutOfMemoryError"
# /livez on the admin port, with bash's /dev/tcp: the JRE image has no curl, and needs none.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/9091 && printf 'GET /livez HTTP/1.1\\r\\nHost: localhost:9091\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["java", "--enable-preview", "-jar", "/app/loomgate.jar"]
CMD ["--host", "0.0.0.0", "--port", "8080", "--admin-port", "9091", "--drain-delay", "5s"]
