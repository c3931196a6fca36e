package io.loomgate.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.Consumer;

/**
 * A server socket on 127.0.0.1 whose every connection is served by {@code each} on a virtual
 * thread of its own: the accept loop of the tests' misbehaving peers, written once.
 */
public final class RawServer {

    private RawServer() {
    }

    /** A request head read up to its empty line (ISO-8859-1), or null when the connection ended first. */
    public static String head(java.io.InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                return null;
            }
            head.append((char) c);
        }
        return head.toString();
    }

    /** Listening now; closing the socket ends the loop. {@code each} owns its socket (and closes it). */
    public static ServerSocket start(Consumer<Socket> each) throws IOException {
        return start(0, each);
    }

    /** The same, each connection's receive buffer set to {@code receiveBuffer} bytes (0: the system's), so a peer that reads nothing soon stops a writer. */
    public static ServerSocket start(int receiveBuffer, Consumer<Socket> each) throws IOException {
        ServerSocket server = new ServerSocket();
        if (receiveBuffer > 0) {
            server.setReceiveBufferSize(receiveBuffer);
        }
        server.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        Thread.ofVirtual().name("raw-server").start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread.ofVirtual().start(() -> each.accept(s));
                } catch (IOException closed) {
                    return;
                }
            }
        });
        return server;
    }
}
