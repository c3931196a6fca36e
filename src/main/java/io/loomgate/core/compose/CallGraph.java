package io.loomgate.core.compose;

import java.util.ArrayList;
import java.util.List;

/**
 * A composed route's calls and the answer it makes of them. The calls are in declared order; each
 * needs only calls declared anywhere in the graph, with no cycle (the route file checks both).
 *
 * @param calls      the calls, in declared order
 * @param answer     the answer's template: JSON (maps, lists, strings, numbers, booleans, null) in which
 *                   every string that holds a placeholder is a {@link io.loomgate.core.template.Template}
 * @param parameters the route's path parameters
 * @param maxBytes   the most bytes of answers one request may hold, across all its calls and every
 *                   element of a forEach; past it the request stops with a 502
 */
public record CallGraph(List<CallSpec> calls, Object answer, List<String> parameters, long maxBytes) {

    /** What one composed request may hold in answers unless its route says otherwise: 8 MiB. */
    public static final long DEFAULT_MAX_BYTES = 8L * 1024 * 1024;

    public CallGraph {
        calls = List.copyOf(calls);
        parameters = List.copyOf(parameters);
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be >= 1: " + maxBytes);
        }
    }

    /** The index of the call named {@code name}, or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A cycle among the calls' needs, as the names around it ({@code [user, team, user]}), or an
     * empty list when there is none.
     */
    public static List<String> cycle(List<CallSpec> calls) {
        int[] state = new int[calls.size()];   // 0 unvisited, 1 on the path, 2 done
        List<String> path = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            List<String> found = visit(calls, i, state, path);
            if (!found.isEmpty()) {
                return found;
            }
        }
        return List.of();
    }

    private static List<String> visit(List<CallSpec> calls, int i, int[] state, List<String> path) {
        if (state[i] == 2) {
            return List.of();
        }
        String name = calls.get(i).name();
        if (state[i] == 1) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(name), path.size()));
            cycle.add(name);
            return cycle;
        }
        state[i] = 1;
        path.add(name);
        for (String need : calls.get(i).needs().stream().sorted().toList()) {
            for (int j = 0; j < calls.size(); j++) {
                if (calls.get(j).name().equals(need)) {
                    List<String> found = visit(calls, j, state, path);
                    if (!found.isEmpty()) {
                        return found;
                    }
                }
            }
        }
        path.removeLast();
        state[i] = 2;
        return List.of();
    }

    /** The call named {@code name}. */
    public CallSpec call(String name) {
        int i = indexOf(name);
        if (i < 0) {
            throw new java.util.NoSuchElementException("no call '" + name + "'");
        }
        return calls.get(i);
    }
}
