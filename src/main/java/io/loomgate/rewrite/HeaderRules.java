package io.loomgate.rewrite;

import io.loomgate.core.template.Template;
import io.loomgate.core.template.UnsafeValue;
import io.loomgate.http.Headers;
import io.loomgate.http.HttpError;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A route's {@code "requestHeaders"} or {@code "responseHeaders"}: {@code {"remove": [NAME...],
 * "set": {NAME: TEMPLATE}, "add": {NAME: TEMPLATE}}}, applied in that order (nginx's
 * {@code proxy_set_header} and {@code add_header}, Envoy's {@code *_headers_to_add/remove}). A
 * template takes what a composed call's does ({@code {header.X}}, {@code {query.q}}, a path
 * parameter, {@code {jwt.sub}}) and {@code {caller}} and {@code {client.ip}}. Framing and hop-by-hop
 * headers are refused when the route file is read; a value that would carry a control character
 * is refused per request (400), never sent.
 *
 * @param remove the headers taken out (lower-case)
 * @param set    the headers replaced, or added when absent
 * @param add    the headers added beside any of the same name
 */
public record HeaderRules(List<String> remove, Map<String, Template> set, Map<String, Template> add) {

    public static final HeaderRules NONE = new HeaderRules(List.of(), Map.of(), Map.of());

    public HeaderRules {
        remove = remove.stream().map(n -> n.toLowerCase(java.util.Locale.ROOT)).toList();
        set = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(set, "set")));
        add = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(add, "add")));
    }

    public boolean isEmpty() {
        return remove.isEmpty() && set.isEmpty() && add.isEmpty();
    }

    /**
     * {@code headers} with the rules applied, the templates filled from {@code values}.
     *
     * @throws HttpError 400 when a filled value is not one a header may carry
     */
    public Headers apply(Headers headers, Template.Values values) {
        if (isEmpty()) {
            return headers;
        }
        Headers out = headers.without(n -> remove.contains(n.toLowerCase(java.util.Locale.ROOT)));
        try {
            for (Map.Entry<String, Template> s : set.entrySet()) {
                out = out.with(s.getKey(), s.getValue().render(values, Template.Encoding.HEADER_VALUE));
            }
            for (Map.Entry<String, Template> a : add.entrySet()) {
                out = out.plus(a.getKey(), a.getValue().render(values, Template.Encoding.HEADER_VALUE));
            }
        } catch (UnsafeValue e) {
            throw HttpError.badRequest("bad_value", "a header rule cannot be filled: " + e.getMessage());
        }
        return out;
    }
}
