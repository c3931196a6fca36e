import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * An h2c upstream that takes every stream and lets no request body in: its SETTINGS say an initial
 * stream window of 0, and it never answers nor opens a window. A proxy route in front of it must
 * keep each client body it has not forwarded, so the connections scenario uses it to fill an HTTP/2
 * connection's receive window on the gateway (its {@code h2-full} kind). Prints "port N" once it listens.
 * Usage: {@code java load/ClosedWindowUpstream.java}
 */
public class ClosedWindowUpstream {

    public static void main(String[] args) throws IOException {
        try (ServerSocket server = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress())) {
            System.out.println("port " + server.getLocalPort());
            System.out.flush();
            while (true) {
                Socket s = server.accept();
                Thread.ofVirtual().start(() -> serve(s));
            }
        }
    }

    private static void serve(Socket s) {
        try (s) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            in.readFully(new byte[24]);   // the preface
            out.write(new byte[] {0, 0, 6, 0x4, 0, 0, 0, 0, 0, 0, 0x4, 0, 0, 0, 0});   // SETTINGS: INITIAL_WINDOW_SIZE 0
            out.flush();
            while (true) {
                int len = (in.readUnsignedByte() << 16) | in.readUnsignedShort();
                int type = in.readUnsignedByte();
                int flags = in.readUnsignedByte();
                in.readInt();
                in.readFully(new byte[len]);
                if (type == 0x4 && (flags & 0x1) == 0) {
                    out.write(new byte[] {0, 0, 0, 0x4, 0x1, 0, 0, 0, 0});   // their SETTINGS, acknowledged
                    out.flush();
                }
            }
        } catch (IOException e) {
            // the gateway closed the connection
        }
    }
}
