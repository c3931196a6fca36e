package io.loomgate.core.template;

import io.loomgate.core.call.RequestContext;
import java.util.List;

/**
 * What the request's own placeholders stand for: {@code {name}} is the path parameter
 * {@code name}, {@code {query.NAME}} the query parameter (its first value), {@code {header.NAME}}
 * the request header (its first value), {@code {jwt.NAME}} a claim of its verified JWT. A
 * parameter, query parameter, header or claim the request lacks stands for an empty value (refused
 * where a path segment is needed). Whether a route may use {@code {jwt.NAME}} at all (only with JWT
 * authentication) is the route file's to check.
 */
public final class Bindings {

    /** The heads that do not name a path parameter or a call. */
    public static final String QUERY = "query";
    public static final String HEADER = "header";
    /** {@code {jwt.sub}}: a claim of the request's verified JWT. */
    public static final String JWT = "jwt";

    private Bindings() {
    }

    /**
     * @throws IllegalArgumentException for a placeholder of another kind (a call's answer), which
     *                                  the route file would have refused here
     */
    public static Object request(RequestContext ctx, Placeholder p) {
        List<String> fields = p.fields();
        return switch (p.head()) {
            case QUERY -> ctx.query().all(String.join(".", fields)).stream().findFirst().orElse("");
            case HEADER -> {
                String value = ctx.headers().first(String.join(".", fields));
                yield value == null ? "" : value;
            }
            case JWT -> {
                Object claim = Template.field(ctx.caller().claims(), fields);
                yield claim == null ? "" : claim;
            }
            default -> {
                if (!fields.isEmpty() || !ctx.params().containsKey(p.head())) {
                    throw new IllegalArgumentException(p + " is not a path parameter, query parameter or header of this route");
                }
                yield ctx.params().get(p.head());
            }
        };
    }

    /** True for a placeholder the request itself fills in: a query parameter, a header, or (if named) a path parameter. */
    public static boolean ofRequest(Placeholder p, List<String> pathParameters) {
        return switch (p.head()) {
            case QUERY, HEADER, JWT -> p.fields().size() >= 1;
            default -> p.fields().isEmpty() && pathParameters.contains(p.head());
        };
    }
}
