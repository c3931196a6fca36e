package io.loomgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class CarrierDefaultsTest {

    @Test
    void oneProcessorGetsTwoCarriers() {
        Properties p = new Properties();
        assertTrue(CarrierDefaults.apply(1, p));
        assertEquals("2", p.getProperty(CarrierDefaults.PARALLELISM));
    }

    @Test
    void theOperatorsNumberStands() {
        Properties p = new Properties();
        p.setProperty(CarrierDefaults.PARALLELISM, "1");
        assertFalse(CarrierDefaults.apply(1, p));
        assertEquals("1", p.getProperty(CarrierDefaults.PARALLELISM));
    }

    @Test
    void moreProcessorsKeepTheJdksDefault() {
        Properties p = new Properties();
        assertFalse(CarrierDefaults.apply(2, p));
        assertFalse(CarrierDefaults.apply(16, p));
        assertNull(p.getProperty(CarrierDefaults.PARALLELISM));
    }
}
