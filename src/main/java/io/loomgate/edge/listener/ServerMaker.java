package io.loomgate.edge.listener;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import com.sun.net.httpserver.spi.HttpServerProvider;
import io.loomgate.config.AddressRanges;
import io.loomgate.config.ServerKind;
import io.loomgate.config.ServerOptions;
import io.loomgate.edge.server.LoomgateServers;
import io.loomgate.edge.server.ServerLimits;
import io.loomgate.edge.server.ServerStats;
import io.loomgate.tls.ServerTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLContext;

/**
 * Makes and binds the server {@code --server} names: loomgate's own, with its limits, or the JDK's,
 * tuned; HTTPS (TLS 1.2 and 1.3 only) when a context is given.
 *
 * @param server the bound server, not yet started
 * @param stats  loomgate's server's counts; empty on the JDK's
 */
record ServerMaker(HttpServer server, Optional<ServerStats> stats) {

    /** @param virtualStarted counts the virtual threads loomgate's server starts (its connections') */
    static ServerMaker bind(ServerOptions options, Optional<SSLContext> tls, AddressRanges trusted, LongAdder virtualStarted)
            throws IOException {
        InetSocketAddress address = new InetSocketAddress(options.host(), options.port());
        if (address.isUnresolved()) {
            throw new IOException("cannot resolve host '" + options.host() + "'");
        }
        HttpServerProvider provider;
        ServerStats stats = null;
        if (options.server() == ServerKind.LOOMGATE) {
            LoomgateServers ours = new LoomgateServers(new ServerLimits(options.readTimeout(), options.idleTimeout(),
                    options.maxConnections(), options.maxPerAddress(), unlimited(trusted)), virtualStarted);
            provider = ours;
            stats = ours.stats();
        } else {
            ServerTuning.apply(options);
            provider = HttpServerProvider.provider();
        }
        if (tls.isEmpty()) {
            return new ServerMaker(provider.createHttpServer(address, options.backlog()), Optional.ofNullable(stats));
        }
        HttpsServer https = provider.createHttpsServer(address, options.backlog());
        https.setHttpsConfigurator(new HttpsConfigurator(tls.get()) {
            @Override
            public void configure(HttpsParameters params) {
                params.setSSLParameters(ServerTls.parameters(getSSLContext()));
            }
        });
        return new ServerMaker(https, Optional.ofNullable(stats));
    }

    /**
     * The addresses the limit per client address leaves alone: loopback (a sidecar, a local proxy, a
     * benchmark; no stranger comes from there) and the trusted proxies, whose connections carry many clients.
     */
    private static AddressRanges unlimited(AddressRanges trusted) {
        String loopback = "127.0.0.0/8,::1";
        return AddressRanges.parse(trusted.isEmpty() ? loopback : loopback + "," + String.join(",", trusted.written()));
    }
}
