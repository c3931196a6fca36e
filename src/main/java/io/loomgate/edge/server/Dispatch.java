package io.loomgate.edge.server;

import com.sun.net.httpserver.HttpExchange;
import java.lang.System.Logger.Level;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Where an exchange's handler runs, and through which door: an {@link ExchangeHandler} on a context
 * with no filter and no authenticator gets loomgate's own exchange ({@link WireExchange}); any other
 * handler gets the API's ({@link PlainExchange}, {@link TlsExchange}) through the context's filters
 * and authenticator ({@link ContextChain}). Either runs on the connection's own thread when the
 * server has no executor (as the JDK's server runs it on its dispatcher then) or one that allows
 * it ({@link InlineExecutor}), and on the executor otherwise.
 */
final class Dispatch {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private Dispatch() {
    }

    /** Whether {@link #run} runs an exchange on the calling thread, returning once it has ended. */
    static boolean runsHere(Executor executor) {
        return executor == null || executor instanceof InlineExecutor;
    }

    /** @return false when the executor would not take it (the exchange and its connection then end) */
    static boolean run(ServerExchange x, Context c, Executor executor) {
        x.context(c);
        Runnable task = () -> {
            boolean answered = false;
            try {
                if (c.getHandler() instanceof ExchangeHandler direct && c.getFilters().isEmpty() && c.getAuthenticator() == null) {
                    direct.handle(new WireExchange(x));
                } else {
                    HttpExchange facade = x.connection().tls() != null ? new TlsExchange(x) : new PlainExchange(x);
                    ContextChain.run(c, facade, x::principal);
                }
                answered = true;
            } catch (Throwable t) {
                LOG.log(Level.DEBUG, () -> "the handler of " + x.head().method() + " " + x.head().uri() + " threw: " + t);
            } finally {
                x.finish(answered);
            }
        };
        try {
            if (executor == null) {
                task.run();
            } else if (executor instanceof InlineExecutor here) {
                here.runHere(task, x.arrivalNanos());
            } else {
                executor.execute(task);
            }
            return true;
        } catch (RejectedExecutionException e) {
            x.refused();
            return false;
        }
    }
}
