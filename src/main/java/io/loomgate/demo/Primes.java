package io.loomgate.demo;

/**
 * The {@code compute} service's CPU work: counts and sums the primes up to {@code n} by trial division,
 * on purpose the slow way (n = 10,000,000 takes seconds), checking for interruption as it goes so
 * that cancellation stops it.
 */
final class Primes {

    private static final int CHECK_EVERY = 1024;

    private Primes() {
    }

    static PrimeSum compute(int n) throws InterruptedException {
        int primes = 0;
        long sum = 0;
        for (int k = 2; k <= n; k++) {
            if ((k & (CHECK_EVERY - 1)) == 0 && Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("compute interrupted at " + k + " of " + n);
            }
            if (isPrime(k)) {
                primes++;
                sum += k;
            }
        }
        return new PrimeSum(n, primes, sum);
    }

    private static boolean isPrime(int k) {
        if (k < 4) {
            return k >= 2;
        }
        if ((k & 1) == 0) {
            return false;
        }
        for (int d = 3; (long) d * d <= k; d += 2) {
            if (k % d == 0) {
                return false;
            }
        }
        return true;
    }
}
