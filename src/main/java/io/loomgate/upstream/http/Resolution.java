package io.loomgate.upstream.http;

import io.loomgate.client.Origin;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Resolves the host names among an upstream's endpoints, now and again every {@code resolveEvery},
 * on a virtual thread of its own: each address a name returns becomes an endpoint ({@link Origin#at}),
 * and when the addresses change the upstream is told the new list. A name that does not resolve
 * keeps the addresses it had (and, before it ever resolved, stays one endpoint that each connection
 * resolves, as a {@code url} does). Started when its plan serves, stopped with the upstream.
 *
 * <p>The JDK caches each answer for {@code networkaddress.cache.ttl} (30 s unless set), so a change
 * is seen within that and {@code resolveEvery}.
 */
final class Resolution implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate");
    private static final Comparator<InetAddress> BY_ADDRESS = Comparator.comparing(InetAddress::getHostAddress);

    private final String upstream;
    private final List<Origin> declared;
    private final Duration every;
    private final Consumer<List<Origin>> changed;
    /** Each named endpoint's addresses, as last resolved; touched only by the resolving thread. */
    private final Map<Origin, List<InetAddress>> known = new HashMap<>();
    private final Map<Origin, Boolean> failing = new HashMap<>();
    private Thread thread;
    private volatile boolean closed;

    Resolution(String upstream, List<Origin> declared, Duration every, Consumer<List<Origin>> changed) {
        this.upstream = upstream;
        this.declared = List.copyOf(declared);
        this.every = every;
        this.changed = changed;
    }

    /** True when an endpoint is named by a host name, not an address. */
    boolean needed() {
        return declared.stream().anyMatch(o -> !o.literal());
    }

    synchronized void start() {
        if (thread != null || closed || !needed()) {
            return;
        }
        thread = Thread.ofVirtual().name("resolve-" + upstream).start(this::run);
    }

    private void run() {
        while (!closed) {
            if (resolveAll()) {
                changed.accept(endpoints());
            }
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Resolves each name once; true when some name's addresses changed. */
    private boolean resolveAll() {
        boolean any = false;
        for (Origin o : declared) {
            if (o.literal()) {
                continue;
            }
            try {
                List<InetAddress> now = Arrays.stream(InetAddress.getAllByName(o.host())).sorted(BY_ADDRESS).distinct().toList();
                if (failing.remove(o) != null) {
                    LOG.log(Level.INFO, "upstream " + upstream + ": " + o.host() + " resolves again");
                }
                List<InetAddress> before = known.put(o, now);
                if (!now.equals(before)) {
                    any = true;
                    LOG.log(Level.INFO, "upstream " + upstream + ": " + o.host() + " resolves to " + names(now)
                            + (before == null ? "" : " (was " + names(before) + ")"));
                }
            } catch (UnknownHostException e) {
                if (failing.put(o, true) == null) {
                    LOG.log(Level.WARNING, "upstream " + upstream + ": cannot resolve " + o.host() + " ("
                            + e.getMessage() + "); its endpoints stay as they were");
                }
            }
        }
        return any;
    }

    /** The endpoints now: each address of a resolved name, and every other declared endpoint as it is. */
    private List<Origin> endpoints() {
        List<Origin> all = new ArrayList<>();
        for (Origin o : declared) {
            List<InetAddress> addresses = known.get(o);
            if (addresses == null || addresses.isEmpty()) {
                all.add(o);
            } else {
                addresses.forEach(a -> all.add(o.at(a)));
            }
        }
        return all;
    }

    private static String names(List<InetAddress> addresses) {
        return String.join(", ", addresses.stream().map(InetAddress::getHostAddress).toList());
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
