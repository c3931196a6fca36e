package io.loomgate.grpc;

import java.util.Locale;

/** What makes a request gRPC's: its {@code content-type} is {@code application/grpc}, or {@code application/grpc+proto}, {@code ;...}. */
public final class GrpcContent {

    private GrpcContent() {
    }

    /** Whether {@code contentType} (null when there is none) names gRPC. */
    public static boolean is(String contentType) {
        if (contentType == null) {
            return false;
        }
        String t = contentType.strip().toLowerCase(Locale.ROOT);
        return t.equals("application/grpc") || t.startsWith("application/grpc+") || t.startsWith("application/grpc;");
    }
}
