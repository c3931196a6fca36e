package io.loomgate.remote;

import java.io.IOException;
import java.net.http.HttpResponse.BodySubscriber;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body into a byte array, up to a limit. One byte more cancels the
 * subscription (the exchange is aborted, the rest never read) and fails with {@link TooLarge}.
 */
final class LimitedBody implements BodySubscriber<byte[]> {

    /** The body was longer than the limit. */
    static final class TooLarge extends IOException {
        TooLarge(int limit) {
            super("response body over the " + limit + "-byte limit", null);
        }
    }

    private final int limit;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private Flow.Subscription subscription;
    private byte[] bytes = new byte[0];
    private int size;

    LimitedBody(int limit) {
        this.limit = limit;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer b : buffers) {
            int n = b.remaining();
            if ((long) size + n > limit) {
                subscription.cancel();
                result.completeExceptionally(new TooLarge(limit));
                return;
            }
            if (size + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.min(limit, Math.max(size + n, bytes.length * 2 + 4096)));
            }
            b.get(bytes, size, n);
            size += n;
        }
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        result.complete(size == bytes.length ? bytes : Arrays.copyOf(bytes, size));
    }
}
