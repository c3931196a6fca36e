package io.loomgate.edge.pipeline;

import io.loomgate.edge.routing.Router;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one place that declares the request pipeline's filters, in the order they run on the way in
 * (the way out is the reverse). Cheapest and most anonymous first: nothing a stranger sends costs
 * a lookup, a signature check or an admission slot before the cheaper checks let it by.
 * <ol>
 *   <li>{@code request-id}: the id every answer and log line carries;</li>
 *   <li>{@code grpc}: on the way out, an error loomgate gives a gRPC request as HTTP 200 with its
 *       {@code grpc-status} (Trailers-Only), as Envoy does;</li>
 *   <li>{@code connection}: {@code Connection: close} while draining or after doubtful framing;</li>
 *   <li>{@code framing}: version, header count and size, {@code Content-Length}, the target;</li>
 *   <li>{@code admin-guard}, on the admin listener only: a {@code Host} that names it (else 421) and
 *       no state-changing request from another origin (403);</li>
 *   <li>{@code route}: the route, or 404, 405, 501, an {@code OPTIONS} answer;</li>
 *   <li>{@code body}: the body for routes that read it, else read and discarded (413 past 1 MiB);</li>
 *   <li>{@code compress}: on the way out, the route's {@code "compress"}: gzip when the client takes it;</li>
 *   <li>{@code cors}: a preflight answered; CORS headers on the way out;</li>
 *   <li>{@code pre-auth-limit}: the route's limit per client address;</li>
 *   <li>{@code auth-failures}: an address whose refused credentials ran out;</li>
 *   <li>{@code auth}: who calls, or 401, 403;</li>
 *   <li>{@code rate-limit}: the route's rate limit; {@code RateLimit-*} on the way out;</li>
 *   <li>{@code drain}: new work refused once shutdown began;</li>
 *   <li>{@code admission}: {@code --max-inflight}; admitted work moves to the {@link Handoff};</li>
 *   <li>{@code tunnel}: {@code --max-tunnels}, for a request that asks a proxy route to switch protocols.</li>
 * </ol>
 * Then the route's handler answers ({@link Pipeline}).
 */
public final class Filters {

    private Filters() {
    }

    /** The gateway's filters, in order, over {@code router}. */
    public static List<Filter> standard(Router router, Draining draining, Admission admission) {
        return standard(() -> router, draining, admission);
    }

    /**
     * The gateway's filters, in order, over the router {@code routers} gives when a request is
     * routed: a reload swaps it, and a request keeps the route it was given to the end.
     */
    public static List<Filter> standard(Supplier<Router> routers, Draining draining, Admission admission) {
        return standard(routers, draining, admission, Optional.empty());
    }

    /** The same, with requests placed in traces and their server spans recorded ({@link TraceFilter}) when {@code tracing} says so. */
    public static List<Filter> standard(Supplier<Router> routers, Draining draining, Admission admission,
                                        Optional<Tracing> tracing) {
        return standard(routers, draining, admission, new Tunnels(Tunnels.UNLIMITED), tracing);
    }

    /** The same, with at most {@code tunnels} open at once ({@code --max-tunnels}). */
    public static List<Filter> standard(Supplier<Router> routers, Draining draining, Admission admission, Tunnels tunnels,
                                        Optional<Tracing> tracing) {
        List<Filter> filters = new java.util.ArrayList<>(List.of(
                new RequestIdFilter(),
                new GrpcFilter(),
                new ConnectionFilter(draining),
                new FramingFilter(),
                new RouteFilter(routers),
                new BodyFilter(),
                new CompressFilter(),
                new CorsFilter(),
                new PreAuthLimitFilter(),
                new AuthFailuresFilter(),
                new AuthFilter(),
                new RateLimitFilter(),
                new DrainFilter(draining),
                new AdmissionFilter(admission),
                new TunnelFilter(tunnels)));
        tracing.ifPresent(t -> filters.add(1, new TraceFilter(t)));
        return List.copyOf(filters);
    }

    /** {@code filters} with the admin listener's {@code guard} in its place: after {@code framing}, before {@code route}. */
    public static List<Filter> guarded(List<Filter> filters, Filter guard) {
        List<Filter> out = new java.util.ArrayList<>(filters);
        int framing = out.stream().map(Filter::name).toList().indexOf("framing");
        out.add(framing + 1, guard);
        return List.copyOf(out);
    }
}
