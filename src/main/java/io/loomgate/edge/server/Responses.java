package io.loomgate.edge.server;

import io.loomgate.http.Headers;
import io.loomgate.http.HttpDate;
import io.loomgate.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The bytes of an answer's head, and of the server's own refusals. */
final class Responses {

    private static final Map<Integer, String> REASONS = Map.ofEntries(
            Map.entry(100, "Continue"), Map.entry(101, "Switching Protocols"), Map.entry(200, "OK"),
            Map.entry(201, "Created"), Map.entry(202, "Accepted"), Map.entry(204, "No Content"),
            Map.entry(206, "Partial Content"), Map.entry(301, "Moved Permanently"), Map.entry(302, "Found"),
            Map.entry(303, "See Other"), Map.entry(304, "Not Modified"), Map.entry(307, "Temporary Redirect"),
            Map.entry(308, "Permanent Redirect"), Map.entry(400, "Bad Request"), Map.entry(401, "Unauthorized"),
            Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"),
            Map.entry(406, "Not Acceptable"), Map.entry(408, "Request Timeout"), Map.entry(409, "Conflict"),
            Map.entry(410, "Gone"), Map.entry(411, "Length Required"), Map.entry(412, "Precondition Failed"),
            Map.entry(413, "Content Too Large"), Map.entry(414, "URI Too Long"), Map.entry(415, "Unsupported Media Type"),
            Map.entry(417, "Expectation Failed"), Map.entry(422, "Unprocessable Content"), Map.entry(429, "Too Many Requests"),
            Map.entry(431, "Request Header Fields Too Large"), Map.entry(500, "Internal Server Error"),
            Map.entry(501, "Not Implemented"), Map.entry(502, "Bad Gateway"), Map.entry(503, "Service Unavailable"),
            Map.entry(504, "Gateway Timeout"), Map.entry(505, "HTTP Version Not Supported"));
    private static final Map<Integer, String> CODES = Map.of(400, "bad_request", 404, "not_found", 414, "uri_too_long",
            431, "header_fields_too_large", 501, "not_implemented", 503, "unavailable", 505, "http_version_not_supported");

    private static volatile long dateSecond;
    private static volatile String date = "";

    private Responses() {
    }

    /**
     * {@code HTTP/1.1 200 OK}, a {@code Date} (the fields' own when they have one: a proxied or
     * cached answer keeps its upstream's), the fields with each name's words capitalised, the
     * framing field (which replaces any {@code Content-Length} or {@code Transfer-Encoding} the fields
     * had), the {@code Connection} option (which replaces theirs), and the empty line.
     *
     * @param framing    {@code Content-Length: n} or {@code Transfer-Encoding: chunked} as a name and a
     *                   value; null for none
     * @param connection {@code close} or {@code keep-alive}; null to leave the fields' own
     */
    static byte[] head(int status, Headers fields, String[] framing, String connection) {
        String own = fields.first("Date");
        StringBuilder sb = new StringBuilder(512).append("HTTP/1.1 ").append(status).append(' ')
                .append(REASONS.getOrDefault(status, "")).append("\r\nDate: ").append(own != null ? own : date()).append("\r\n");
        fields.forEach((name, value) -> {
            boolean replaced = name.equalsIgnoreCase("Date")
                    || framing != null && (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding"))
                    || connection != null && name.equalsIgnoreCase("Connection");
            if (!replaced) {
                sb.append(canonical(name)).append(": ").append(value).append("\r\n");
            }
        });
        if (framing != null) {
            sb.append(framing[0]).append(": ").append(framing[1]).append("\r\n");
        }
        if (connection != null) {
            sb.append("Connection: ").append(connection).append("\r\n");
        }
        return sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** An interim answer ({@code 103 Early Hints}, ...) with {@code fields}: no {@code Date}, no framing. */
    static byte[] interim(int status, Headers fields) {
        StringBuilder sb = new StringBuilder(128).append("HTTP/1.1 ").append(status).append(' ')
                .append(status == 103 ? "Early Hints" : status == 102 ? "Processing" : "").append("\r\n");
        fields.forEach((name, value) -> sb.append(canonical(name)).append(": ").append(value).append("\r\n"));
        return sb.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The interim answer to {@code Expect: 100-continue}. */
    static byte[] proceed() {
        return "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A refusal the server makes before any handler: loomgate's JSON error, and the connection closes. */
    static byte[] refusal(int status, String why) {
        byte[] body = new JsonWriter(128).beginObject().field("status", status)
                .field("error", CODES.getOrDefault(status, "bad_request")).field("message", why).endObject()
                .toString().getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + " " + REASONS.getOrDefault(status, "") + "\r\nDate: " + date()
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    /** {@code content-type} and {@code Content-type} as {@code Content-Type}. */
    static String canonical(String name) {
        boolean start = true;
        for (int i = 0; i < name.length(); i++) {   // most names come canonical: no copy for them
            char c = name.charAt(i);
            if (start && Character.toUpperCase(c) != c) {
                return recased(name);
            }
            start = c == '-';
        }
        return name;
    }

    private static String recased(String name) {
        char[] c = name.toCharArray();
        boolean start = true;
        for (int i = 0; i < c.length; i++) {
            c[i] = start ? Character.toUpperCase(c[i]) : c[i];
            start = c[i] == '-';
        }
        return new String(c);
    }

    /** The HTTP date, formatted once a second. */
    static String date() {
        long second = System.currentTimeMillis() / 1000;
        if (second != dateSecond) {
            date = HttpDate.format(second);
            dateSecond = second;
        }
        return date;
    }
}
