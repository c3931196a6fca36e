package io.loomgate.http;

import io.loomgate.json.JsonWriter;
import java.lang.System.Logger.Level;
import java.util.Map;

/**
 * The one place where exceptions become responses. An {@link HttpError} is answered as it says.
 * An interrupt means shutdown cut the request off. Anything else is a bug: it is logged with its
 * stack trace under an error id, and the client gets a 500 that carries only that id.
 */
public final class ErrorMapper {

    private static final System.Logger LOG = System.getLogger("loomgate");

    private ErrorMapper() {
    }

    public static Response toResponse(Throwable failure, String requestId) {
        return switch (failure) {
            case HttpError e -> e.toResponse();
            // The interrupt is consumed here, at the edge: the flag stays clear, because a set flag
            // would make the socket write below close the channel before the client got its answer.
            case InterruptedException e -> new HttpError(503, "shutdown",
                    "the server is shutting down and cut this request off",
                    Map.of(), Map.of("Connection", "close")).toResponse();
            default -> {
                LOG.log(Level.ERROR, "request " + requestId + " failed with an unexpected exception", failure);
                yield Response.json(500, new JsonWriter(96).beginObject()
                        .field("status", 500).field("error", "internal").field("id", requestId)
                        .field("message", "unexpected error; the server log has the details under this id")
                        .endObject());
            }
        };
    }
}
