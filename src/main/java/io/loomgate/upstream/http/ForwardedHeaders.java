package io.loomgate.upstream.http;

import io.loomgate.core.call.Propagation;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.TraceParent;
import io.loomgate.config.AddressRanges;
import io.loomgate.http.ClientAddress;
import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import java.net.InetAddress;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The headers a proxy route sends upstream: the client's own, less hop-by-hop ones (and those its
 * {@code Connection} header names, an API key loomgate checked, and its own copies of the headers
 * it sets), plus {@code X-Forwarded-For}, {@code X-Forwarded-Proto}, {@code Via} and loomgate's
 * {@link Propagation} headers.
 *
 * <p>What a client says about where it came from is believed only from a trusted proxy
 * ({@code --trusted-proxies}): from one, its {@code X-Forwarded-For} is extended with its address
 * when every hop in it is an IP literal, and its {@code X-Forwarded-Proto} kept when it is
 * {@code http} or {@code https}; from anyone else, or when a value is anything else, both are
 * replaced, so an upstream that reads them learns the real peer and scheme.
 */
final class ForwardedHeaders {

    private static final Set<String> SET_HERE = Set.of("x-forwarded-for", "x-forwarded-proto", "via");

    private ForwardedHeaders() {
    }

    /**
     * @param scheme the scheme the client used to reach loomgate ({@code http} or {@code https})
     */
    static Headers of(Request request, AddressRanges trusted, String scheme, RequestContext ctx, TraceParent sent) {
        Headers in = request.headers();
        Set<String> named = HopByHop.named(in.all("Connection"));
        Headers.Builder out = Headers.builder();
        in.forEach((name, value) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!HopByHop.notForwardable(lower) && !named.contains(lower) && !SET_HERE.contains(lower)
                    && Propagation.passesOn(ctx, lower)) {
                out.add(name, value);
            }
        });
        InetAddress peer = request.remote() == null ? null : request.remote().getAddress();
        String client = peer == null ? "unknown" : peer.getHostAddress();
        boolean trust = peer != null && trusted.contains(peer);
        List<InetAddress> hops = trust ? ClientAddress.hops(in).orElse(List.of()) : List.of();
        String proto = trust ? in.first("X-Forwarded-Proto") : null;
        StringBuilder forwardedFor = new StringBuilder();
        hops.forEach(h -> forwardedFor.append(h.getHostAddress()).append(", "));
        out.add("X-Forwarded-For", forwardedFor.append(client).toString());
        out.add("X-Forwarded-Proto", "http".equals(proto) || "https".equals(proto) ? proto : scheme);
        out.add("Via", via(in.all("Via")));
        return out.addAll(Propagation.headers(ctx, sent).build()).build();
    }

    /** The {@code Via} of a message passed on: what it had, and loomgate's hop. */
    static String via(List<String> previous) {
        return previous == null || previous.isEmpty() ? "1.1 loomgate" : String.join(", ", previous) + ", 1.1 loomgate";
    }
}
