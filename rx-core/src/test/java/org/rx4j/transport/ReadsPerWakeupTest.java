// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.RecvByteBufAllocator.ExtendedHandle;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.UncheckedBooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.testing.LeakCheckExtension;

/**
 * How many datagrams one wake-up reads (docs/transport.md "Reads per wake-up"): the receive allocator's handle
 * driven as Netty's epoll datagram loop drives it, gated by what the loop last wrote.
 */
@ExtendWith(LeakCheckExtension.class)
class ReadsPerWakeupTest {
    private static final int DATA_DATAGRAM = 5688;    // an OpenAFS-sized jumbogram: 4 packets of 1,412 bytes
    private static final int ACK_DATAGRAM = 74;

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final ChannelConfig config = channel.config();
    private final ReadsPerWakeup reads = new ReadsPerWakeup();
    private final ReusingRecvByteBufAllocator buffers = new ReusingRecvByteBufAllocator(2048, 4, reads::readOn);
    @SuppressWarnings("deprecation") // Netty's own read loops hold the handle as ExtendedHandle too
    private final ExtendedHandle handle = (ExtendedHandle) buffers.newHandle();

    @AfterEach
    void release() {
        buffers.releaseAll();
        channel.finishAndReleaseAll();
    }

    /** Read calls the last {@link #wakeUp} made, the empty one (EAGAIN) included. */
    private int readCalls;
    /** When above 0, each datagram a {@link #wakeUp} reads is reported to {@link ReadsPerWakeup#read} at this size. */
    private int reportedBytes;

    /**
     * One wake-up as Netty's epoll datagram loop runs it: read while the handle says so, {@code waiting} datagrams in
     * the socket, {@code perRead} of them per read call (1: recvmsg; 8: a recvmmsg batch), then an empty read (EAGAIN)
     * if the handle asks for one more.
     *
     * @return datagrams read
     */
    private int wakeUp(int waiting, int perRead) {
        handle.reset(config);
        int read = 0;
        readCalls = 0;
        do {
            ByteBuf b = handle.allocate(UnpooledByteBufAllocator.DEFAULT);
            b.release(); // the decoder's part: done with the datagrams
            readCalls++;
            if (read == waiting) {
                handle.lastBytesRead(-1); // EAGAIN
                break;
            }
            int n = Math.min(perRead, waiting - read);
            for (int i = 0; i < n && reportedBytes > 0; i++) {
                reads.read(reportedBytes); // the decoder's report of each datagram, before Netty asks to go on
            }
            handle.lastBytesRead(100 * n);
            handle.incMessagesRead(n); // Netty counts each datagram of a read
            read += n;
        } while (handle.continueReading(UncheckedBooleanSupplier.TRUE_SUPPLIER));
        handle.readComplete();
        return read;
    }

    private int wakeUp(int waiting) {
        return wakeUp(waiting, 1);
    }

    @Test
    void aLoopThatHasWrittenNothingReadsOneDatagramPerWakeUp() {
        assertEquals(1, wakeUp(5));
        assertEquals(1, wakeUp(5));
    }

    @Test
    void aLoopSendingATransferReadsItsQueueUpToTheLimit() {
        reads.written(DATA_DATAGRAM);
        assertEquals(ReadsPerWakeup.MAX_DATAGRAMS, wakeUp(100), "queued ACKs: read up to the limit");
        assertEquals(ReadsPerWakeup.MAX_DATAGRAMS, readCalls, "one recvmsg each");
        assertEquals(3, wakeUp(3), "read until the socket is empty");
        assertEquals(4, readCalls, "three reads and the empty one");
        assertEquals(1, wakeUp(1), "one datagram, then the empty read");
        assertEquals(2, readCalls);
    }

    @Test
    void theLimitCountsDatagramsNotReadCalls() {
        reads.written(DATA_DATAGRAM);
        assertEquals(ReadsPerWakeup.MAX_DATAGRAMS, wakeUp(100, 8), "two recvmmsg batches of 8");
        assertEquals(2, readCalls);
    }

