package io.loomgate.core.fanout;

import io.loomgate.core.call.Status;
import io.loomgate.core.call.FinishedCall;
import io.loomgate.core.call.Outcome;
import io.loomgate.core.call.UpstreamId;
import io.loomgate.json.JsonWriter;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code k} of the parts must succeed. The answer is decided at the k-th success (the rest are
 * cancelled) or as soon as so many have failed that k is out of reach (every failure is reported).
 * At the deadline without k successes, {@code timeout}.
 */
public record QuorumPolicy(int k) implements Policy, PolicySpec {

    /** {@code "policy": "quorum", "quorum": k}: k from 1 to the number of upstreams. */
    public static final PolicyModule MODULE = new PolicyModule() {
        @Override
        public String name() {
            return "quorum";
        }

        @Override
        public List<String> fields() {
            return List.of("quorum");
        }

        @Override
        public PolicySpec read(Fields route, List<UpstreamId> upstreams) throws RouteFileException {
            int parts = upstreams.size();
            return new QuorumPolicy(route.optionalInteger("quorum", 1, Math.max(1, parts)).orElseThrow(() -> route.missing(
                    "quorum", "a whole number from 1 to " + parts + " (how many upstreams must succeed)")).intValue());
        }

        @Override
        public void refuseOn(Fields route, String other) throws RouteFileException {
            var k = route.optionalValue("quorum");
            if (k.isPresent()) {
                throw route.bad("quorum", "is only for policy quorum", k.get());
            }
        }
    };

    public QuorumPolicy {
        if (k < 1) {
            throw new IllegalArgumentException("a quorum needs k >= 1: " + k);
        }
    }

    @Override
    public Policy build() {
        return this;
    }

    @Override
    public void print(JsonWriter w) {
        w.field("quorum", k);
    }

    @Override
    public String name() {
        return "quorum";
    }

    @Override
    public StopWhen stopWhen() {
        return StopWhen.quorum(k);
    }

    @Override
    public Aggregation merge(FanOutResult result) {
        List<UpstreamId> failed = new ArrayList<>();
        List<UpstreamId> unfinished = new ArrayList<>();
        int succeeded = 0;
        for (FinishedCall p : result.parts()) {
            switch (p.outcome()) {
                case Outcome.Success _ -> succeeded++;
                case Outcome.Failed _ -> failed.add(p.upstream());
                case Outcome o when o.unfinished() -> unfinished.add(p.upstream());
                default -> { }
            }
        }
        if (succeeded >= k) {
            return new Aggregation(name(), Status.OK, result.parts(), Optional.empty(), result.took());
        }
        if (failed.size() > result.parts().size() - k) {
            return new Aggregation(name(), Status.FAILED, result.parts(), Optional.of("quorum of " + k + " out of reach: "
                    + failed.size() + " of " + result.parts().size() + " failed: " + Failures.names(failed)), result.took());
        }
        return new Aggregation(name(), Status.TIMEOUT, result.parts(), Optional.of(
                Failures.deadlinePassed(result.timeout(), unfinished) + "; " + succeeded + " of " + k + " succeeded"),
                result.took());
    }
}
