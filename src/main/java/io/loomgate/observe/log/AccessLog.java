package io.loomgate.observe.log;

import io.loomgate.config.Printable;
import io.loomgate.observe.Events;
import io.loomgate.observe.RequestSummary;
import java.lang.System.Logger.Level;

/**
 * {@code --access-log}: one line per request, {@code GET /block 200 301.2ms id=9c41e2-1}, through
 * the {@code loomgate.access} logger, with {@code client-id=ID} when the client sent an
 * {@code X-Request-Id} of its own, and {@code caller=NAME} when the route authenticated one (an
 * API key's name, a token's subject). The path is shortened and control characters are replaced,
 * so a request cannot forge log lines.
 */
public final class AccessLog implements Events {

    private static final System.Logger LOG = System.getLogger("loomgate.access");
    private static final int PATH_LIMIT = 200;

    @Override
    public void requestFinished(RequestSummary s) {
        LOG.log(Level.INFO, () -> String.format("%s %s %d %.1fms id=%s%s%s%s", Printable.shorten(s.method(), 16),
                Printable.shorten(s.rawPath(), PATH_LIMIT), s.status(), s.nanos() / 1e6, s.requestId(),
                s.clientId().isEmpty() ? "" : " client-id=" + s.clientId(),
                s.caller().isEmpty() ? "" : " caller=" + Printable.shorten(s.caller(), 64),
                s.cutOff() ? " (cut off: the upstream failed mid-body)" : s.delivered() ? "" : " (client gone)"));
    }
}
