package io.loomgate.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A set of IP addresses given as literal addresses and CIDR blocks ({@code 10.0.0.0/8, ::1}), for
 * {@code --trusted-proxies}. Host names are refused: what a name resolves to can change.
 *
 * <pre>{@code
 * AddressRanges.parse("127.0.0.1,10.0.0.0/8").contains(InetAddress.getByName("10.1.2.3"));   // true
 * }</pre>
 */
public record AddressRanges(List<String> written, List<byte[]> networks, List<Integer> prefixes) {

    public static final AddressRanges NONE = new AddressRanges(List.of(), List.of(), List.of());

    public AddressRanges {
        written = List.copyOf(written);
        networks = List.copyOf(networks);
        prefixes = List.copyOf(prefixes);
    }

    /** Comma-separated addresses and blocks; blank is none. */
    public static AddressRanges parse(String text) {
        List<String> written = new ArrayList<>();
        List<byte[]> networks = new ArrayList<>();
        List<Integer> prefixes = new ArrayList<>();
        if (text.isBlank()) {
            return NONE;
        }
        for (String item : text.split(",", -1)) {
            String entry = item.strip();
            int slash = entry.indexOf('/');
            String address = slash < 0 ? entry : entry.substring(0, slash);
            byte[] bytes = literal(address);
            int prefix = bytes.length * 8;
            if (slash >= 0) {
                try {
                    prefix = Integer.parseInt(entry.substring(slash + 1));
                } catch (NumberFormatException e) {
                    prefix = -1;
                }
                if (prefix < 0 || prefix > bytes.length * 8) {
                    throw new IllegalArgumentException("'" + entry + "' has no prefix length from 0 to " + bytes.length * 8);
                }
            }
            written.add(entry);
            networks.add(bytes);
            prefixes.add(prefix);
        }
        return new AddressRanges(written, networks, prefixes);
    }

    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        for (int i = 0; i < networks.size(); i++) {
            byte[] n = networks.get(i);
            if (n.length == a.length && samePrefix(a, n, prefixes.get(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when {@code text} is an IP literal inside the ranges; false for anything else, a name
     * included (an address a client wrote in a header is never looked up).
     */
    public boolean containsLiteral(String text) {
        try {
            return contains(InetAddress.getByAddress(literal(text)));
        } catch (IllegalArgumentException | UnknownHostException notAnAddress) {
            return false;
        }
    }

    /**
     * {@code text} as an IP address when it is an IPv4 or IPv6 literal, never looked up as a name;
     * empty for anything else (a name, a port, garbage a client wrote in a header).
     */
    public static Optional<InetAddress> address(String text) {
        try {
            return Optional.of(InetAddress.getByAddress(literal(text)));
        } catch (IllegalArgumentException | UnknownHostException notAnAddress) {
            return Optional.empty();
        }
    }

    public boolean isEmpty() {
        return networks.isEmpty();
    }

    private static boolean samePrefix(byte[] a, byte[] b, int bits) {
        int whole = bits / 8;
        for (int i = 0; i < whole; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        int rest = bits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xff << (8 - rest) & 0xff;
        return (a[whole] & mask) == (b[whole] & mask);
    }

    /** An IPv4 or IPv6 literal, never a name to look up. */
    private static byte[] literal(String address) {
        boolean v4 = address.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        boolean v6 = address.contains(":") && address.matches("[0-9a-fA-F:.]+");
        if (!v4 && !v6) {
            throw new IllegalArgumentException("'" + address + "' is not an IP address (names are not accepted)");
        }
        try {
            return InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + address + "' is not an IP address");
        }
    }

    @Override
    public String toString() {
        return String.join(",", written);
    }
}
