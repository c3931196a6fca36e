package io.loomgate.testing;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A name service for the tests (the JDK's resolver SPI, registered in
 * {@code META-INF/services}): names under {@code .loomgate.test} resolve to the addresses a test
 * sets, and can be changed while loomgate runs; every other name goes to the JDK's own resolver.
 * The tests run with {@code -Dsun.net.inetaddr.ttl=0}, so the JDK caches none of the addresses found;
 * it still caches a name that did not resolve for 10 s ({@code networkaddress.cache.negative.ttl} in
 * the JDK's {@code java.security}), so a test that makes a name fail gives it a name of its own.
 */
public final class TestNames extends InetAddressResolverProvider {

    private static final String SUFFIX = ".loomgate.test";
    private static final Map<String, List<InetAddress>> NAMES = new ConcurrentHashMap<>();

    /** From now on {@code name} (ending in {@code .loomgate.test}) resolves to {@code addresses}; none: it does not resolve. */
    public static void set(String name, String... addresses) {
        if (!name.endsWith(SUFFIX)) {
            throw new IllegalArgumentException("test names end in " + SUFFIX + ": " + name);
        }
        NAMES.put(name, Stream.of(addresses).map(a -> {
            try {
                return InetAddress.getByAddress(name, InetAddress.getByName(a).getAddress());
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException(a, e);
            }
        }).toList());
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                if (!host.endsWith(SUFFIX)) {
                    return builtin.lookupByName(host, policy);
                }
                List<InetAddress> a = NAMES.get(host);
                if (a == null || a.isEmpty()) {
                    throw new UnknownHostException(host + ": not set by the test");
                }
                return a.stream();
            }

            @Override
            public String lookupByAddress(byte[] addr) throws UnknownHostException {
                return builtin.lookupByAddress(addr);
            }
        };
    }

    @Override
    public String name() {
        return "loomgate test names";
    }
}
