package io.loomgate.edge.listener;

import com.sun.net.httpserver.HttpExchange;
import io.loomgate.edge.server.ApiHeaders;
import io.loomgate.http.AnswerWriter;
import io.loomgate.http.Headers;
import io.loomgate.http.Response;
import java.io.IOException;
import java.io.OutputStream;

/** Writing {@link Response}s on a JDK {@link HttpExchange}: the {@link AnswerWriter}'s wire over the API. */
final class ExchangeIO implements AnswerWriter.Wire {

    private final HttpExchange exchange;
    private CutOffOutput out;

    private ExchangeIO(HttpExchange exchange) {
        this.exchange = exchange;
    }

    /** Writes {@code response}; for {@code HEAD} only the headers, with the length a GET would have. */
    static void write(HttpExchange exchange, Response response, boolean head) throws IOException {
        AnswerWriter.write(response, head, new ExchangeIO(exchange));
    }

    @Override
    public void head(int status, long length, Headers fields) throws IOException {
        ApiHeaders.addTo(exchange.getResponseHeaders(), fields);
        exchange.sendResponseHeaders(status, length);
    }

    /** The body, in a {@link CutOffOutput} put in the exchange's place, so that closing the exchange cannot finish a cut answer. */
    @Override
    public OutputStream output() {
        if (out == null) {
            out = new CutOffOutput(exchange.getResponseBody());
            exchange.setStreams(null, out);
        }
        return out;
    }

    @Override
    public void cutOff() {
        if (out != null) {
            out.cutOff();
        }
    }
}
