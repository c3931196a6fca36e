package io.loomgate.service;

/**
 * The work of one simulated service, done after its latency has been slept. Must stop promptly when
 * its thread is interrupted. Tests plug in their own to make a service misbehave.
 */
@FunctionalInterface
public interface Backend {
    ServiceValue perform(CallPlan plan) throws ServiceFailure, InterruptedException;
}
