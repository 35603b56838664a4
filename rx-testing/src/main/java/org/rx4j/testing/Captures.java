// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Loads the real OpenAFS 1.8.9 loopback captures from the test classpath ({@code /captures/NAME.hex}, one UDP
 * datagram a line as {@code <dir> <seconds> <hex payload>}; see captures/README.md).
 */
public final class Captures {
    /** Every capture scenario shipped under {@code src/test/resources/captures}. */
    public static final List<String> NAMES =
            List.of("bad-version", "rpc", "send-jumbo", "recv-jumbo", "send-nojumbo", "rxdebug");

    private Captures() {
    }

    /**
     * One captured datagram.
     *
     * @param line 1-based line number in the .hex file (the README and rx-wire-facts.md cite these)
     * @param clientToServer true for {@code c2s} (to the server's port 7009), false for {@code s2c}
     * @param seconds time since capture start, seconds
     * @param bytes the UDP payload, starting with the 28-byte Rx header
     */
    public record Datagram(int line, boolean clientToServer, double seconds, byte[] bytes) {
        /** @return "c2s" or "s2c" */
        public String direction() {
            return clientToServer ? "c2s" : "s2c";
        }
    }

    /**
     * @param name a scenario from {@link #NAMES}
     * @return its datagrams in capture order
     * @throws UncheckedIOException if the resource is missing or unreadable
     * @throws IllegalArgumentException if a line is malformed
     */
    public static List<Datagram> load(String name) {
        String resource = "/captures/" + name + ".hex";
        try (InputStream in = Captures.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UncheckedIOException(new IOException("missing test resource " + resource));
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            List<Datagram> out = new ArrayList<>();
            String text;
            int line = 0;
            while ((text = reader.readLine()) != null) {
                line++;
                if (text.isBlank()) {
                    continue;
                }
                String[] parts = text.trim().split("\\s+");
                if (parts.length != 3 || !(parts[0].equals("c2s") || parts[0].equals("s2c"))) {
                    throw new IllegalArgumentException(resource + ":" + line + ": malformed line");
                }
                out.add(new Datagram(line, parts[0].equals("c2s"), Double.parseDouble(parts[1]),
                        HexFormat.of().parseHex(parts[2])));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return every datagram of every scenario, in {@link #NAMES} order */
    public static List<byte[]> allPayloads() {
        List<byte[]> out = new ArrayList<>();
        for (String name : NAMES) {
            for (Datagram d : load(name)) {
                out.add(d.bytes());
            }
        }
        return out;
    }
}
