package io.loomgate.edge.auth;

import io.loomgate.config.Printable;
import io.loomgate.json.JsonParser;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The public keys JWTs are checked with, from a JSON Web Key Set file ({@code {"keys": [...]}},
 * RFC 7517): RSA keys of 2048 to 8192 bits for RS256, and EC keys on P-256 for ES256, their point
 * checked to lie on the curve. Symmetric keys ({@code "kty": "oct"}) are refused: a token's
 * signature must be one only its issuer can make. A key published for encryption ({@code "use":
 * "enc"}, or {@code key_ops} without {@code verify}) is skipped with a warning naming its
 * {@code kid}: RFC 7517 says it is not for checking signatures.
 */
public final class Jwks {

    /** One key: its id ({@code kid}, may be empty) and the algorithm it verifies. */
    public record Key(String kid, String alg, PublicKey key) {
    }

    static final int MIN_RSA_BITS = 2048;
    static final int MAX_RSA_BITS = 8192;
    private static final System.Logger LOG = System.getLogger("loomgate");

    private final List<Key> keys;

    private Jwks(List<Key> keys) {
        this.keys = List.copyOf(keys);
    }

    public List<Key> keys() {
        return keys;
    }

    /** @throws EdgeException naming the file and the key at fault */
    @SuppressWarnings("unchecked")
    public static Jwks read(Path file) throws EdgeException {
        Map<String, Object> json;
        try {
            json = JsonParser.parseObject(Files.readString(file));
        } catch (IOException e) {
            throw new EdgeException(file + ": cannot be read (" + e.getClass().getSimpleName() + ")");
        } catch (IllegalArgumentException e) {
            throw new EdgeException(file + ": not a JSON Web Key Set: " + e.getMessage());
        }
        if (!(json.get("keys") instanceof List<?> list) || list.isEmpty()) {
            throw new EdgeException(file + ": a JSON Web Key Set needs a non-empty \"keys\" array");
        }
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String where = file + ": keys[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> k)) {
                throw new EdgeException(where + " must be an object");
            }
            Map<String, Object> fields = (Map<String, Object>) k;
            Optional<String> notForSigning = notForSigning(fields);
            if (notForSigning.isPresent()) {
                LOG.log(System.Logger.Level.WARNING, where + " (kid \"" + Printable.shorten(text(fields, "kid").orElse(""), 64)
                        + "\") is ignored: " + notForSigning.get());
                continue;
            }
            keys.add(key(where, fields));
        }
        if (keys.isEmpty()) {
            throw new EdgeException(file + ": holds no key for checking signatures (every key is for encryption)");
        }
        return new Jwks(keys);
    }

    private static Key key(String where, Map<String, Object> k) throws EdgeException {
        String kty = text(k, "kty").orElseThrow(() -> new EdgeException(where + " has no \"kty\""));
        String kid = text(k, "kid").orElse("");
        Optional<String> alg = text(k, "alg");
        try {
            return switch (kty) {
                case "RSA" -> {
                    if (alg.isPresent() && !alg.get().equals("RS256")) {
                        throw new EdgeException(where + " is RSA with alg " + alg.get() + "; only RS256 is accepted");
                    }
                    RSAPublicKey key = (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(
                            number(where, k, "n"), number(where, k, "e")));
                    int bits = key.getModulus().bitLength();
                    if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) {
                        throw new EdgeException(where + " is an RSA key of " + bits + " bits; " + MIN_RSA_BITS
                                + " to " + MAX_RSA_BITS + " are accepted");
                    }
                    yield new Key(kid, "RS256", key);
                }
                case "EC" -> {
                    if (!text(k, "crv").orElse("").equals("P-256") || (alg.isPresent() && !alg.get().equals("ES256"))) {
                        throw new EdgeException(where + " is EC; only the P-256 curve with ES256 is accepted");
                    }
                    AlgorithmParameters p = AlgorithmParameters.getInstance("EC");
                    p.init(new ECGenParameterSpec("secp256r1"));
                    ECParameterSpec curve = p.getParameterSpec(ECParameterSpec.class);
                    ECPoint point = new ECPoint(number(where, k, "x"), number(where, k, "y"));
                    if (!onCurve(point, curve)) {
                        throw new EdgeException(where + " is not a point on the P-256 curve");
                    }
                    yield new Key(kid, "ES256", KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(point, curve)));
                }
                case "oct" -> throw new EdgeException(where + " is a symmetric key (kty oct); only RSA and EC public keys"
                        + " are accepted, so that no one who can check a token can make one");
                default -> throw new EdgeException(where + " has kty " + kty + "; only RSA and EC are accepted");
            };
        } catch (GeneralSecurityException e) {
            throw new EdgeException(where + " is not a usable key (" + e.getMessage() + ")");
        }
    }

    /** Why a key is published for something else than checking signatures, if it is. */
    private static Optional<String> notForSigning(Map<String, Object> k) {
        if (k.get("use") instanceof String use && !use.equals("sig")) {
            return Optional.of("its use is \"" + Printable.shorten(use, 16) + "\", not \"sig\"");
        }
        if (k.get("key_ops") instanceof List<?> ops && !ops.contains("verify")) {
            return Optional.of("its key_ops do not hold \"verify\"");
        }
        return Optional.empty();
    }

    /**
     * True when {@code q} satisfies y^2 = x^3 + ax + b over the curve's prime field, with both
     * coordinates in the field. P-256's cofactor is 1, so a point on the curve is in its group; a
     * point off it is what an invalid-curve attack sends.
     */
    static boolean onCurve(ECPoint q, ECParameterSpec spec) {
        BigInteger p = ((ECFieldFp) spec.getCurve().getField()).getP();
        BigInteger x = q.getAffineX();
        BigInteger y = q.getAffineY();
        if (x.signum() < 0 || y.signum() < 0 || x.compareTo(p) >= 0 || y.compareTo(p) >= 0) {
            return false;
        }
        BigInteger right = x.pow(3).add(spec.getCurve().getA().multiply(x)).add(spec.getCurve().getB()).mod(p);
        return y.pow(2).mod(p).equals(right);
    }

    private static Optional<String> text(Map<String, Object> k, String field) {
        return k.get(field) instanceof String s ? Optional.of(s) : Optional.empty();
    }

    private static BigInteger number(String where, Map<String, Object> k, String field) throws EdgeException {
        String s = text(k, field).orElseThrow(() -> new EdgeException(where + " has no \"" + field + "\""));
        try {
            return new BigInteger(1, Base64.getUrlDecoder().decode(s));
        } catch (IllegalArgumentException e) {
            throw new EdgeException(where + "." + field + " is not base64url");
        }
    }
}
