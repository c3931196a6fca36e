package io.loomgate.edge.pipeline;

import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --max-tunnels} ({@link Tunnels}): a request that asks a proxy route to switch protocols
 * (a {@code GET} with {@code Upgrade} and {@code Connection: upgrade}) takes a tunnel's place before
 * it is forwarded, or gets 503 with {@code Retry-After}; the place is given back when the exchange
 * ends, which for a tunnel is when it closes.
 */
final class TunnelFilter implements Filter {

    private final Tunnels tunnels;

    TunnelFilter(Tunnels tunnels) {
        this.tunnels = tunnels;
    }

    @Override
    public String name() {
        return "tunnel";
    }

    @Override
    public Response onRequest(Visit v) {
        if (!v.matched().readsBody() || !upgrade(v)) {
            return null;
        }
        if (!tunnels.tryOpen()) {
            throw new HttpError(503, "too_many_tunnels", tunnels.max() + " tunnels are open (--max-tunnels); retry shortly",
                    Map.of(), Map.of("Retry-After", "1"));
        }
        v.tunnelOpened();
        return null;
    }

    @Override
    public void onEnd(Visit v) {
        if (v.holdsTunnel()) {
            tunnels.close();
        }
    }

    private static boolean upgrade(Visit v) {
        if (!v.method().equals("GET") || v.headers().first("Upgrade") == null) {
            return false;
        }
        for (String line : v.headers().all("Connection")) {
            for (String token : line.split(",")) {
                if (token.strip().toLowerCase(Locale.ROOT).equals("upgrade")) {
                    return true;
                }
            }
        }
        return false;
    }
}
