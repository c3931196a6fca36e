package io.loomgate.testing;

import io.loomgate.json.JsonWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * JWTs made in the test: an RSA and an EC P-256 key pair, their JSON Web Key Set, and tokens signed
 * with them (or, for the attacks, unsigned, or HMAC-signed with the public key as the secret).
 *
 * <pre>{@code
 * TestTokens t = new TestTokens();
 * Path jwks = t.writeJwks(dir);
 * String token = t.rs256(Map.of("sub", "ada", "exp", t.inSeconds(60)));
 * }</pre>
 */
public final class TestTokens {

    public final KeyPair rsa;
    public final KeyPair ec;

    public TestTokens() {
        try {
            KeyPairGenerator r = KeyPairGenerator.getInstance("RSA");
            r.initialize(2048);
            rsa = r.generateKeyPair();
            KeyPairGenerator e = KeyPairGenerator.getInstance("EC");
            e.initialize(new ECGenParameterSpec("secp256r1"));
            ec = e.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The hex SHA-256 of an API key: what an {@code --api-keys} line holds for it. */
    public static String sha256(String key) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Seconds since the epoch, {@code seconds} from now. */
    public static long inSeconds(long seconds) {
        return Instant.now().getEpochSecond() + seconds;
    }

    /** The key set, with kids {@code rsa-1} and {@code ec-1}. */
    public String jwks() {
        RSAPublicKey r = (RSAPublicKey) rsa.getPublic();
        ECPublicKey e = (ECPublicKey) ec.getPublic();
        return "{\"keys\": [{\"kty\": \"RSA\", \"kid\": \"rsa-1\", \"alg\": \"RS256\", \"n\": \"" + b64(unsigned(r.getModulus()))
                + "\", \"e\": \"" + b64(unsigned(r.getPublicExponent())) + "\"}, {\"kty\": \"EC\", \"kid\": \"ec-1\", \"crv\": \"P-256\", \"x\": \""
                + b64(fixed(e.getW().getAffineX())) + "\", \"y\": \"" + b64(fixed(e.getW().getAffineY())) + "\"}]}";
    }

    public Path writeJwks(Path dir) {
        Path file = dir.resolve("jwks.json");
        try {
            Files.writeString(file, jwks());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    public String rs256(Map<String, Object> claims) {
        return signed("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"rsa-1\"}", claims, "SHA256withRSA", rsa);
    }

    public String es256(Map<String, Object> claims) {
        return signed("{\"alg\":\"ES256\",\"typ\":\"JWT\",\"kid\":\"ec-1\"}", claims, "SHA256withECDSAinP1363Format", ec);
    }

    /** ES256 with a header of the test's own, signed properly: for header fields such as {@code crit}. */
    public String es256WithHeader(String header, Map<String, Object> claims) {
        return signed(header, claims, "SHA256withECDSAinP1363Format", ec);
    }

    /** A token signed by a key the key set does not hold. */
    public static String foreignRs256(Map<String, Object> claims) {
        return new TestTokens().rs256(claims);
    }

    /** {@code alg: none}, no signature: the oldest trick. */
    public static String unsigned(Map<String, Object> claims) {
        return b64("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "." + payload(claims) + ".";
    }

    /** HS256 with the RSA public key's bytes as the HMAC secret: the key-confusion attack. */
    public String hs256WithPublicKey(Map<String, Object> claims) {
        String head = b64("{\"alg\":\"HS256\",\"typ\":\"JWT\",\"kid\":\"rsa-1\"}".getBytes(StandardCharsets.UTF_8)) + "." + payload(claims);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(rsa.getPublic().getEncoded(), "HmacSHA256"));
            return head + "." + b64(mac.doFinal(head.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Claims valid for a minute, for subject {@code sub}, plus {@code more}. */
    public static Map<String, Object> claims(String sub, Map<String, Object> more) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("sub", sub);
        c.put("iat", inSeconds(0));
        c.put("exp", inSeconds(60));
        c.putAll(more);
        return c;
    }

    private static String signed(String header, Map<String, Object> claims, String algorithm, KeyPair key) {
        String head = b64(header.getBytes(StandardCharsets.UTF_8)) + "." + payload(claims);
        try {
            Signature s = Signature.getInstance(algorithm);
            s.initSign(key.getPrivate());
            s.update(head.getBytes(StandardCharsets.US_ASCII));
            return head + "." + b64(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String payload(Map<String, Object> claims) {
        return b64(new JsonWriter(128).tree(claims).toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static byte[] unsigned(BigInteger n) {
        byte[] b = n.toByteArray();
        return b[0] == 0 ? Arrays.copyOfRange(b, 1, b.length) : b;
    }

    private static byte[] fixed(BigInteger n) {
        byte[] b = unsigned(n);
        byte[] out = new byte[32];
        System.arraycopy(b, 0, out, 32 - b.length, b.length);
        return out;
    }
}
