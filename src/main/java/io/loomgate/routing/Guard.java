package io.loomgate.routing;

import io.loomgate.http.Headers;
import io.loomgate.http.Request;
import io.loomgate.http.Response;

/**
 * What a route checks at the edge, before admission and before its handler: a CORS preflight is
 * answered here, a caller without a valid key or token is refused (401, 403), one over its rate
 * limit too (429), and the rest go on, knowing who is calling. Every answer of the route, refusals
 * included, then passes {@link #decorate} (CORS response headers).
 *
 * <p>The order is fixed: CORS preflight, authentication, rate limit; then the server's admission
 * limit and the route. A refusal never reaches an upstream.
 */
public interface Guard {

    /** What the guard decided. */
    sealed interface Verdict {
        /**
         * Go on, as this request (its caller filled in), adding {@code answerHeaders} to whatever the
         * route answers ({@code RateLimit-Remaining}).
         */
        record Pass(Request request, Headers answerHeaders) implements Verdict {
            public Pass {
                java.util.Objects.requireNonNull(answerHeaders, "answerHeaders");
            }

            public Pass(Request request) {
                this(request, Headers.EMPTY);
            }
        }

        /** Answer with this, now (a preflight's 204). */
        record Answer(Response response) implements Verdict {
        }
    }

    /** Nothing to check: every route without edge settings. */
    Guard NONE = new Guard() {
        @Override
        public Verdict check(Request request) {
            return new Verdict.Pass(request);
        }

        @Override
        public Response decorate(Request request, Response response) {
            return response;
        }

        @Override
        public boolean answersPreflight() {
            return false;
        }
    };

    /**
     * @throws io.loomgate.http.HttpError to refuse the request (401, 403, 429), with the headers the
     *                                    refusal needs ({@code WWW-Authenticate}, {@code Retry-After})
     */
    Verdict check(Request request);

    /** The route's answer to {@code request}, with the headers the edge adds (CORS). */
    Response decorate(Request request, Response response);

    /** True when this route's CORS settings answer preflights (an OPTIONS with Origin and Access-Control-Request-Method). */
    boolean answersPreflight();
}
