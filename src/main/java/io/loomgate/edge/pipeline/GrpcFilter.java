package io.loomgate.edge.pipeline;

import io.loomgate.grpc.GrpcStatus;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import io.loomgate.json.JsonParser;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A gRPC client reads only {@code grpc-status}: so a gRPC request (an HTTP/2 stream whose
 * {@code content-type} is {@code application/grpc}, or {@code application/grpc+...}) that loomgate
 * answers itself with an error (no route, a refused credential, a rate limit, the deadline, no
 * upstream) gets HTTP 200 and that error's gRPC code ({@link GrpcStatus#forGatewayAnswer}) and
 * message in a Trailers-Only answer (one HEADERS frame that ends the stream), as Envoy does. An
 * upstream's own answer (a streamed one) passes as it came. Nothing on the way in.
 */
final class GrpcFilter implements Filter {

    @Override
    public String name() {
        return "grpc";
    }

    @Override
    public Response onRequest(Visit v) {
        return null;
    }

    @Override
    public Response onResponse(Visit v, Response answer) {
        if (answer.stream() != null || answer.status() < 400 || !grpc(v)) {
            return answer;
        }
        GrpcStatus status = GrpcStatus.forGatewayAnswer(answer.status());
        Headers.Builder fields = Headers.builder().add("grpc-status", String.valueOf(status.code()))
                .add("grpc-message", percentEncoded(message(answer)));
        answer.headers().forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!lower.equals("content-length") && !lower.equals("content-type") && !lower.equals("connection")) {
                fields.add(name, value);
            }
        });
        return new Response(200, "application/grpc", new byte[0], fields.build());
    }

    /** gRPC over HTTP/2 only: an HTTP/1.1 request saying {@code application/grpc} is no gRPC client's. */
    static boolean grpc(Visit v) {
        return v.exchange().stream() && io.loomgate.grpc.GrpcContent.is(v.headers().first("content-type"));
    }

    /** The error's {@code message}, from loomgate's JSON error body; else its reason phrase's stand-in. */
    private static String message(Response answer) {
        try {
            Object m = JsonParser.parseObject(new String(answer.body(), StandardCharsets.UTF_8)).get("message");
            if (m instanceof String s) {
                return s;
            }
        } catch (RuntimeException notJson) {
            // not loomgate's JSON error: the status says enough
        }
        return "HTTP " + answer.status();
    }

    /** gRPC's percent-encoding of {@code grpc-message}: UTF-8, every octet outside printable ASCII and {@code %} as %XX. */
    static String percentEncoded(String message) {
        StringBuilder out = new StringBuilder(message.length());
        for (byte b : message.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 0x20 && c <= 0x7e && c != '%') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }
}
