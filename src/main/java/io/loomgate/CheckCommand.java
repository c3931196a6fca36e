package io.loomgate;

import io.loomgate.config.Config;
import io.loomgate.config.UsageException;
import io.loomgate.core.fanout.FanOut;
import io.loomgate.observe.event.Events;
import io.loomgate.plan.PlanModules;
import io.loomgate.plan.PlanSummary;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code loomgate check FILE... [flags]}: what a CI job runs on route files. Each file is compiled
 * into a serving plan exactly as a start compiles it (the file, the flags that refer to it, the
 * listener's TLS, each route's edge), so it fails on what a start fails on, but nothing is bound
 * and no upstream is called. Prints each plan in short; every error is the start's one line.
 */
final class CheckCommand {

    private CheckCommand() {
    }

    /** Checks every file, even after a bad one; the exit code: 0 when all are good, 2 otherwise. */
    static int run(List<Path> files, Config config, PrintStream out, PrintStream err) {
        int status = 0;
        for (Path file : files) {
            Config one = config.withRoutes(file);
            try (PlanModules modules = Modules.open(one)) {
                ServingPlan plan = ServingPlan.compile(one, modules, Map.of(), engines(one), Events.NONE);
                out.print(PlanSummary.of(plan.plan()));
            } catch (UsageException e) {
                err.println("loomgate: " + e.getMessage());
                status = UsageException.EXIT_CODE;
            }
        }
        return status;
    }

    /** The engines a route may name, as a start has them; none runs during a check. */
    private static Map<String, FanOut> engines(Config config) {
        return Modules.engines(config.server().threads(), Events.NONE, new LongAdder());
    }
}
