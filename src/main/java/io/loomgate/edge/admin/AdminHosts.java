package io.loomgate.edge.admin;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code Host} values the admin listener answers: a loopback address or {@code localhost} with
 * the listener's port, the address it binds ({@code --admin-host}), and the names
 * {@code --admin-names} gives ({@code name} with the listener's port, or {@code name:port} as
 * written, for a port mapped elsewhere). When it binds every address ({@code 0.0.0.0}, {@code ::}),
 * any IP literal with its port is accepted too: a DNS-rebinding page's {@code Host} is always the
 * attacker's name, never an address, so only names need to be listed.
 *
 * <pre>{@code
 * AdminHosts hosts = AdminHosts.of("127.0.0.1", 9091, List.of());
 * hosts.accepts("localhost:9091");      // true
 * hosts.accepts("evil.example:9091");   // false: a rebinding page
 * }</pre>
 *
 * @param port      the listener's port
 * @param names     host names and addresses accepted with {@code port} (lower-case, IPv6 in brackets)
 * @param withPort  {@code name:port} pairs accepted as written
 * @param anyIp     any IP literal is accepted with {@code port}
 */
public record AdminHosts(int port, Set<String> names, Set<String> withPort, boolean anyIp) {

    public AdminHosts {
        names = Set.copyOf(names);
        withPort = Set.copyOf(withPort);
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be from 1 to 65535: " + port);
        }
    }

    /** What the admin listener bound to {@code bindHost} on {@code port}, with {@code extraNames} ({@code --admin-names}), accepts. */
    public static AdminHosts of(String bindHost, int port, List<String> extraNames) {
        Objects.requireNonNull(bindHost, "bindHost");
        String bind = bracketed(bindHost.strip().toLowerCase(Locale.ROOT));
        boolean wildcard = bind.equals("0.0.0.0") || bind.equals("[::]") || bind.equals("[0:0:0:0:0:0:0:0]") || bind.isEmpty();
        Set<String> names = new java.util.HashSet<>(Set.of("localhost", "[::1]"));
        if (!wildcard) {
            names.add(bind);
        }
        Set<String> withPort = new java.util.HashSet<>();
        for (String n : extraNames) {
            String name = n.strip().toLowerCase(Locale.ROOT);
            (hasPort(name) ? withPort : names).add(name);
        }
        return new AdminHosts(port, names, withPort, wildcard);
    }

    /** True when {@code host} (a {@code Host} field's value) names this listener. */
    public boolean accepts(String host) {
        if (host == null || host.isEmpty() || host.length() > 255) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (withPort.contains(h)) {
            return true;
        }
        int colon = h.lastIndexOf(':');
        String name = h;
        int given = 80;   // no port: the scheme's own (the admin listener is plain HTTP)
        if (colon > h.lastIndexOf(']')) {
            String digits = h.substring(colon + 1);
            if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return false;
            }
            given = Integer.parseInt(digits);
            name = h.substring(0, colon);
        }
        if (given != port) {
            return false;
        }
        return names.contains(name) || loopbackV4(name) || (anyIp && (ipv4(name) || (name.startsWith("[") && name.endsWith("]"))));
    }

    /** The names it accepts, for the refusal's message and the docs: never the value the client sent. */
    public String describe() {
        return names.stream().sorted().map(n -> n + ":" + port).collect(Collectors.joining(", "))
                + (withPort.isEmpty() ? "" : ", " + String.join(", ", withPort.stream().sorted().toList()))
                + ", any 127.x.x.x:" + port + (anyIp ? ", any IP address:" + port : "");
    }

    private static boolean hasPort(String name) {
        int colon = name.lastIndexOf(':');
        return colon > name.lastIndexOf(']') && colon > 0 && name.indexOf(':') == colon;
    }

    private static String bracketed(String address) {
        return address.contains(":") && !address.startsWith("[") ? "[" + address + "]" : address;
    }

    private static boolean loopbackV4(String name) {
        return ipv4(name) && name.startsWith("127.");
    }

    private static boolean ipv4(String name) {
        String[] parts = name.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9') || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }
}
