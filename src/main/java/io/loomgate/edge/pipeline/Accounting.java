package io.loomgate.edge.pipeline;

import io.loomgate.config.AddressRanges;
import io.loomgate.http.ClientAddress;
import io.loomgate.http.Response;
import io.loomgate.observe.event.RequestSummary;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the access log is told of a request beyond its status: the bytes written (a streamed body
 * counted as it goes), the failure's error code, who the client is, and what its work added up to.
 */
final class Accounting {

    /** The error code of loomgate's JSON errors, or the fan-out contract's {@code status}, near the start of a body. */
    private static final Pattern CODE = Pattern.compile("\"(?:error|status)\":\"([a-z_]{1,40})\"");

    private Accounting() {
    }

    /** {@code answer}, counting what of its body is written into the visit; its error code noted. */
    static Response counted(Visit v, Response answer) {
        Answering progress = v.answering();
        if (answer.status() >= 400 && answer.stream() == null && progress.reason().isEmpty()) {
            Matcher m = CODE.matcher(new String(answer.body(), 0, Math.min(answer.body().length, 512), StandardCharsets.UTF_8));
            progress.reason(m.find() ? m.group(1) : "");
        }
        if (answer.stream() == null) {
            progress.wrote(v.method().equals("HEAD") ? 0 : answer.body().length);
            return answer;
        }
        Response.Writer writer = answer.stream().writer();
        return new Response(answer.status(), answer.contentType(), answer.body(), answer.headers(),
                new Response.Stream(answer.stream().headers(), answer.stream().length(),
                new Response.Writer() {
                    @Override
                    public void writeTo(OutputStream out) throws IOException {
                        writer.writeTo(new FilterOutputStream(out) {
                            @Override
                            public void write(int b) throws IOException {
                                out.write(b);
                                progress.wrote(1);
                            }

                            @Override
                            public void write(byte[] b, int off, int len) throws IOException {
                                out.write(b, off, len);
                                progress.wrote(len);
                            }
                        });
                    }

                    @Override
                    public void discard() {
                        writer.discard();
                    }

                    @Override
                    public io.loomgate.http.Headers trailers() {
                        return writer.trailers();
                    }
                }));
    }

    static RequestSummary.Wire wire(Visit v, AddressRanges trusted) {
        InetAddress client = v.remote() == null ? null : ClientAddress.of(v.remote(), v.headers(), trusted);
        String agent = v.headers().first("User-Agent");
        long in = 0;
        try {
            String length = v.headers().first("Content-Length");
            in = length == null ? 0 : Long.parseLong(length.strip());
        } catch (NumberFormatException e) {
            in = 0;   // refused by the framing filter; nothing of it was read
        }
        Answering out = v.answering();
        String reason = !out.delivery().whole() ? out.delivery().failure() : out.status() >= 400 ? out.reason() : "";
        return new RequestSummary.Wire(client == null ? "" : client.getHostAddress(), agent == null ? "" : agent, in, out.bytesOut(),
                v.ledger().upstreamNanos(), v.ledger().traceId(), reason, v.exchange().protocol(), v.ledger().proxied());
    }
}
