// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.SelectStrategy;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.config.RxConfig;
import org.rx4j.config.SocketBuffers;
import org.rx4j.testing.LeakCheckExtension;

/**
 * The event loop's idle strategy on a virtual clock (docs/transport.md "Idle spin"): after small datagrams written and
 * none larger than an OpenAFS jumbogram read it polls again, yielding between polls, until the spin has lasted its
 * time from when the loop ran out of work, then blocks; after a larger datagram either way (a transfer's) it spins
 * at most the short transfer spin; after a timer tick alone, or with the spin off, it blocks at once;
 * ready events and queued tasks are always handled.
 */
@ExtendWith(LeakCheckExtension.class)
class IdleSpinTest {
    private static final long SPIN_NS = 200_000;

    private long now = 1_000_000_000L;
    private final AtomicInteger yields = new AtomicInteger();
    private final IdleSpin spin = new IdleSpin(SPIN_NS, () -> now, yields::incrementAndGet);

    private static int strategy(IdleSpin s, int ready, boolean hasTasks) throws Exception {
        return s.calculateStrategy(() -> ready, hasTasks);
    }

    /** Asserts that the idle loop spins from now for exactly {@code ns} (still at ns - 1), then blocks. */
    private void assertSpinsFor(long ns, String start) throws Exception {
        assertEquals(SelectStrategy.CONTINUE, strategy(spin, 0, false), start);
        now += ns - 1;
        assertEquals(SelectStrategy.CONTINUE, strategy(spin, 0, false), "still spinning 1 ns before its end");
        now += 1;
        assertEquals(SelectStrategy.SELECT, strategy(spin, 0, false), "the spin is over: block");
    }

    @Test
    void afterASmallExchangeTheLoopPollsAgainUntilTheSpinHasLastedItsTime() throws Exception {
        assertEquals(1, strategy(spin, 1, false), "a ready event is handled");
        spin.read(60);       // a short call's request read
        spin.written(60);    // and its reply written
        assertSpinsFor(SPIN_NS, "a small exchange: spin");
        assertEquals(2, yields.get(), "the CPU is offered to other threads between polls, not when blocking");
    }

    @Test
    void anAnswerCaughtWhileSpinningIsHandledAndStartsANewSpin() throws Exception {
        strategy(spin, 1, false);
        spin.written(60);
        assertEquals(SelectStrategy.CONTINUE, strategy(spin, 0, false));
        now += 150_000;
        assertEquals(1, strategy(spin, 1, false), "the reply, caught by a poll");
        spin.read(60);
        now += 100_000;    // handling the reply took 100 µs: 250 µs after the first spin began
        assertSpinsFor(SPIN_NS, "a new spin, from here");
    }

    @Test
    void theSpinIsCountedFromWhenTheLoopRanOutOfWorkNotFromItsWakeUp() throws Exception {
        assertEquals(1, strategy(spin, 1, false), "a request, read at the wake-up");
        spin.read(60);
        spin.written(60);
        now += 3 * SPIN_NS;    // handling it took longer than the spin (cold code, a CPU taken away)
        assertSpinsFor(SPIN_NS, "the whole spin is still ahead");
    }

    @Test
    void afterADataDatagramWrittenTheLoopSpinsOnlyTheShortTransferSpin() throws Exception {
        strategy(spin, 1, false);
        spin.read(60);                                    // an ACK
        spin.written(5_696);                              // and the jumbogram it released
        assertSpinsFor(IdleSpin.TRANSFER_SPIN_NS, "the next ACK may be tens of µs away; a transfer's spin is short");
        // The next idle stretch is judged on its own datagrams: after small ones, the whole spin.
        assertEquals(1, strategy(spin, 1, false));
        spin.written(60);
        assertEquals(SelectStrategy.CONTINUE, strategy(spin, 0, false));
        now += IdleSpin.TRANSFER_SPIN_NS;
        assertEquals(SelectStrategy.CONTINUE, strategy(spin, 0, false));
    }

    @Test
    void theSmallLimitsAreInclusive() throws Exception {
        assertEquals(SPIN_NS, spinAfter(IdleSpin.SMALL_READ_BYTES, IdleSpin.SMALL_WRITE_BYTES), "both at the limit");
        assertEquals(IdleSpin.TRANSFER_SPIN_NS, spinAfter(60, IdleSpin.SMALL_WRITE_BYTES + 1), "one byte more written");
        assertEquals(IdleSpin.TRANSFER_SPIN_NS, spinAfter(IdleSpin.SMALL_READ_BYTES + 1, 60), "one byte more read");
    }

