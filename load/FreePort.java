import java.net.InetAddress;
import java.net.ServerSocket;

/** Prints a free TCP port on 127.0.0.1 (java load/FreePort.java), for servers that cannot take port 0. */
public class FreePort {
    public static void main(String[] args) throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            System.out.println(s.getLocalPort());
        }
    }
}
