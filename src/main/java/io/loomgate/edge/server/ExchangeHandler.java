package io.loomgate.edge.server;

import com.sun.net.httpserver.HttpHandler;
import io.loomgate.http.Exchange;
import java.io.IOException;

/**
 * A handler that takes loomgate's own {@link Exchange}, not the API's {@code HttpExchange}. On
 * loomgate's server, a context whose handler is one, with no filters and no authenticator, is served
 * with no API object in between: the request's fields are read once, into loomgate's
 * {@link io.loomgate.http.Headers}, and the answer's go from them to the wire. On the JDK's server it
 * is an ordinary {@link HttpHandler}.
 */
public interface ExchangeHandler extends HttpHandler {

    /** Serves one exchange; throwing leaves the answer unfinished, and the connection is dropped. */
    void handle(Exchange exchange) throws IOException;
}
