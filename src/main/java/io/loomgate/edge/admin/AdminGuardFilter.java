package io.loomgate.edge.admin;

import io.loomgate.edge.pipeline.Filter;
import io.loomgate.edge.pipeline.Visit;
import io.loomgate.http.HttpError;
import io.loomgate.http.Response;
import java.util.Locale;
import java.util.Set;

/**
 * The admin listener's own filter, before routing: a {@code Host} that does not name the listener
 * gets 421 (a DNS-rebinding page, whose {@code Host} is its own name), and a state-changing request
 * ({@code POST /admin/reload}, {@code DELETE /admin/cache/...}) whose {@code Origin} is another's, or
 * whose {@code Sec-Fetch-Site} says it came from another site, gets 403 (a page on any site making a
 * visitor's browser post to the loopback port). Neither echoes the value it refused.
 */
public final class AdminGuardFilter implements Filter {

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");
    private final AdminHosts hosts;

    public AdminGuardFilter(AdminHosts hosts) {
        this.hosts = hosts;
    }

    @Override
    public String name() {
        return "admin-guard";
    }

    @Override
    public Response onRequest(Visit v) {
        String host = v.headers().first("Host");
        if (!hosts.accepts(host == null ? null : host.strip())) {
            throw new HttpError(421, "misdirected_request",
                    "the admin listener answers only a Host that names it: " + hosts.describe() + " (--admin-names adds more)");
        }
        if (SAFE.contains(v.method())) {
            return null;
        }
        String origin = v.headers().first("Origin");
        if (origin != null && !origin.strip().toLowerCase(Locale.ROOT).equals("http://" + host.strip().toLowerCase(Locale.ROOT))) {
            throw new HttpError(403, "cross_origin", "the admin API takes no state-changing request from another origin");
        }
        String site = v.headers().first("Sec-Fetch-Site");
        if (site != null && !site.strip().equalsIgnoreCase("same-origin") && !site.strip().equalsIgnoreCase("none")) {
            throw new HttpError(403, "cross_origin", "the admin API takes no state-changing request from another site");
        }
        return null;
    }
}
