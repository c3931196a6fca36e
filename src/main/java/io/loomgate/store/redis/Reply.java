package io.loomgate.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** One RESP2 reply, as {@link Resp} reads it. */
public sealed interface Reply {

    /** {@code +OK}. */
    record Simple(String text) implements Reply {
    }

    /** {@code -ERR ...}: the command failed; the connection is fine. */
    record Error(String text) implements Reply {
        /** The error's code, its first word: {@code NOSCRIPT}, {@code WRONGPASS}, {@code ERR}. */
        public String code() {
            int space = text.indexOf(' ');
            return space < 0 ? text : text.substring(0, space);
        }
    }

    /** {@code :42}. */
    record Int(long value) implements Reply {
    }

    /** {@code $3\r\nabc}; {@code null} for {@code $-1}. */
    record Bulk(byte[] bytes) implements Reply {
        public String text() {
            return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /** {@code *2 ...}; {@code null} for {@code *-1}. */
    record Array(List<Reply> items) implements Reply {
    }

    /** The reply as a command's success expects it, or a {@link StoreException} that says what came instead. */
    default Reply ok() throws StoreException {
        if (this instanceof Error e) {
            throw new StoreException(StoreException.Kind.ERROR, "Redis answered " + e.code(), e.text());
        }
        return this;
    }
}
