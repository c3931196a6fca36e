package io.loomgate.core.fanout;

import io.loomgate.core.call.UpstreamId;
import io.loomgate.module.Fields;
import io.loomgate.module.RouteFileException;
import java.util.List;

/** One upstream, merged as under "all": its failure or timeout is the answer's. */
public record SinglePolicy() implements Policy, PolicySpec {

    /** {@code "policy": "single"}: exactly one upstream. */
    public static final PolicyModule MODULE = new PolicyModule() {
        @Override
        public String name() {
            return "single";
        }

        @Override
        public List<String> fields() {
            return List.of();
        }

        @Override
        public PolicySpec read(Fields route, List<UpstreamId> upstreams) throws RouteFileException {
            if (upstreams.size() != 1) {
                throw route.bad("upstreams", "must name exactly one upstream with policy single", upstreams.size() + " upstreams");
            }
            return new SinglePolicy();
        }
    };

    @Override
    public Policy build() {
        return this;
    }

    @Override
    public boolean oneUpstream() {
        return true;
    }

    @Override
    public boolean stopsAtFirstFailure() {
        return true;
    }

    @Override
    public String name() {
        return "single";
    }

    @Override
    public StopWhen stopWhen() {
        return StopWhen.FIRST_FAILURE;
    }

    @Override
    public Aggregation merge(FanOutResult result) {
        return AllPolicy.mergeAll(name(), result);
    }
}
