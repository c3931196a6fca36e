package io.loomgate.http;

import io.loomgate.config.AddressRanges;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Who the client is, as far as an address can say: the peer of the connection, or, when the peer is
 * a trusted proxy ({@code --trusted-proxies}), the last address in {@code X-Forwarded-For} that is
 * not one (as nginx's {@code real_ip_recursive} reads it). Only IP literals are taken from the
 * header: if any hop from the right up to the client is not one, the header is not believed and the
 * peer is the client.
 *
 * <p>For limits, an IPv6 client is its /64 ({@link #limitKey}): one host usually holds a whole /64,
 * and a bucket per address would give it 2^64 of them.
 */
public final class ClientAddress {

    private ClientAddress() {
    }

    /** The client's address; null when the peer is unknown (a request made in a test without a socket). */
    public static InetAddress of(InetSocketAddress peer, Headers headers, AddressRanges trusted) {
        InetAddress from = peer == null ? null : peer.getAddress();
        if (from == null || !trusted.contains(from)) {
            return from;
        }
        return forwarded(headers, trusted).orElse(from);
    }

    /**
     * The hops of a trusted proxy's {@code X-Forwarded-For}, left to right, when every one is an IP
     * literal; empty when the header is absent or holds anything else.
     */
    public static Optional<List<InetAddress>> hops(Headers headers) {
        List<String> values = headers.all("X-Forwarded-For");
        if (values.isEmpty()) {
            return Optional.empty();
        }
        List<InetAddress> hops = new ArrayList<>();
        for (String v : values) {
            for (String hop : v.split(",", -1)) {
                Optional<InetAddress> a = AddressRanges.address(hop.strip());
                if (a.isEmpty()) {
                    return Optional.empty();
                }
                hops.add(a.get());
            }
        }
        return Optional.of(hops);
    }

    private static Optional<InetAddress> forwarded(Headers headers, AddressRanges trusted) {
        Optional<List<InetAddress>> hops = hops(headers);
        if (hops.isEmpty()) {
            return Optional.empty();
        }
        List<InetAddress> list = hops.get();
        for (int i = list.size() - 1; i >= 0; i--) {
            if (!trusted.contains(list.get(i))) {
                return Optional.of(list.get(i));
            }
        }
        return Optional.of(list.getFirst());   // every hop a trusted proxy: the first is the client
    }

    /** What a limit keys a client by: an IPv4 address whole, an IPv6 address by its /64. */
    public static byte[] limitKey(InetAddress address) {
        if (address == null) {
            return new byte[0];
        }
        byte[] bytes = address.getAddress();
        return address instanceof Inet4Address ? bytes : Arrays.copyOf(bytes, 8);
    }
}
