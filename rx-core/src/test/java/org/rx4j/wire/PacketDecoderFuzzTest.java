// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;

/**
 * Coverage-guided fuzz target (Jazzer) for {@link PacketDecoder}: arbitrary bytes must decode without an
 * exception, take no lasting reference to the datagram, and re-encode to the same length and to packets
 * that decode equal.
 *
 * <p>In a normal {@code mvn test} run Jazzer only replays the seed corpus in
 * {@code src/test/resources/org/rx4j/wire/PacketDecoderFuzzTestInputs/decodeArbitraryBytes/} (plus the empty
 * input), which takes milliseconds. To fuzz for real (coverage-guided, until {@code maxDuration}; findings are
 * written to that inputs directory as crash files):
 * <pre>
 * JAZZER_FUZZ=1 mvn -B -pl rx-core -am test -Dtest=PacketDecoderFuzzTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * The generated corpus goes to {@code rx-core/.cifuzz-corpus/} (not committed).
 */
class PacketDecoderFuzzTest {

    @FuzzTest(maxDuration = "2m")
    void decodeArbitraryBytes(byte[] input) {
        if (input.length > RxConstants.MAX_DATAGRAM_SIZE) {
            return; // no UDP datagram is longer
        }
        ByteBuf datagram = Unpooled.wrappedBuffer(input);
        List<RxPacket> first = new ArrayList<>();
        List<RxPacket> second = new ArrayList<>();
        ByteBuf again = Unpooled.buffer(input.length);
        try {
            DecodeError error = PacketDecoder.decode(datagram, first);
            if (error != null) {
                assertTrue(first.isEmpty());
                return;
            }
            if (first.get(0) instanceof DataPacket) {
                List<DataPacket> data = new ArrayList<>();
                first.forEach(p -> data.add((DataPacket) p));
                PacketEncoder.encodeJumbogram(data, again);
            } else {
                assertEquals(1, first.size());
                PacketEncoder.encode(first.get(0), again);
            }
            assertEquals(input.length, again.readableBytes());
            assertNull(PacketDecoder.decode(again, second));
            assertEquals(first, second);
        } finally {
            first.forEach(RxPacket::release);
            second.forEach(RxPacket::release);
            again.release();
            assertEquals(1, datagram.refCnt(), "decoded packets still hold the datagram");
            datagram.release();
        }
    }
}
