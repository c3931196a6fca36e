package io.loomgate.rewrite;

import io.loomgate.core.call.RequestContext;
import io.loomgate.core.template.Bindings;
import io.loomgate.core.template.Template;

/**
 * What a rewrite's template stands for in one request: what a composed call's template takes
 * ({@link Bindings#request}), and {@code {caller}} (the name authentication gave it, or empty) and
 * {@code {client.ip}} (the client's address, after the trusted proxies).
 */
public final class RequestValues {

    private RequestValues() {
    }

    public static Template.Values of(RequestContext ctx, String clientIp) {
        return p -> switch (p.head()) {
            case "caller" -> p.fields().isEmpty() ? ctx.caller().name().orElse("") : Bindings.request(ctx, p);
            case "client" -> p.fields().equals(java.util.List.of("ip")) ? clientIp : Bindings.request(ctx, p);
            default -> Bindings.request(ctx, p);
        };
    }

    /** True for a placeholder a rewrite may use: the request's own, {@code {caller}} or {@code {client.ip}}. */
    public static boolean accepts(io.loomgate.core.template.Placeholder p, java.util.List<String> pathParameters) {
        return (p.head().equals("caller") && p.fields().isEmpty()) || (p.head().equals("client") && p.fields().equals(java.util.List.of("ip")))
                || Bindings.ofRequest(p, pathParameters);
    }
}
