package io.loomgate.edge;

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
 * RFC 7517): RSA keys of at least 2048 bits for RS256, and EC keys on P-256 for ES256. Symmetric
 * keys ({@code "kty": "oct"}) are refused: a token's signature must be one only its issuer can make.
 */
public final class Jwks {

    /** One key: its id ({@code kid}, may be empty) and the algorithm it verifies. */
    public record Key(String kid, String alg, PublicKey key) {
    }

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
            keys.add(key(where, (Map<String, Object>) k));
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
                    if (key.getModulus().bitLength() < 2048) {
                        throw new EdgeException(where + " is an RSA key of " + key.getModulus().bitLength()
                                + " bits; at least 2048 are needed");
                    }
                    yield new Key(kid, "RS256", key);
                }
                case "EC" -> {
                    if (!text(k, "crv").orElse("").equals("P-256") || (alg.isPresent() && !alg.get().equals("ES256"))) {
                        throw new EdgeException(where + " is EC; only the P-256 curve with ES256 is accepted");
                    }
                    AlgorithmParameters p = AlgorithmParameters.getInstance("EC");
                    p.init(new ECGenParameterSpec("secp256r1"));
                    ECPoint point = new ECPoint(number(where, k, "x"), number(where, k, "y"));
                    yield new Key(kid, "ES256", KeyFactory.getInstance("EC").generatePublic(
                            new ECPublicKeySpec(point, p.getParameterSpec(ECParameterSpec.class))));
                }
                case "oct" -> throw new EdgeException(where + " is a symmetric key (kty oct); only RSA and EC public keys"
                        + " are accepted, so that no one who can check a token can make one");
                default -> throw new EdgeException(where + " has kty " + kty + "; only RSA and EC are accepted");
            };
        } catch (GeneralSecurityException e) {
            throw new EdgeException(where + " is not a usable key (" + e.getMessage() + ")");
        }
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
