package io.loomgate.core.template;

import java.util.List;
import java.util.Objects;

/**
 * One {@code {...}} of a template, as written: a head and the fields after it.
 * {@code {user.team.id}} has head {@code user} and fields {@code [team, id]}; {@code {query.q}}
 * has head {@code query} and fields {@code [q]}. What the head names (a path parameter, the query,
 * a header, an earlier call, a forEach element) is decided by the route that uses it.
 */
public record Placeholder(String head, List<String> fields) {

    public Placeholder {
        Objects.requireNonNull(head, "head");
        fields = List.copyOf(fields);
    }

    /** As written, with its braces: {@code {user.teamId}}. */
    @Override
    public String toString() {
        return "{" + head + (fields.isEmpty() ? "" : "." + String.join(".", fields)) + "}";
    }
}
