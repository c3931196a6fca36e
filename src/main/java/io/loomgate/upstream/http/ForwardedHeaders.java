package io.loomgate.upstream.http;

import io.loomgate.grpc.GrpcTimeout;
import io.loomgate.core.call.Propagation;
import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.TraceParent;
import io.loomgate.config.AddressRanges;
import io.loomgate.http.ClientAddress;
import io.loomgate.http.FieldNames;
import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.rewrite.Redirects;
import java.net.InetAddress;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The headers a proxy route sends upstream: the client's own, less hop-by-hop ones (and those its
 * {@code Connection} header names, an API key loomgate checked, and its own copies of the headers
 * it sets), plus, as the upstream's {@code "forwarded"} says, {@code X-Forwarded-For}, {@code -Proto},
 * {@code -Host}, {@code -Port} and {@code -Prefix} (the default), or RFC 7239's {@code Forwarded},
 * or both, or neither; and {@code Via} and loomgate's {@link Propagation} headers.
 *
 * <p>What a client says about where it came from is believed only from a trusted proxy
 * ({@code --trusted-proxies}): from one, its {@code X-Forwarded-For} (and {@code Forwarded}) is
 * extended with its address when every hop in it is an IP literal, its {@code X-Forwarded-Proto}
 * kept when it is {@code http} or {@code https}, its {@code X-Forwarded-Host} and {@code -Port} kept
 * when they are a host and a port, and its {@code X-Forwarded-Prefix} put before the route's; from
 * anyone else, or when a value is anything else, each is replaced, so an upstream that reads them
 * learns the real peer, scheme, host and prefix.
 */
final class ForwardedHeaders {

    private static final FieldNames SET_HERE = FieldNames.of("x-forwarded-for", "x-forwarded-proto", "x-forwarded-host",
            "x-forwarded-port", "x-forwarded-prefix", "forwarded", "via", "grpc-timeout");

    private ForwardedHeaders() {
    }

    /**
     * @param scheme the scheme the client used to reach loomgate ({@code http} or {@code https})
     */
    static Headers of(Request request, AddressRanges trusted, String scheme, RequestContext ctx, TraceParent sent) {
        return of(request, trusted, scheme, ctx, sent, Proxying.Mode.X_FORWARDED, "/");
    }

