package io.loomgate.testing;

import io.loomgate.json.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A thin HTTP/1.1 client for tests: one pooled {@link HttpClient}, bodies as strings, JSON parsed.
 * Its work runs on virtual threads: the default executor would grow a pool of platform threads
 * under concurrency, which would blur what tests count of the server's own threads.
 */
public final class TestClient implements AutoCloseable {

    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client;
    private final URI base;

    public TestClient(URI base) {
        this.base = base;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .executor(executor)
                .build();
    }

    public HttpResponse<String> get(String pathAndQuery) {
        return send("GET", pathAndQuery);
    }

    /** GETs with request headers, given as name, value, name, value, ... */
    public HttpResponse<String> get(String pathAndQuery, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(30));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpResponse<String> send(String method, String pathAndQuery) {
        try {
            return sendChecked(method, pathAndQuery);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Like {@link #send}, but lets an {@link IOException} (refused, reset) through for tests that expect one. */
    public HttpResponse<String> sendChecked(String method, String pathAndQuery) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(30))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** GETs and parses the body, which must be a JSON object. */
    public Map<String, Object> getJson(String pathAndQuery) {
        return json(get(pathAndQuery));
    }

    public static Map<String, Object> json(HttpResponse<String> response) {
        return JsonParser.parseObject(response.body());
    }

    public HttpClient http() {
        return client;
    }

    @Override
    public void close() {
        client.close();
        executor.close();
    }
}
