package io.loomgate.edge.listener;

import io.loomgate.config.DescriptorLimit;
import io.loomgate.config.ServerOptions;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Sets the JDK HttpServer's system properties before the first server is created. The defaults
 * break under load: more than 200 idle keep-alive connections are closed on sight
 * ({@code sun.net.httpserver.maxIdleConnections}), a request may take forever to arrive, idle
 * timers only run every 10 s, and connections are not bounded at all, so a stranger's stalled ones
 * could fill the heap ({@code jdk.httpserver.maxConnections}: past it the JDK closes a new
 * connection as soon as it accepts it). A property the user set ({@code -Dsun.net.httpserver...})
 * is left alone.
 *
 * <p>The JDK reads these once per JVM, when its server classes load; a second server in the same JVM
 * asking for other values gets a warning, not the values.
 */
final class ServerTuning {

    static final String MAX_IDLE_CONNECTIONS = "sun.net.httpserver.maxIdleConnections";
    static final String MAX_REQ_TIME = "sun.net.httpserver.maxReqTime";
    static final String IDLE_INTERVAL = "sun.net.httpserver.idleInterval";
    static final String CLOCK_TICK = "sun.net.httpserver.clockTick";
    static final String NO_DELAY = "sun.net.httpserver.nodelay";
    static final String MAX_REQ_HEADER_SIZE = "sun.net.httpserver.maxReqHeaderSize";
    static final String MAX_CONNECTIONS = "jdk.httpserver.maxConnections";

    /** Header blocks above this are cut off by the JDK closing the connection; ours answer 431 sooner. */
    static final int JDK_HEADER_LIMIT = 64 * 1024;

    private static final System.Logger LOG = System.getLogger("loomgate");
    private static Map<String, String> applied;

    private ServerTuning() {
    }

    /** The properties loomgate wants for {@code options}. */
    static Map<String, String> wanted(ServerOptions options) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put(MAX_IDLE_CONNECTIONS, String.valueOf(idleConnectionLimit()));
        props.put(MAX_REQ_TIME, String.valueOf(options.readTimeout().toSeconds()));
        props.put(IDLE_INTERVAL, String.valueOf(options.idleTimeout().toSeconds()));
        props.put(CLOCK_TICK, "1000");
        props.put(NO_DELAY, "true");
        props.put(MAX_REQ_HEADER_SIZE, String.valueOf(JDK_HEADER_LIMIT));
        props.put(MAX_CONNECTIONS, String.valueOf(options.maxConnections()));
        return props;
    }

    /** Sets whatever the user has not set. Must run before the first {@code HttpServer.create}. */
    static synchronized void apply(ServerOptions options) {
        Map<String, String> wanted = wanted(options);
        if (applied != null) {
            if (!applied.equals(wanted)) {
                LOG.log(Level.WARNING, "the JDK server was already tuned in this JVM with " + applied
                        + "; its settings cannot change, so " + wanted + " is ignored");
            }
            return;
        }
        wanted.forEach((key, value) -> {
            if (System.getProperty(key) == null) {
                System.setProperty(key, value);
            }
        });
        applied = wanted;
    }

    /**
     * As many idle connections as the process may have file descriptors: the OS limit is then the
     * only one, and wrk at c=4000 keeps every connection.
     */
    private static long idleConnectionLimit() {
        OptionalLong descriptors = DescriptorLimit.ofThisProcess();
        return descriptors.isEmpty() ? 100_000 : Math.max(10_000, Math.min(descriptors.getAsLong(), Integer.MAX_VALUE));
    }
}
