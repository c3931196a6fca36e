package io.loomgate.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM files, as Kubernetes secrets and most tools hold them: certificates
 * ({@code -----BEGIN CERTIFICATE-----}) and an unencrypted PKCS#8 private key
 * ({@code -----BEGIN PRIVATE KEY-----}, RSA or EC). Every problem is a {@link TlsException} whose
 * message names the file and says what to do.
 */
public final class PemFiles {

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)-----END \\1-----");

    private PemFiles() {
    }

    /** Every certificate in {@code file}, in order: a server's chain, leaf first, or a bundle of CAs. */
    public static List<X509Certificate> certificates(Path file) throws TlsException {
        List<X509Certificate> certs = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (Block b : blocks(file)) {
                if (b.type().equals("CERTIFICATE")) {
                    certs.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der())));
                }
            }
        } catch (CertificateException e) {
            throw new TlsException(file + ": not a valid certificate (" + e.getMessage() + ")");
        }
        if (certs.isEmpty()) {
            throw new TlsException(file + ": holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        return certs;
    }

    /** The one PKCS#8 private key in {@code file}, RSA or EC. */
    public static PrivateKey privateKey(Path file) throws TlsException {
        for (Block b : blocks(file)) {
            switch (b.type()) {
                case "PRIVATE KEY" -> {
                    return pkcs8(file, b.der());
                }
                case "RSA PRIVATE KEY", "EC PRIVATE KEY" -> throw new TlsException(file + ": a " + b.type()
                        + " (PKCS#1 or SEC1); convert it to PKCS#8: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pkcs8");
                case "ENCRYPTED PRIVATE KEY" -> throw new TlsException(file
                        + ": an encrypted key; give an unencrypted PKCS#8 key, or use --tls-keystore with a PKCS#12 file");
                default -> {
                    // certificates beside the key are allowed
                }
            }
        }
        throw new TlsException(file + ": holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
    }

    private static PrivateKey pkcs8(Path file, byte[] der) throws TlsException {
        for (String algorithm : List.of("RSA", "EC")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (InvalidKeySpecException notThisOne) {
                // try the next algorithm
            } catch (GeneralSecurityException e) {
                throw new TlsException(file + ": cannot read the key (" + e.getMessage() + ")");
            }
        }
        throw new TlsException(file + ": the private key is neither RSA nor EC");
    }

    private record Block(String type, byte[] der) {
    }

    private static List<Block> blocks(Path file) throws TlsException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new TlsException(file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
        }
        List<Block> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            try {
                blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new TlsException(file + ": a " + m.group(1) + " block that is not valid base64");
            }
        }
        return blocks;
    }
}
