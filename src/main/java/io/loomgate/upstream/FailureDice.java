package io.loomgate.upstream;

import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Decides random failures and which calls fall in a latency's tail. With a seed ({@code --seed})
 * the sequence of decisions is reproducible; upstreams with probability 0 or 1 never draw, so they
 * do not disturb that sequence.
 */
final class FailureDice {

    private final Random seeded;

    FailureDice(OptionalLong seed) {
        this.seeded = seed.isPresent() ? new Random(seed.getAsLong()) : null;
    }

    boolean fails(double probability) {
        if (probability <= 0) {
            return false;
        }
        if (probability >= 1) {
            return true;
        }
        return uniform() < probability;
    }

    /** A uniform draw in [0, 1), from the seeded source when there is one. */
    double uniform() {
        return seeded != null ? seeded.nextDouble() : ThreadLocalRandom.current().nextDouble();
    }
}
