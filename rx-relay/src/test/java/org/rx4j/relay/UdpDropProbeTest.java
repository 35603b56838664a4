// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UdpDropProbeTest {
    @Test
    void parsesTheDropsColumnByLocalPort() {
        Map<Integer, Long> drops = new HashMap<>();
        UdpDropProbe.parse("  412: 0100007F:1B62 00000000:0000 07 00000000:00000000 00:00000000 00000000  "
                + "1000        0 123456 2 0000000000000000 42", drops);
        UdpDropProbe.parse("  1: 00000000000000000000FFFF0100007F:1B62 00000000000000000000000000000000:0000 07 "
                + "00000000:00000000 00:00000000 00000000  1000        0 654321 2 0000000000000000 8", drops);
        UdpDropProbe.parse("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid", drops);
        assertEquals(Map.of(7010, 50L), drops);
    }
}
