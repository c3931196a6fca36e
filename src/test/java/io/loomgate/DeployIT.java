package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.json.JsonParser;
import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.LocalTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The deployment files. The Kubernetes manifests validate against the Kubernetes API's own schemas
 * (strict: no unknown field), with {@code kubernetes-validate} from PyPI, which {@code scripts/test}
 * installs into {@code ~/.cache/loomgate} where it may (skipped with the reason printed otherwise);
 * a broken copy must fail, so the validator is seen to validate. The manifests' timings must keep
 * the shutdown order. The Dockerfile cannot be built here (no Docker engine): its health-check
 * command runs against a real loomgate, and its shape is checked as text.
 */
class DeployIT {

    private static final Path K8S = MainIT.HOME.resolve("deploy/k8s");
    private static final String KUBERNETES_VERSION = "1.33.0";

    @Test
    void theManifestsValidateStrictlyAndABrokenOneDoesNot() throws Exception {
        Path validator = validator().orElse(null);
        if (validator == null) {
            System.out.println("DeployIT: SKIPPED manifest validation: kubernetes-validate is not installed"
                    + " (scripts/test installs it from PyPI into ~/.cache/loomgate/kubernetes-validate where it may)");
        }
        Assumptions.assumeTrue(validator != null, "kubernetes-validate is not installed");
        List<String> files;
        try (Stream<Path> list = Files.list(K8S)) {
            files = list.filter(p -> p.toString().endsWith(".yaml")).map(Path::toString).sorted().toList();
        }
        assertEquals(3, files.size(), files.toString());
        List<String> cmd = new ArrayList<>(List.of(validator.toString(), "--strict", "-k", KUBERNETES_VERSION));
        cmd.addAll(files);
        try (ChildProcess p = ChildProcess.start(cmd, Map.of(), MainIT.HOME)) {
            assertEquals(0, p.awaitExit(Duration.ofSeconds(60)), p.stdout() + " " + p.stderr());
            String out = String.join("\n", p.stdout()) + String.join("\n", p.stderr());
            for (String kind : List.of("deployment/loomgate", "service/loomgate", "poddisruptionbudget/loomgate")) {
                assertTrue(out.contains("passed for resource " + kind), out);
            }
        }
        Path broken = Files.createTempFile("loomgate-broken", ".yaml");
        try {
            Files.writeString(broken, Files.readString(K8S.resolve("deployment.yaml"))
                    .replace("replicas: 3", "replicas: three").replace("periodSeconds: 1", "periodSecond: 1"));
            try (ChildProcess p = ChildProcess.start(List.of(validator.toString(), "--strict", "-k", KUBERNETES_VERSION,
                    broken.toString()), Map.of(), MainIT.HOME)) {
                assertNotEquals(0, p.awaitExit(Duration.ofSeconds(60)), "a broken manifest must fail: " + p.stdout());
            }
        } finally {
            Files.deleteIfExists(broken);
        }
    }

    @Test
    void theDeploymentKeepsTheShutdownOrder() throws Exception {
        String d = Files.readString(K8S.resolve("deployment.yaml"));
        long drain = seconds(d, "--drain-delay=(\\d+)s");
        long grace = seconds(d, "--shutdown-grace=(\\d+)s");
        long termination = seconds(d, "terminationGracePeriodSeconds: (\\d+)");
        assertTrue(drain >= 3, "a drain delay long enough for the endpoints to update: " + drain);
        assertTrue(termination > drain + grace, "terminationGracePeriodSeconds " + termination
                + " must exceed drain delay " + drain + " + grace " + grace);
        long readinessPeriod = seconds(d, "path: /readyz\\s+port: admin\\s+periodSeconds: (\\d+)");
        assertTrue(readinessPeriod * 2 < drain, "readiness notices the drain well within the delay");
        assertTrue(d.contains("path: /livez"), "liveness on /livez");
        assertTrue(d.contains("JAVA_TOOL_OPTIONS") && d.contains("MaxRAMPercentage"), "a container-sized heap");
        assertTrue(!d.contains("preStop:"), "no preStop hook: the drain delay does its work");
        assertTrue(d.contains("--admin-port=9091") && d.contains("--host=0.0.0.0"));
    }

    /** The image's HEALTHCHECK, run as the image would run it, against a real loomgate's admin port. */
    @Test
    void theDockerfilesHealthCheckProbesLivez() throws Exception {
        String dockerfile = Files.readString(MainIT.HOME.resolve("Dockerfile"));
        assertTrue(dockerfile.matches("(?s).*FROM maven:[^\\n]*temurin-25 AS build.*FROM eclipse-temurin:25-jre\\n.*"),
                "multi-stage: Maven on a JDK 25, then a JRE 25");
        assertTrue(dockerfile.contains("USER 10001"), "runs as a non-root user");
        assertTrue(dockerfile.contains("\"--enable-preview\"") && dockerfile.contains("\"0.0.0.0\""));
        Matcher jvm = Pattern.compile("LOOMGATE_JVM_FLAGS=\\((-Xmx\\w+ -Xms\\w+)\\)").matcher(Files.readString(MainIT.HOME.resolve("scripts/lib/jvm.sh")));
        assertTrue(jvm.find(), "scripts/run caps the heap and starts it small");
        assertTrue(dockerfile.contains("ENV JAVA_TOOL_OPTIONS=\"" + jvm.group(1) + " "), "the image caps it as scripts/run does: " + jvm.group(1));
        Matcher m = Pattern.compile("HEALTHCHECK [^\\n]*\\\\\\n\\s*CMD (\\[.*])").matcher(dockerfile);
        assertTrue(m.find(), "a HEALTHCHECK in exec form");
        @SuppressWarnings("unchecked")
        List<String> check = (List<String>) JsonParser.parse(m.group(1));
        assertTrue(check.get(2).contains("/livez"), check.toString());

        int admin = LocalTools.freePort();
        List<String> command = new ArrayList<>(check);
        command.set(2, check.get(2).replace("9091", String.valueOf(admin)));
        try (ChildProcess gate = ChildProcess.start(ChildProcess.java("-jar", MainIT.JAR, "--port", "0",
                "--admin-port", String.valueOf(admin)), Map.of(), MainIT.HOME)) {
            gate.awaitStdout(l -> l.contains("admin on"), Duration.ofSeconds(30));
            try (ChildProcess probe = ChildProcess.start(command, Map.of(), MainIT.HOME)) {
                assertEquals(0, probe.awaitExit(Duration.ofSeconds(60)), "healthy: " + probe.stderr());
            }
        }
        try (ChildProcess probe = ChildProcess.start(command, Map.of(), MainIT.HOME)) {
            assertNotEquals(0, probe.awaitExit(Duration.ofSeconds(60)), "nothing listens: unhealthy");
        }
    }

    private static long seconds(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), "no " + regex);
        return Long.parseLong(m.group(1));
    }

    /** {@code $LOOMGATE_KUBERNETES_VALIDATE}, scripts/test's install, or one on the PATH. */
    private static Optional<Path> validator() {
        List<Path> candidates = new ArrayList<>();
        String given = System.getenv("LOOMGATE_KUBERNETES_VALIDATE");
        if (given != null) {
            candidates.add(Path.of(given));
        }
        candidates.add(Path.of(System.getProperty("user.home"), ".cache/loomgate/kubernetes-validate/bin/kubernetes-validate"));
        for (String dir : System.getenv("PATH").split(":")) {
            candidates.add(Path.of(dir, "kubernetes-validate"));
        }
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }
}