    /**
     * @param mode   which forwarding headers to send
     * @param prefix the raw path the route's prefix took ({@code /api/}), as {@code X-Forwarded-Prefix}
     */
    static Headers of(Request request, AddressRanges trusted, String scheme, RequestContext ctx, TraceParent sent,
                      Proxying.Mode mode, String prefix) {
        Headers in = request.headers();
        Set<String> named = HopByHop.named(in.all("Connection"));
        Headers.Builder out = Headers.builder();
        out.addAll(in, name -> {
            if (HopByHop.notForwardable(name) || SET_HERE.contains(name)) {
                return false;
            }
            String lower = name.toLowerCase(Locale.ROOT);
            return !named.contains(lower) && Propagation.passesOn(ctx, lower);
        });
        if (in.contains("grpc-timeout") || io.loomgate.grpc.GrpcContent.is(in.first("Content-Type"))) {
            // a gRPC call tells its upstream the time it has left: the client's, capped by the route's, less what has passed
            out.add("grpc-timeout", GrpcTimeout.format(java.time.Duration.ofNanos(ctx.deadlineNanos() - System.nanoTime())));
        }
        InetAddress peer = request.remote() == null ? null : request.remote().getAddress();
        String client = peer == null ? "unknown" : peer.getHostAddress();
        boolean trust = peer != null && trusted.contains(peer);
        List<InetAddress> hops = trust ? ClientAddress.hops(in).orElse(List.of()) : List.of();
        String proto = trust ? in.first("X-Forwarded-Proto") : null;
        String theProto = "http".equals(proto) || "https".equals(proto) ? proto : scheme;
        String host = trust && validHost(in.first("X-Forwarded-Host")) ? in.first("X-Forwarded-Host").strip()
                : validHost(in.first("Host")) ? in.first("Host").strip() : null;
        String port = trust && validPort(in.first("X-Forwarded-Port")) ? in.first("X-Forwarded-Port").strip() : port(host, theProto);
        String givenPrefix = trust ? in.first("X-Forwarded-Prefix") : null;
        String thePrefix = givenPrefix != null && givenPrefix.startsWith("/") && printable(givenPrefix)
                ? (givenPrefix.endsWith("/") ? givenPrefix.substring(0, givenPrefix.length() - 1) : givenPrefix) + prefix : prefix;
        if (mode.xForwarded()) {
            StringBuilder forwardedFor = new StringBuilder();
            hops.forEach(h -> forwardedFor.append(h.getHostAddress()).append(", "));
            out.add("X-Forwarded-For", forwardedFor.append(client).toString());
            out.add("X-Forwarded-Proto", theProto);
            if (host != null) {
                out.add("X-Forwarded-Host", host);
            }
            out.add("X-Forwarded-Port", port);
            out.add("X-Forwarded-Prefix", thePrefix.length() > 1 && thePrefix.endsWith("/")
                    ? thePrefix.substring(0, thePrefix.length() - 1) : thePrefix);
        }
        if (mode.rfc7239()) {
            StringBuilder f = new StringBuilder();
            if (trust && in.all("Forwarded").stream().allMatch(ForwardedHeaders::printable) && in.contains("Forwarded")) {
                f.append(String.join(", ", in.all("Forwarded"))).append(", ");
            }
            f.append("for=").append(node(peer)).append(";proto=").append(theProto);
            if (host != null) {
                f.append(";host=\"").append(host).append('"');
            }
            out.add("Forwarded", f.toString());
        }
        out.add("Via", via(in.all("Via")));
        return out.addAll(Propagation.headers(ctx, sent).build()).build();
    }

    /** The client's address, after the trusted proxies: what {@code {client.ip}} stands for. */
    static String clientIp(Request request, AddressRanges trusted) {
        InetAddress peer = request.remote() == null ? null : request.remote().getAddress();
        if (peer == null) {
            return "";
        }
        if (trusted.contains(peer)) {
            List<InetAddress> hops = ClientAddress.hops(request.headers()).orElse(List.of());
            if (!hops.isEmpty()) {
                return hops.getLast().getHostAddress();
            }
        }
        return peer.getHostAddress();
    }

    /** A {@code Host}-shaped value ({@link Redirects#isHost}). */
    static boolean validHost(String h) {
        return Redirects.isHost(h);
    }

    static boolean validPort(String p) {
        if (p == null) {
            return false;
        }
        String digits = p.strip();
        if (digits.isEmpty() || digits.length() > 5) {
            return false;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return false;
            }
        }
        return Integer.parseInt(digits) <= 65_535;
    }

    /** The port a client reached: the one its {@code Host} names, else its scheme's. */
    private static String port(String host, String scheme) {
        if (host != null) {
            int colon = host.lastIndexOf(':');
            if (colon > host.lastIndexOf(']') && validPort(host.substring(colon + 1))) {
                return host.substring(colon + 1);
            }
        }
        return scheme.equals("https") ? "443" : "80";
    }

    private static boolean printable(String v) {
        if (v.length() > 1024) {
            return false;
        }
        for (int i = 0; i < v.length(); i++) {
            if (v.charAt(i) <= 0x20 || v.charAt(i) >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** An RFC 7239 node: an IPv4 address as it is, an IPv6 one quoted in brackets. */
    private static String node(InetAddress peer) {
        if (peer == null) {
            return "unknown";
        }
        String a = peer.getHostAddress();
        return a.contains(":") ? "\"[" + a + "]\"" : a;
    }

    /** The {@code Via} of a message passed on: what it had, and loomgate's hop. */
    static String via(List<String> previous) {
        return previous == null || previous.isEmpty() ? "1.1 loomgate" : String.join(", ", previous) + ", 1.1 loomgate";
    }
}
