package io.loomgate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates made at run time with the JDK's {@code keytool}: a test CA, and server certificates
 * it signs, as PEM files (a chain, a PKCS#8 key, the CA) and as PKCS#12, plus the
 * {@link SSLContext}s a test server and a test client need. Nothing is checked in; each test JVM
 * makes its own, once per name, under a temporary directory removed at exit.
 *
 * <pre>{@code
 * TestCertificates.Issued server = TestCertificates.ca().issue("server", "dns:localhost,ip:127.0.0.1");
 * HttpsServer s = ...; s.setHttpsConfigurator(new HttpsConfigurator(server.serverContext()));
 * }</pre>
 */
public final class TestCertificates {

    /** The password of every keystore made here. */
    public static final String PASSWORD = "changeit";

    private static TestCertificates shared;

    private final Path dir;
    private final String name;

    /** A server certificate this CA signed, with its files. */
    public record Issued(Path chainPem, Path keyPem, Path pkcs12, Path caPem) {

        /** For a test server presenting this certificate. */
        public SSLContext serverContext() {
            try (InputStream in = Files.newInputStream(pkcs12)) {
                KeyStore ks = KeyStore.getInstance("PKCS12");
                ks.load(in, PASSWORD.toCharArray());
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(ks, PASSWORD.toCharArray());
                SSLContext c = SSLContext.getInstance("TLS");
                c.init(kmf.getKeyManagers(), null, null);
                return c;
            } catch (IOException | GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private TestCertificates(Path dir, String name) {
        this.dir = dir;
        this.name = name;
    }

    /** The shared test CA (made on first use). */
    public static synchronized TestCertificates ca() {
        if (shared == null) {
            shared = newCa("loomgate-test-ca");
        }
        return shared;
    }

    /** Another CA, which nothing trusts unless told to. */
    public static TestCertificates newCa(String name) {
        try {
            Path dir = Files.createTempDirectory("loomgate-certs");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> LocalTools.deleteTree(dir)));
            TestCertificates ca = new TestCertificates(dir, name);
            ca.keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
                    "-ext", "bc:c", "-validity", "30", "-keystore", ca.store(name), "-storetype", "PKCS12");
            ca.keytool("-exportcert", "-alias", name, "-rfc", "-keystore", ca.store(name), "-file", ca.caPem().toString());
            return ca;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** This CA's certificate, PEM. */
    public Path caPem() {
        return dir.resolve(name + ".pem");
    }

    /** A client context that trusts this CA only. */
    public SSLContext clientContext() {
        try (InputStream in = Files.newInputStream(caPem())) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(null, tmf.getTrustManagers(), null);
            return c;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An RSA server certificate for {@code sans} ({@code dns:localhost,ip:127.0.0.1}), valid from now for a day. */
    public synchronized Issued issue(String alias, String sans) {
        return issue(alias, sans, null);
    }

    /**
     * @param startDate keytool's {@code -startdate} ({@code -3d} for three days ago), so that a
     *                  one-day certificate has already expired; null for now
     */
    public synchronized Issued issue(String alias, String sans, String startDate) {
        Path p12 = dir.resolve(alias + ".p12");
        if (!Files.exists(p12)) {
            keytool("-genkeypair", "-alias", alias, "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=" + alias,
                    "-validity", "1", "-keystore", p12.toString(), "-storetype", "PKCS12");
            Path csr = dir.resolve(alias + ".csr");
            Path crt = dir.resolve(alias + ".crt");
            keytool("-certreq", "-alias", alias, "-keystore", p12.toString(), "-file", csr.toString());
            List<String> gen = new ArrayList<>(List.of("-gencert", "-alias", name, "-keystore", store(name), "-infile",
                    csr.toString(), "-outfile", crt.toString(), "-rfc", "-validity", "1", "-ext", "SAN=" + sans,
                    "-ext", "KU=digitalSignature,keyEncipherment", "-ext", "EKU=serverAuth"));
            if (startDate != null) {
                gen.addAll(List.of("-startdate", startDate));
            }
            keytool(gen.toArray(String[]::new));
            keytool("-importcert", "-noprompt", "-alias", name, "-file", caPem().toString(), "-keystore", p12.toString());
            keytool("-importcert", "-alias", alias, "-file", crt.toString(), "-keystore", p12.toString());
            writePem(alias, p12, crt);
        }
        return new Issued(dir.resolve(alias + "-chain.pem"), dir.resolve(alias + "-key.pem"), p12, caPem());
    }

    private void writePem(String alias, Path p12, Path crt) {
        try (InputStream in = Files.newInputStream(p12)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, PASSWORD.toCharArray());
            PrivateKey key = (PrivateKey) ks.getKey(alias, PASSWORD.toCharArray());
            String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(key.getEncoded()) + "\n-----END PRIVATE KEY-----\n";
            Files.writeString(dir.resolve(alias + "-key.pem"), pem);
            Files.writeString(dir.resolve(alias + "-chain.pem"), Files.readString(crt) + Files.readString(caPem()));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private String store(String alias) {
        return dir.resolve(alias + ".p12").toString();
    }

    private void keytool(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("-storepass", PASSWORD));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(Duration.ofSeconds(60).toSeconds(), TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
