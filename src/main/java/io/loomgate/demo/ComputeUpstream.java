package io.loomgate.demo;

import io.loomgate.core.call.RequestContext;
import io.loomgate.core.call.Value;
import io.loomgate.http.HttpError;
import io.loomgate.http.QueryParams;
import io.loomgate.core.port.Upstream;
import java.util.List;

/**
 * The {@code compute} service: the primes up to the request's {@code ?n=} (default
 * {@value #DEFAULT_N}), counted by trial division on the calling thread, interruptible as it goes.
 */
final class ComputeUpstream implements Upstream {

    static final int DEFAULT_N = 50_000;
    static final int MIN_N = 2;
    static final int MAX_N = 10_000_000;

    @Override
    public Value call() throws InterruptedException {
        return Primes.compute(n(RequestContext.current().query()));
    }

    /** A bad {@code n} is a 400 before any call is made. */
    @Override
    public void check(RequestContext request) {
        n(request.query());
    }

    static int n(QueryParams query) {
        List<String> values = query.all("n");
        if (values.isEmpty()) {
            return DEFAULT_N;
        }
        String accepted = "an integer from " + MIN_N + " to " + MAX_N;
        if (values.size() > 1) {
            throw HttpError.badParameter("n", String.join("&", values), "given once");
        }
        String text = values.getFirst();
        try {
            long n = Long.parseLong(text);
            if (n < MIN_N || n > MAX_N) {
                throw HttpError.badParameter("n", text, accepted);
            }
            return (int) n;
        } catch (NumberFormatException e) {
            throw HttpError.badParameter("n", text, accepted);
        }
    }
}
