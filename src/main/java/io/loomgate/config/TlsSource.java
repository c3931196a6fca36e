package io.loomgate.config;

import java.nio.file.Path;
import java.util.Objects;

/** Where the listener's certificate and key come from, when it serves HTTPS. */
public sealed interface TlsSource {

    /** {@code --tls-cert} and {@code --tls-key}: a PEM certificate chain, leaf first, and a PEM PKCS#8 key. */
    record Pem(Path certificates, Path key) implements TlsSource {
        public Pem {
            Objects.requireNonNull(certificates, "certificates");
            Objects.requireNonNull(key, "key");
        }
    }

    /** {@code --tls-keystore}: a PKCS#12 file holding one key and its chain, and its password. */
    record Keystore(Path file, String password) implements TlsSource {
        public Keystore {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "Keystore[file=" + file + ", password=(hidden)]";
        }
    }
}
