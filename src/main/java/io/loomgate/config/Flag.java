package io.loomgate.config;

import java.util.Locale;
import java.util.Optional;

/**
 * Every command-line flag loomgate accepts. Each one can also come from the environment variable
 * {@link #env()} ({@code --shutdown-grace} is {@code LOOMGATE_SHUTDOWN_GRACE}); the command line wins.
 * The help text and the flag table of docs/configuration.md are both generated from, or checked against, this list.
 */
public enum Flag {
    HOST("host", "ADDR", "127.0.0.1", "bind address (loopback by default; 0.0.0.0 must be asked for)"),
    PORT("port", "PORT", "8080", "listening port; 0 picks a free one"),
    THREADS("threads", "MODE", "virtual", "'virtual' (a virtual thread per request) or 'platform' (a fixed pool)"),
    POOL("pool", "N", "200", "platform pool size; accepted but unused with --threads virtual"),
    BACKLOG("backlog", "N", "4096", "TCP accept backlog (the JDK's 0 would mean the OS default of 50)"),
    SHUTDOWN_GRACE("shutdown-grace", "DURATION", "10s", "how long in-flight requests may finish once the listener closes"),
    DRAIN_DELAY("drain-delay", "DURATION", "0s", "after SIGTERM, keep accepting and serving this long while /readyz and /health say 503, so load balancers stop sending first"),
    MAX_INFLIGHT("max-inflight", "N", "10000", "requests served at once before new ones get 503; 0 turns it off"),
    MAX_CONNECTIONS("max-connections", "N", "auto", "connections held at once; past it a new one is closed at once. auto: what a third of the heap holds at the worst cost of one (on loomgate's server 16 KB plain, 56 KB with TLS; on the JDK's 33 and 136 KB), below the file-descriptor limit"),
    SERVER("server", "NAME", "loomgate", "'loomgate' (loomgate's own server: a virtual thread per connection, the strict codec, cancellation when a client hangs up) or 'jdk' (the JDK's HttpServer)"),
    MAX_CONNECTIONS_PER_ADDRESS("max-connections-per-address", "N", "auto", "connections one client address holds at once (loopback and --trusted-proxies aside); past it a new one is closed at once; 0 turns it off. auto: a tenth of --max-connections, at least 64. loomgate's server only"),
    MAX_TUNNELS("max-tunnels", "N", "auto", "tunnels (WebSockets, any Upgrade through a proxy route) open at once; past it an upgrade gets 503; auto: a quarter of --max-connections, at least 16"),
    READ_TIMEOUT("read-timeout", "DURATION", "5s", "time a new connection has to finish its TLS handshake and send a request head (the JDK server: and its body), whole seconds"),
    IDLE_TIMEOUT("idle-timeout", "DURATION", "30s", "idle keep-alive connections are closed after this, whole seconds"),
    ROUTES("routes", "FILE", "", "a JSON route file (see docs/route-file.md); without it, the built-in routes (the demo, or the backend's)"),
    WATCH("watch", "BOOL", "false", "reload when the route file or a file it or a flag names changes (a reload also comes on SIGHUP and POST /admin/reload)"),
    TIMEOUT("timeout", "DURATION", "2s", "default deadline of an aggregation request"),
    MAX_TIMEOUT("max-timeout", "DURATION", "30s", "largest deadline a client may ask for with ?timeout="),
    LATENCY("latency", "NAME=DURATION,...", "", "override upstream latencies, e.g. db=100ms,cache=20ms; api=10ms,p99=1s gives api a slow tail"),
    FAILURE_RATE("failure-rate", "NAME=P,...", "", "random failure probability per upstream, 0 <= P <= 1"),
    SEED("seed", "N", "", "seed for the random failures, to make them reproducible"),
    METRICS_LOG("metrics-log", "DURATION", "0", "print a [metrics] line at this interval; 0 is off"),
    ACCESS_LOG("access-log", "MODE", "off", "off, text (one line per request; true, or the flag alone, means text) or json (one JSON object per line, on stdout)"),
    ACCESS_LOG_FILE("access-log-file", "FILE", "", "write the access log to this file instead (appended; reopened on SIGUSR1, for log rotation)"),
    OTLP_ENDPOINT("otlp-endpoint", "URL", "", "export traces with OTLP over HTTP (JSON) to this collector or backend, e.g. http://127.0.0.1:4318 (spans go to URL/v1/traces)"),
    TRACE_SAMPLE("trace-sample", "RATIO", "1", "with --otlp-endpoint, the share of new traces recorded, 0 to 1; a request with a traceparent follows its parent's decision"),
    DEBUG_ENDPOINTS("debug-endpoints", "BOOL", "false", "serve GET /debug/threads (a JSON thread dump); true or false"),
    TRUSTED_PROXIES("trusted-proxies", "ADDRS", "", "peers (IPs or CIDR blocks, comma-separated) whose X-Forwarded-For and X-Forwarded-Proto a proxy route keeps and extends; from anyone else they are replaced"),
    ADMIN_PORT("admin-port", "PORT", "", "serve /metrics, /livez, /readyz, /dashboard, /debug/* and the route index on this port, on their own listener, instead of the main one; 0 picks a free one"),
    ADMIN_HOST("admin-host", "ADDR", "127.0.0.1", "bind address of --admin-port (loopback by default, whatever --host says)"),
    ADMIN_NAMES("admin-names", "NAMES", "", "host names (NAME or NAME:PORT, comma-separated) the admin listener answers besides loopback, localhost and --admin-host; any other Host gets 421"),
    TLS_CERT("tls-cert", "FILE", "", "serve HTTPS with this PEM certificate chain (leaf first); needs --tls-key"),
    TLS_KEY("tls-key", "FILE", "", "the PEM PKCS#8 private key (RSA or EC) of --tls-cert"),
    TLS_KEYSTORE("tls-keystore", "FILE", "", "serve HTTPS with this PKCS#12 file instead; its password from LOOMGATE_TLS_KEYSTORE_PASSWORD"),
    API_KEYS("api-keys", "FILE", "", "the API keys routes with \"auth\": \"apiKey\" accept: one NAME SHA256-HEX per line, read at start and again by each reload"),
    REDIS("redis", "URL", "", "the Redis that rate limits with \"shared\": true keep their counters on: redis://[user:password@]host:port/db, or rediss:// for TLS (the password also from LOOMGATE_REDIS_PASSWORD)"),
    REDIS_TIMEOUT("redis-timeout", "DURATION", "20ms", "the deadline of each Redis command, waiting for a connection included; past it the route's onStoreError applies"),
    REDIS_CA("redis-ca", "FILE", "", "with rediss://, trust only these PEM CA certificates instead of the JDK's");

    private final String name;
    private final String valueHint;
    private final String defaultValue;
    private final String help;

    Flag(String name, String valueHint, String defaultValue, String help) {
        this.name = name;
        this.valueHint = valueHint;
        this.defaultValue = defaultValue;
        this.help = help;
    }

    /** The flag as typed: {@code --shutdown-grace}. */
    public String option() {
        return "--" + name;
    }

    /** The environment variable: {@code LOOMGATE_SHUTDOWN_GRACE}. */
    public String env() {
        return "LOOMGATE_" + name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    public String valueHint() {
        return valueHint;
    }

    /** The default as text; empty when the flag has none. */
    public String defaultValue() {
        return defaultValue;
    }

    public String help() {
        return help;
    }

    /** True for switches that may be given without a value ({@code --access-log}). */
    public boolean isSwitch() {
        return valueHint.equals("BOOL") || this == ACCESS_LOG;
    }

    /** True when {@code word}, after this switch, is its value rather than the next argument. */
    boolean takes(String word) {
        return this == ACCESS_LOG ? AccessLogMode.isWord(word) : Setting.isBoolean(word);
    }

    static Optional<Flag> fromOption(String option) {
        for (Flag f : values()) {
            if (f.option().equals(option)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
