package io.loomgate.edge.server;

import com.sun.net.httpserver.HttpExchange;
import java.lang.System.Logger.Level;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Where an exchange's handler runs, and through which door: an {@link ExchangeHandler} on a context
 * with no filter and no authenticator gets loomgate's own exchange ({@link WireExchange}); any other
 * handler gets the API's ({@link PlainExchange}, {@link TlsExchange}) through the context's filters
 * and authenticator ({@link ContextChain}). Either runs on the server's executor, or a new virtual
 * thread when it has none.
 */
final class Dispatch {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private Dispatch() {
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
                Thread.ofVirtual().name("loomgate-exchange").start(task);
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
