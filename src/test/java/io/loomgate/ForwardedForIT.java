package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.ChildProcess;
import io.loomgate.testing.LocalTools;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The shipped nginx and HAProxy configurations, end to end: a client on 127.0.0.2 that writes an
 * X-Forwarded-For of its own, through the real proxy (on 127.0.0.1, the loomgate's only trusted
 * proxy), reaches a route limited by client address as 127.0.0.2, whatever it wrote: the proxy
 * appends the address it saw, and loomgate takes the last hop that is not a trusted proxy. Skipped,
 * with the reason printed, without nginx or haproxy ({@code scripts/test} installs both where it may).
 */
class ForwardedForIT {

    private static ChildProcess gate(Path dir, int port, String api) throws Exception {
        Path routes = dir.resolve("routes.json");
        Files.writeString(routes, """
                {"upstreams": [{"id": "echo", "kind": "http", "url": "%s"}],
                 "routes": [{"path": "/limited", "policy": "single", "upstreams": ["echo"], "answer": "value",
                             "rateLimit": {"perSecond": 0.001, "burst": 1, "by": "ip"}},
                            {"path": "/px/*", "policy": "proxy", "upstreams": ["echo"]}]}""".formatted(api));
        ChildProcess p = ChildProcess.start(ChildProcess.java("-jar", MainIT.JAR, "--port", String.valueOf(port),
                "--routes", routes.toString(), "--trusted-proxies", "127.0.0.1"), Map.of(), MainIT.HOME);
        p.awaitStdout(l -> l.startsWith("loomgate listening on"), Duration.ofSeconds(30));
        return p;
    }

    @Test
    void throughTheShippedNginxConfigurationAClientCannotChooseItsAddress() throws Exception {
        Path nginx = LocalTools.installed("nginx").orElse(null);
        if (nginx == null) {
            System.out.println("ForwardedForIT: SKIPPED: nginx is not installed (install: sudo apt-get install nginx-light)");
        }
        Assumptions.assumeTrue(nginx != null, "nginx is needed");
        Path dir = Files.createTempDirectory("loomgate-xff-nginx");
        int front = LocalTools.freePort();
        int port = LocalTools.freePort();
        String conf = Files.readString(MainIT.HOME.resolve("deploy/nginx.conf"))
                .replace("listen 127.0.0.1:8080", "listen 127.0.0.1:" + front)
                .replace("/tmp/loomgate-nginx", dir + "/nginx")
                .replaceAll("127\\.0\\.0\\.1:808[123]", "127.0.0.1:" + port);
        Files.writeString(dir.resolve("nginx.conf"), conf);
        try (ApiUpstream api = ApiUpstream.start().answer("/", "{\"ok\":true}");
             ChildProcess g = gate(dir, port, api.url());
             ChildProcess proxy = ChildProcess.start(List.of(nginx.toString(), "-g", "daemon off;", "-p", dir.toString(),
                     "-c", dir.resolve("nginx.conf").toString()), Map.of(), MainIT.HOME)) {
            checkThrough(front, api, "nginx");
        } finally {
            LocalTools.deleteTree(dir);
        }
    }

    @Test
    void throughTheShippedHaproxyConfigurationAClientCannotChooseItsAddress() throws Exception {
        Path haproxy = LocalTools.installed("haproxy").orElse(null);
        if (haproxy == null) {
            System.out.println("ForwardedForIT: SKIPPED: haproxy is not installed (install: sudo apt-get install haproxy)");
        }
        Assumptions.assumeTrue(haproxy != null, "haproxy is needed");
        Path dir = Files.createTempDirectory("loomgate-xff-haproxy");
        int front = LocalTools.freePort();
        int port = LocalTools.freePort();
        String cfg = Files.readString(MainIT.HOME.resolve("deploy/haproxy.cfg"))
                .replace("bind 127.0.0.1:8080", "bind 127.0.0.1:" + front)
                .replace("bind 127.0.0.1:8404", "bind 127.0.0.1:" + LocalTools.freePort())
                .replaceAll("127\\.0\\.0\\.1:808[123]", "127.0.0.1:" + port);
        Files.writeString(dir.resolve("haproxy.cfg"), cfg);
        try (ApiUpstream api = ApiUpstream.start().answer("/", "{\"ok\":true}");
             ChildProcess g = gate(dir, port, api.url());
             ChildProcess proxy = ChildProcess.start(List.of(haproxy.toString(), "-db", "-f", dir.resolve("haproxy.cfg").toString()),
                     Map.of(), MainIT.HOME)) {
            checkThrough(front, api, "haproxy");
        } finally {
            LocalTools.deleteTree(dir);
        }
    }

    /** Through the proxy on {@code front}: the client's spoofed addresses share its one bucket, and the upstream learns its real address. */
    private static void checkThrough(int front, ApiUpstream api, String proxy) throws Exception {
        int first = awaitServed(front, "/limited", "203.0.113.1");
        assertEquals(200, first, proxy + ": the client's first request");
        assertEquals(429, send(front, "/limited", "203.0.113.2"),
                proxy + ": another address written in X-Forwarded-For is still the same client, 127.0.0.2");
        assertEquals(429, send(front, "/limited", "198.51.100.77, 203.0.113.3"), proxy + ": however many hops it writes");
        assertEquals(200, send(front, "/px/seen", "203.0.113.4"));
        String forwarded = api.requests().getLast().headers().get("x-forwarded-for");
        assertTrue(forwarded.endsWith("127.0.0.2, 127.0.0.1"), proxy + ": the upstream sees the client the proxy saw, then the"
                + " proxy: " + forwarded);
        System.out.println("ForwardedForIT: " + proxy + ": the upstream got X-Forwarded-For: " + forwarded);
    }

    /** The first request, once the proxy has the loomgate up (HAProxy's health check takes a moment). */
    private static int awaitServed(int front, String path, String spoofed) throws Exception {
        for (int i = 0; i < 100; i++) {
            int status = send(front, path, spoofed);
            if (status != 503 && status != 502 && status != -1) {
                return status;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the proxy on " + front + " never served " + path);
    }

    /** One request from 127.0.0.2 with its own X-Forwarded-For; the status, or -1 when the proxy is not up yet. */
    private static int send(int front, String path, String spoofed) {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress("127.0.0.2", 0));
            s.connect(new InetSocketAddress("127.0.0.1", front), 2_000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: " + spoofed
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            return answer.startsWith("HTTP/1.1 ") ? Integer.parseInt(answer.substring(9, 12)) : -1;
        } catch (IOException notUpYet) {
            return -1;
        }
    }
}
