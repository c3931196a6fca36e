package io.loomgate.upstream.balance;

import java.util.Arrays;
import java.util.Optional;

/** How an upstream with several endpoints spreads its calls ({@code "balance"}). */
public enum Balance {
    /** Two endpoints drawn at random, the one with fewer calls outstanding taken (Envoy's default). */
    LEAST_REQUEST("least-request"),
    /** Each endpoint in turn. */
    ROUND_ROBIN("round-robin"),
    /** A key from the request ({@code hashKey}) on a consistent-hash ring: a key stays on its endpoint. */
    HASH("hash");

    private final String wire;

    Balance(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<Balance> fromWire(String s) {
        return Arrays.stream(values()).filter(b -> b.wire.equals(s)).findFirst();
    }
}
