package io.loomgate.config;

import java.util.ArrayList;
import java.util.List;

/** {@code --admin-names}: the host names the admin listener answers besides loopback and {@code --admin-host}. */
final class AdminNames {

    private AdminNames() {
    }

    /** {@code --admin-names}: host names, each perhaps with a port, comma-separated. */
    static List<String> read(Setting names) throws UsageException {
        List<String> out = new ArrayList<>();
        for (String n : names.value().split(",")) {
            String name = n.strip();
            if (name.isEmpty()) {
                continue;
            }
            if (!name.matches("[A-Za-z0-9.\\-]{1,253}(:[0-9]{1,5})?|\\[[0-9A-Fa-f:.]{2,45}\\](:[0-9]{1,5})?")) {
                throw names.bad("must be host names or addresses, each perhaps with :PORT, comma-separated");
            }
            out.add(name);
        }
        return out;
    }
}
