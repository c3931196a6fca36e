package io.loomgate.edge.server;

import com.sun.net.httpserver.HttpContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A server's contexts; a request goes to the one whose path is the longest prefix of its path, as the JDK's does. */
final class Contexts {

    private final List<Context> list = new CopyOnWriteArrayList<>();

    synchronized Context add(Context c) {
        if (exact(c.getPath()) != null) {
            throw new IllegalArgumentException("a context for " + c.getPath() + " exists already");
        }
        list.add(c);
        return c;
    }

    synchronized void remove(String path) {
        Context c = exact(path);
        if (c == null) {
            throw new IllegalArgumentException("no context for " + path);
        }
        list.remove(c);
    }

    synchronized void remove(HttpContext context) {
        if (!list.remove(context)) {
            throw new IllegalArgumentException("no such context");
        }
    }

    /** The context for {@code path}, or null. */
    Context find(String path) {
        Context longest = null;
        for (Context c : list) {
            if (path.startsWith(c.getPath()) && (longest == null || c.getPath().length() > longest.getPath().length())) {
                longest = c;
            }
        }
        return longest;
    }

    private Context exact(String path) {
        for (Context c : list) {
            if (c.getPath().equals(path)) {
                return c;
            }
        }
        return null;
    }
}
