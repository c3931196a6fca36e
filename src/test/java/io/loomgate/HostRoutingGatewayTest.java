package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loomgate.config.CommandLine;
import io.loomgate.config.UsageException;
import io.loomgate.testing.ApiUpstream;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Routing by host, method, header and query through a real gateway, over raw sockets (the JDK's
 * client will not send a Host of the test's choosing): two upstreams behind one port, a route that
 * forwards only some methods, and {@code check} printing the order routes are matched in.
 */
class HostRoutingGatewayTest {

    @TempDir
    Path dir;

    private static final String ROUTES = """
            {"path": "/*", "policy": "proxy", "upstreams": ["a"], "host": ["api.example.com"]},
            {"path": "/*", "policy": "proxy", "upstreams": ["b"], "host": "api.example.com", "match": {"headers": {"X-Version": "2"}}},
            {"path": "/*", "policy": "proxy", "upstreams": ["b"], "host": "*.example.com", "methods": ["GET"]},
            {"path": "/beta/*", "policy": "proxy", "upstreams": ["b"], "match": {"query": {"beta": "1"}}},
            {"path": "/beta/*", "policy": "proxy", "upstreams": ["a"]}""";

    private static String upstreams(ApiUpstream a, ApiUpstream b) {
        return "{\"id\": \"a\", \"kind\": \"http\", \"url\": \"" + a.url() + "/\"}, {\"id\": \"b\", \"kind\": \"http\", \"url\": \"" + b.url() + "/\"}";
    }

    private static RawHttp.Answer send(FileGate g, String method, String target, String host, String... headers) {
        StringBuilder r = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: " + host + "\r\n");
        for (String h : headers) {
            r.append(h).append("\r\n");
        }
        r.append("Content-Length: 0\r\nConnection: close\r\n\r\n");
        return RawHttp.send(new InetSocketAddress("127.0.0.1", g.gate().baseUri().getPort()), r.toString());
    }

    @Test
    void hostMethodHeaderAndQueryPickTheRoute() throws Exception {
        try (ApiUpstream a = ApiUpstream.start().answer("/", "{\"from\":\"a\"}");
             ApiUpstream b = ApiUpstream.start().answer("/", "{\"from\":\"b\"}");
             FileGate g = FileGate.start(dir, upstreams(a, b), List.of(ROUTES.split(",\n")))) {
            assertTrue(send(g, "GET", "/x", "API.example.com:8080").text().contains("\"from\":\"a\""), "the exact host");
            assertTrue(send(g, "GET", "/x", "api.example.com", "X-Version: 2").text().contains("\"from\":\"b\""),
                    "the same host with a header condition");
            assertTrue(send(g, "GET", "/x", "www.example.com").text().contains("\"from\":\"b\""), "the wildcard");
            RawHttp.Answer post = send(g, "POST", "/x", "www.example.com");
            assertEquals(405, post.status(), post.text());
            assertEquals("GET, HEAD, OPTIONS", post.header("Allow"), "the wildcard's route forwards GET only");
            assertTrue(send(g, "GET", "/beta/x?beta=1", "other.test").text().contains("\"from\":\"b\""), "a query condition");
            assertTrue(send(g, "GET", "/beta/x?beta=2", "other.test").text().contains("\"from\":\"a\""));
            assertEquals(404, send(g, "GET", "/x", "other.test").status(), "no route for another host's /x");
            assertEquals(200, send(g, "GET", "/health", "api.example.com").status(), "the gateway's own pages for every host");
        }
    }

    @Test
    void checkPrintsTheOrderAndBadHostsAreRefused() throws Exception {
        try (ApiUpstream a = ApiUpstream.start(); ApiUpstream b = ApiUpstream.start()) {
            Path file = Files.writeString(dir.resolve("routes.json"), "{\"upstreams\": [" + upstreams(a, b) + "], \"routes\": ["
                    + ROUTES + "]}");
            var check = (CommandLine.Check) CommandLine.parse(List.of("check", file.toString()), Map.of());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertEquals(0, CheckCommand.run(check.files(), check.config(), new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
            String printed = out.toString(StandardCharsets.UTF_8);
            assertTrue(printed.contains("    api.example.com: /* [header.x-version=2], /*\n"), printed);
            assertTrue(printed.contains("    *.example.com: /*\n"), printed);
            assertTrue(printed.contains("    any other host: /beta/* [query.beta=1], /beta/*\n"), printed);

            Files.writeString(file, "{\"upstreams\": [" + upstreams(a, b) + "], \"routes\": [{\"path\": \"/*\", \"policy\": \"proxy\","
                    + " \"upstreams\": [\"a\"], \"host\": \"api.example.com:8080\"}]}");
            UsageException bad = assertThrows(UsageException.class, () -> FileGate.start(dir, upstreams(a, b),
                    List.of("{\"path\": \"/*\", \"policy\": \"proxy\", \"upstreams\": [\"a\"], \"host\": \"api.example.com:8080\"}")));
            assertTrue(bad.getMessage().contains("routes[0].host must be host names (api.example.com) or one leading wildcard"
                    + " (*.example.com), without a port; got 'api.example.com:8080'"), bad.getMessage());
        }
    }
}