    /** Runs one exchange of the given largest datagrams on a fresh loop, then reports how long it spun, ns. */
    private long spinAfter(int readBytes, int writtenBytes) throws Exception {
        IdleSpin s = new IdleSpin(SPIN_NS, () -> now, yields::incrementAndGet);
        strategy(s, 1, false);
        s.read(readBytes);
        s.written(writtenBytes);
        long start = now;
        while (strategy(s, 0, false) == SelectStrategy.CONTINUE) {
            now += 1_000;
        }
        return now - start;
    }

    @Test
    void aReceiverOfOpenAfsJumbogramsSpinsTheWholeSpinOneOfLargerDatagramsTheShortOne() throws Exception {
        strategy(spin, 1, false);
        spin.read(5_688);     // a 4-packet jumbogram of 1,412-byte packets, as OpenAFS sends
        spin.written(60);     // its ACK
        assertEquals(SelectStrategy.CONTINUE, strategy(spin, 0, false), "the sender's next jumbogram is near");
        now += IdleSpin.TRANSFER_SPIN_NS;
        assertEquals(SelectStrategy.CONTINUE, strategy(spin, 0, false));
        assertEquals(1, strategy(spin, 1, false));
        spin.read(IdleSpin.SMALL_READ_BYTES + 1);    // a larger jumbogram, as between rx4j peers
        spin.written(60);
        assertEquals(SelectStrategy.CONTINUE, strategy(spin, 0, false));
        now += IdleSpin.TRANSFER_SPIN_NS;
        assertEquals(SelectStrategy.SELECT, strategy(spin, 0, false));
    }

    @Test
    void theTransferSpinIsNeverLongerThanTheSpin() throws Exception {
        IdleSpin shortSpin = new IdleSpin(IdleSpin.TRANSFER_SPIN_NS / 4, () -> now, yields::incrementAndGet);
        strategy(shortSpin, 1, false);
        shortSpin.written(IdleSpin.SMALL_READ_BYTES + 1);
        assertEquals(SelectStrategy.CONTINUE, strategy(shortSpin, 0, false));
        now += IdleSpin.TRANSFER_SPIN_NS / 4;
        assertEquals(SelectStrategy.SELECT, strategy(shortSpin, 0, false));
    }

    @Test
    void aTaskDuringASpinEndsItAndTheNextStretchIsJudgedOnItsOwn() throws Exception {
        strategy(spin, 1, false);
        spin.written(60);
        assertEquals(SelectStrategy.CONTINUE, strategy(spin, 0, false));
        assertEquals(0, strategy(spin, 0, true), "a task (a timer's ACK, say) runs at once");
        assertEquals(SelectStrategy.SELECT, strategy(spin, 0, false), "nothing moved since the spin began: block");
    }

    @Test
    void aTaskOrTimerTickWithoutDatagramsDoesNotSpin() throws Exception {
        assertEquals(0, strategy(spin, 0, true), "queued tasks run");
        assertEquals(SelectStrategy.SELECT, strategy(spin, 0, false));
    }

    @Test
    void withTheSpinOffTheLoopWaitsAsNettysDefaultStrategy() throws Exception {
        IdleSpin off = new IdleSpin(0, () -> now, yields::incrementAndGet);
        off.read(60);
        assertEquals(SelectStrategy.SELECT, strategy(off, 0, false));
        assertEquals(3, strategy(off, 3, true), "with tasks queued it polls without blocking");
        assertEquals(0, yields.get());
    }

    @Test
    void theDecoderReportsTheSizeOfEachDatagramRead() {
        List<Integer> sizes = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new DatagramDecoder(sizes::add));
        InetSocketAddress from = new InetSocketAddress("127.0.0.1", 7000);
        ch.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(new byte[5]), from, from));    // not Rx: dropped
        ch.writeInbound(new DatagramPacket(Unpooled.wrappedBuffer(new byte[1500]), from, from));
        assertEquals(List.of(5, 1500), sizes);
        ch.finishAndReleaseAll();
    }

    @Test
    void theSpinIsBoundedInTheConfiguration() {
        assertEquals(0, RxConfig.defaults().socketBuffers().idleSpinNs(), "the library never spins by default");
        assertEquals(SocketBuffers.MAX_IDLE_SPIN_NS,
                RxConfig.builder().idleSpinNs(SocketBuffers.MAX_IDLE_SPIN_NS).build().socketBuffers().idleSpinNs());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RxConfig.builder().idleSpinNs(SocketBuffers.MAX_IDLE_SPIN_NS + 1));
        assertEquals("idleSpinNs must be 0..10000000 ns: 10000001 ns", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new IdleSpin(-1));
    }
}
