package io.loomgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class DescriptorLimitTest {

    private static final String LIMITS = """
            Limit                     Soft Limit           Hard Limit           Units
            Max cpu time              unlimited            unlimited            seconds
            Max processes             96364                96364                processes
            Max open files            20000                1048576              files
            Max locked memory         8388608              8388608              bytes
            """;

    @Test
    void theSoftLimitIsTheOneRead() {
        assertEquals(OptionalLong.of(20_000), DescriptorLimit.parse(LIMITS));
    }

    @Test
    void unlimitedIsTheLargestLongAndAnUnreadableRowIsNothing() {
        assertEquals(OptionalLong.of(Long.MAX_VALUE),
                DescriptorLimit.parse("Max open files            unlimited            unlimited            files\n"));
        assertEquals(OptionalLong.empty(), DescriptorLimit.parse("Max open files            lots            lots            files\n"));
        assertEquals(OptionalLong.empty(), DescriptorLimit.parse("Max processes             96364                96364                processes\n"));
        assertEquals(OptionalLong.empty(), DescriptorLimit.parse(""));
    }

    @Test
    void onLinuxTheFileSaysWhatTheOperatingSystemBeanSays() {
        OptionalLong proc = DescriptorLimit.fromProc();
        assumeTrue(proc.isPresent(), "no /proc/self/limits here (not Linux)");
        assertEquals(DescriptorLimit.fromMxBean(), proc);
        assertEquals(proc, DescriptorLimit.ofThisProcess());
    }
}
