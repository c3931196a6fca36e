package io.loomgate.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SampleFileTest {

    private static long slowCount(byte[] bytes, int from, int to) {
        long n = 0;
        for (int i = from; i < to; i++) {
            n += bytes[i] == '\n' ? 1 : 0;
        }
        return n;
    }

    @Test
    void itsDirectoryIsNewTheOwnersOnlyAndGoneAfterClose() throws Exception {
        Path other = SampleFile.freshDirectory();
        try (SampleFile file = SampleFile.create()) {
            Path dir = file.path().getParent();
            assertNotEquals(other, dir);
            assertEquals(Path.of(System.getProperty("java.io.tmpdir")), dir.getParent());
            assertTrue(Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS));
            if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
            }
            assertEquals(560_000, Files.size(file.path()));
            file.close();
            assertFalse(Files.exists(dir));
        } finally {
            Files.delete(other);
        }
    }

    @Test
    void theWordAtATimeCountIsExactForEveryByteValueLengthAndOffset() {
        SplittableRandom random = new SplittableRandom(42);
        byte[] bytes = new byte[4096];
        for (int i = 0; i < bytes.length; i++) {
            // every byte value, and runs of newlines next to 0x0B and 0x09 that defeat inexact zero tests
            bytes[i] = (byte) switch (random.nextInt(4)) {
                case 0 -> '\n';
                case 1 -> random.nextInt(256);
                case 2 -> 0x0B;
                default -> 0x09;
            };
        }
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).order(ByteOrder.nativeOrder());
        direct.put(bytes);
        for (int from = 0; from < 40; from++) {
            for (int to = from; to < bytes.length; to += 1 + random.nextInt(97)) {
                direct.limit(to).position(from);
                assertEquals(slowCount(bytes, from, to), SampleFile.countNewlines(direct), "bytes " + from + ".." + to);
                direct.limit(bytes.length);
            }
        }
    }
}
