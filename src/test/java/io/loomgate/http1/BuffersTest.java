package io.loomgate.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared buffer store: what is given back is taken again, and it never holds more than its slots. */
class BuffersTest {

    @Test
    void aBufferGivenBackIsTheNextTakenWhileAnyIsHeld() {
        Buffers store = new Buffers(Buffers.SLOTS);
        List<byte[]> given = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] b = store.takeOne();
            given.add(b);
        }
        given.forEach(store::giveBack);
        assertEquals(300, store.held());
        for (int i = given.size() - 1; i >= 0; i--) {
            assertSame(given.get(i), store.takeOne(), "taken again, not made anew");
        }
        assertEquals(0, store.held());
        byte[] fresh = store.takeOne();
        assertEquals(Buffers.SIZE, fresh.length);
        given.forEach(b -> assertNotSame(b, fresh));
    }

    @Test
    void itHoldsNoMoreThanItsSlotsAndDropsOtherSizes() {
        Buffers store = new Buffers(4);
        for (int i = 0; i < 10; i++) {
            store.giveBack(new byte[Buffers.SIZE]);
        }
        assertEquals(4, store.held());
        Buffers other = new Buffers(4);
        other.giveBack(new byte[512]);
        other.giveBack(null);
        assertEquals(0, other.held());
    }
}
