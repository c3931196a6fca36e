package io.loomgate.core.fanout;

/** One upstream, merged as under "all": its failure or timeout is the answer's. */
record SinglePolicy() implements Policy {

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
