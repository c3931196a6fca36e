package io.loomgate.tls;

import io.loomgate.config.TlsSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The listener's TLS: an {@link SSLContext} made from PEM files or a PKCS#12 keystore, checked
 * before anything is bound, so a bad certificate or key stops the start with one line. TLS 1.2 and
 * 1.3 only ({@link #PROTOCOLS}), with the JDK's default cipher suites less the CBC suites with a
 * SHA-1 MAC ({@link #suites}), and no renegotiation a client starts: each one is a full handshake
 * a stranger can make the server compute again and again on one connection, and TLS 1.3 has none.
 */
public final class ServerTls {

    /** The protocols loomgate speaks, on both sides. */
    public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /** The JDK's switch for refusing renegotiation a client starts; it reads it once, when its first server handshake starts. */
    static final String REJECT_RENEGOTIATION = "jdk.tls.rejectClientInitiatedRenegotiation";

    static {
        refuseClientRenegotiation();
    }

    /** The password of the key store made in memory from PEM files; it never leaves this class. */
    private static final char[] IN_MEMORY = "loomgate".toCharArray();

    private ServerTls() {
    }

    public static SSLContext context(TlsSource source) throws TlsException {
        return listener(source).context();
    }

    /** A listener's TLS: its context, and the keys in it, which a reload may replace ({@link ReloadableKeys#use}). */
    public record Listener(SSLContext context, ReloadableKeys keys) {
    }

    /** Reads {@code source} (every check of {@link #context}) into a listener's TLS whose keys can be replaced. */
    public static Listener listener(TlsSource source) throws TlsException {
        char[] password = source instanceof TlsSource.Keystore ks ? ks.password().toCharArray() : IN_MEMORY;
        KeyStore store = switch (source) {
            case TlsSource.Pem pem -> fromPem(pem.certificates(), pem.key());
            case TlsSource.Keystore ks -> fromPkcs12(ks.file(), password);
        };
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, password);
            ReloadableKeys keys = new ReloadableKeys((javax.net.ssl.X509ExtendedKeyManager) kmf.getKeyManagers()[0]);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new javax.net.ssl.KeyManager[] {keys}, null, null);
            return new Listener(context, keys);
        } catch (GeneralSecurityException e) {
            throw new TlsException(where(source) + ": the key cannot be used for TLS (" + e.getMessage() + ")");
        }
    }

    /**
     * Sets the JDK's switch that refuses client-initiated renegotiation, unless the user set it with
     * {@code -D}. Must run before the JVM's first server-side TLS handshake: {@link io.loomgate.Main}
     * calls it first thing, and loading this class does too.
     */
    public static void refuseClientRenegotiation() {
        if (System.getProperty(REJECT_RENEGOTIATION) == null) {
            System.setProperty(REJECT_RENEGOTIATION, "true");
        }
    }

    /** The listener's parameters: the context's defaults, limited to {@link #PROTOCOLS} and {@link #suites}. */
    public static SSLParameters parameters(SSLContext context) {
        SSLParameters p = context.getDefaultSSLParameters();
        p.setProtocols(PROTOCOLS.toArray(String[]::new));
        p.setCipherSuites(suites(p.getCipherSuites()));
        return p;
    }

    /**
     * {@code defaults} without the CBC suites whose MAC is SHA-1 ({@code TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA}):
     * MAC-then-encrypt with SHA-1, the family of Lucky Thirteen, kept by the JDK for old clients only.
     * TLS 1.3's suites and the AEAD ones of TLS 1.2 stay.
     */
    static String[] suites(String[] defaults) {
        return java.util.Arrays.stream(defaults).filter(s -> !s.endsWith("_CBC_SHA")).toArray(String[]::new);
    }

    private static KeyStore fromPem(Path certificates, Path keyFile) throws TlsException {
        List<X509Certificate> chain = PemFiles.certificates(certificates);
        PrivateKey key = PemFiles.privateKey(keyFile);
        checkValidity(certificates, chain.getFirst());
        if (!chain.getFirst().getPublicKey().getAlgorithm().equals(key.getAlgorithm())) {
            throw new TlsException(keyFile + ": a " + key.getAlgorithm() + " key, but the certificate in " + certificates
                    + " holds a " + chain.getFirst().getPublicKey().getAlgorithm() + " key");
        }
        if (!signsFor(key, chain.getFirst().getPublicKey())) {
            throw new TlsException(keyFile + ": the key does not go with the certificate in " + certificates
                    + " (its signatures do not verify with the certificate's public key)");
        }
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("loomgate", key, IN_MEMORY, chain.toArray(Certificate[]::new));
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsException(keyFile + ": the key does not go with the certificate (" + e.getMessage() + ")");
        }
    }

    /** True when what {@code key} signs verifies with {@code certified}: they are one key pair. */
    private static boolean signsFor(PrivateKey key, PublicKey certified) {
        String algorithm = key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
        byte[] challenge = "loomgate key check".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certified);
            verifier.update(challenge);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static KeyStore fromPkcs12(Path file, char[] password) throws TlsException {
        KeyStore store;
        try (InputStream in = Files.newInputStream(file)) {
            store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
        } catch (IOException e) {
            throw new TlsException(file + ": cannot be read as PKCS#12 with the password in LOOMGATE_TLS_KEYSTORE_PASSWORD ("
                    + e.getMessage() + ")");
        } catch (GeneralSecurityException e) {
            throw new TlsException(file + ": not a usable PKCS#12 keystore (" + e.getMessage() + ")");
        }
        try {
            List<String> keys = Collections.list(store.aliases()).stream().filter(a -> isKey(store, a)).toList();
            if (keys.size() != 1) {
                throw new TlsException(file + ": must hold exactly one private key with its certificate chain; it holds "
                        + keys.size());
            }
            checkValidity(file, (X509Certificate) store.getCertificate(keys.getFirst()));
            return store;
        } catch (java.security.KeyStoreException e) {
            throw new TlsException(file + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    private static boolean isKey(KeyStore store, String alias) {
        try {
            return store.isKeyEntry(alias);
        } catch (java.security.KeyStoreException e) {
            return false;
        }
    }

    private static void checkValidity(Path file, X509Certificate leaf) throws TlsException {
        try {
            leaf.checkValidity();
        } catch (CertificateExpiredException e) {
            throw new TlsException(file + ": the certificate expired on " + leaf.getNotAfter().toInstant());
        } catch (CertificateNotYetValidException e) {
            throw new TlsException(file + ": the certificate is not valid before " + leaf.getNotBefore().toInstant());
        }
    }

    private static String where(TlsSource source) {
        return switch (source) {
            case TlsSource.Pem pem -> pem.key().toString();
            case TlsSource.Keystore ks -> ks.file().toString();
        };
    }
}
