package io.loomgate.edge.server;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;

/** The two implementations of the server API every test here runs on. */
enum Provider {
    JDK,
    LOOMGATE;

    HttpServer create() throws IOException {
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
        return this == JDK ? HttpServer.create(any, 0) : new LoomgateServers(ServerLimits.DEFAULTS).createHttpServer(any, 0);
    }
}
