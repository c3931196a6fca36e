package io.loomgate.upstream.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.testing.FileGate;
import io.loomgate.testing.TestNames;
import io.loomgate.upstream.EndpointState;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An endpoint named by a host name that resolves to several addresses, and resolves to others
 * while loomgate runs: three real servers on one port of 127.0.0.1, 127.0.0.2 and 127.0.0.3, and a
 * name in the tests' own name service ({@link TestNames}) whose addresses the test changes.
 */
class ResolvedEndpointsTest {

    private static final String NAME = "api.loomgate.test";
    /** A name of its own: the JDK caches a name that did not resolve for 10 s whatever the tests ask. */
    private static final String GONE = "gone.loomgate.test";
    private static final List<String> ADDRESSES = List.of("127.0.0.1", "127.0.0.2", "127.0.0.3");

    @TempDir
    Path dir;
    private final List<HttpServer> servers = new ArrayList<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final Set<String> hosts = ConcurrentHashMap.newKeySet();
    private int port;

    @BeforeEach
    void start() throws IOException {
        for (int attempt = 0; servers.isEmpty() && attempt < 10; attempt++) {
            try {
                port = bind("127.0.0.1", 0);
                bind("127.0.0.2", port);
                bind("127.0.0.3", port);
            } catch (BindException taken) {
                stop();   // the port is taken on another address: try another
            }
        }
        assertEquals(3, servers.size(), "three servers on one port");
    }

    private int bind(String address, int p) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(address, p), 50);
        calls.put(address, new AtomicInteger());
        s.createContext("/api", exchange -> {
            calls.get(address).incrementAndGet();
            hosts.add(exchange.getRequestHeaders().getFirst("Host"));
            byte[] body = ("{\"at\":\"" + address + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        s.start();
        servers.add(s);
        return s.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
        servers.clear();
    }

    private Set<String> endpoints(FileGate g) {
        return g.gate().upstreams().endpoints(UpstreamId.of("api")).stream().map(EndpointState::endpoint).collect(Collectors.toSet());
    }

    private Set<String> at(String... addresses) {
        return Set.of(addresses).stream().map(a -> a + ":" + port).collect(Collectors.toSet());
    }

    @Test
    void theAddressesANameResolvesToBecomeEndpointsAndFollowItsChanges() throws Exception {
        TestNames.set(NAME, ADDRESSES.get(0), ADDRESSES.get(1));
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"endpoints\": [\"http://" + NAME + ":" + port
                        + "/api\"], \"balance\": \"round-robin\", \"resolveEvery\": \"1s\"}",
                List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"]}"))) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> endpoints(g).equals(at("127.0.0.1", "127.0.0.2")));
            for (int i = 0; i < 10; i++) {
                assertEquals(200, g.client().get("/x").statusCode());
            }
            assertEquals(List.of(5, 5, 0), ADDRESSES.stream().map(a -> calls.get(a).get()).toList(), "both addresses, in turn");
            assertEquals(Set.of(NAME + ":" + port), hosts, "the Host header keeps the name");

            TestNames.set(NAME, ADDRESSES.get(1), ADDRESSES.get(2));   // 127.0.0.1 went away, 127.0.0.3 came
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> endpoints(g).equals(at("127.0.0.2", "127.0.0.3")));
            int first = calls.get(ADDRESSES.get(0)).get();
            for (int i = 0; i < 10; i++) {
                assertEquals(200, g.client().get("/x").statusCode());
            }
            assertEquals(first, calls.get(ADDRESSES.get(0)).get(), "no call to the address that went away");
            assertTrue(calls.get(ADDRESSES.get(2)).get() >= 4, "the new address takes calls: " + calls);
        }
    }

    @Test
    void aNameThatStopsResolvingKeepsTheAddressesItHad() throws Exception {
        TestNames.set(GONE, ADDRESSES.get(2));
        try (FileGate g = FileGate.start(dir, "{\"id\": \"api\", \"kind\": \"http\", \"endpoints\": [\"http://" + GONE + ":" + port
                        + "/api\"], \"resolveEvery\": \"1s\"}",
                List.of("{\"path\": \"/x\", \"policy\": \"single\", \"upstreams\": [\"api\"]}"))) {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> endpoints(g).equals(at("127.0.0.3")));
            TestNames.set(GONE);   // NXDOMAIN from now on
            Thread.sleep(1500);    // a resolution or more fails meanwhile
            assertEquals(at("127.0.0.3"), endpoints(g));
            assertEquals(200, g.client().get("/x").statusCode());
            assertEquals(1, calls.get(ADDRESSES.get(2)).get());
        }
    }
}