    @Test
    void shortMessagesAndAcksKeepOneReadPerWakeUp() {
        reads.written(DATA_DATAGRAM);
        reads.written(ACK_DATAGRAM);
        assertEquals(1, wakeUp(5), "the last write was an ACK: this loop receives, or makes short calls");
        assertEquals(1, readCalls, "and makes no read that finds nothing");
        reads.written(IdleSpin.SMALL_WRITE_BYTES);
        assertEquals(1, wakeUp(5), "a message of the short-call limit is not a transfer's DATA");
        reads.written(IdleSpin.SMALL_WRITE_BYTES + 1);
        assertEquals(5, wakeUp(5), "one byte more is");
    }

    @Test
    void aDataDatagramReadEndsReadingOnUntilTheNextDataWritten() {
        reads.written(DATA_DATAGRAM);
        reads.read(ACK_DATAGRAM);
        assertTrue(reads.readOn(), "ACKs read: still a sender");
        reads.read(DATA_DATAGRAM);
        assertFalse(reads.readOn(), "this loop receives a transfer too: its ACKs must not wait for a long burst");
        assertEquals(1, wakeUp(5));
        reads.written(DATA_DATAGRAM);
        assertTrue(reads.readOn());
    }

    @Test
    void aDatagramReadsOnWhileItsSenderLikelyHasMore() {
        boolean[] more = {true};
        reads.readOnWhenSenderHasMore(() -> more[0]);
        reads.read(ACK_DATAGRAM);
        assertTrue(reads.readOn(), "a short reply from an OpenAFS peer with other calls in progress: read again");
        more[0] = false;
        assertFalse(reads.readOn(), "the engine says no more is on its way (one call, or an rx4j peer)");
        reads.read(DATA_DATAGRAM);
        assertFalse(reads.readOn(), "a DATA datagram within a reply's first window");
        more[0] = true;
        assertTrue(reads.readOn(), "a DATA datagram past the first window of an OpenAFS server's reply: its next ones are in flight");
    }

    @Test
    void aWindowFullSentAsSeparateDatagramsIsReadInOneWakeUp() {
        boolean[] more = {true};
        reads.readOnWhenSenderHasMore(() -> more[0]);
        reads.written(ACK_DATAGRAM); // a receiving loop: it last wrote an ACK
        reportedBytes = DATA_DATAGRAM;
        assertEquals(8, wakeUp(8), "a 32-packet window of OpenAFS's 4-packet jumbograms, read together");
        assertEquals(9, readCalls, "eight reads and the empty one");
        more[0] = false;
        assertEquals(1, wakeUp(8), "the reply's last packet: one read, no read that finds nothing");
        assertEquals(1, readCalls);
    }

    @Test
    void repliesQueuedBehindAShortOneAreReadInTheSameWakeUp() {
        boolean[] more = {true};
        reads.readOnWhenSenderHasMore(() -> more[0]);
        reportedBytes = ACK_DATAGRAM;
        assertEquals(5, wakeUp(5), "eight chains' replies from OpenAFS's server: all that is queued");
        assertEquals(6, readCalls, "five reads and the empty one");
        assertEquals(ReadsPerWakeup.MAX_DATAGRAMS, wakeUp(100), "at most the limit");
        more[0] = false;
        assertEquals(1, wakeUp(5), "one call in progress: one read, no read that finds nothing");
        assertEquals(1, readCalls);
    }

    @Test
    void aLoopWithoutTheEnginesViewKeepsOneReadPerWakeUpWhenReceiving() {
        reads.read(ACK_DATAGRAM);
        assertFalse(reads.readOn(), "until the engine is wired in, short datagrams never read on");
        reads.read(DATA_DATAGRAM);
        assertFalse(reads.readOn(), "nor DATA datagrams");
        assertEquals(1, wakeUp(5));
    }
}
