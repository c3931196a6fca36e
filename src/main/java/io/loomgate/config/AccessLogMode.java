package io.loomgate.config;

/**
 * {@code --access-log}: none, one text line per request (as loomgate always wrote it), or one JSON
 * object per line for a log shipper.
 */
public enum AccessLogMode {
    OFF, TEXT, JSON;

    /** The words {@code --access-log} takes: {@code true} and a bare flag mean {@code text}, as they did. */
    static boolean isWord(String word) {
        return Setting.isBoolean(word) || word.equalsIgnoreCase("text") || word.equalsIgnoreCase("json");
    }
}
