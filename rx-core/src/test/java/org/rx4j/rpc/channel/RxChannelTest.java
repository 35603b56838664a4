// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.rx4j.rpc.RxCall;
import org.rx4j.rpc.RxCallOptions;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.RxService;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrWriter;
import org.rx4j.security.RxNullSecurityClass;
import org.rx4j.testing.LeakCheckExtension;
import org.rx4j.testing.ManualClock;

/**
 * {@link RxChannel} over loopback with several rx4j servers (docs/embedding.md "Channels"): each server answers WHO
 * with its own number, so a test sees where every call went; one server is killed (its port closed: ICMP port
 * unreachable, −1 at once) or refuses every call with RX_CALL_BUSY (−10). Ejection times and the retry budget's
 * window run on a {@link ManualClock}, never on sleeps.
 */
@Timeout(60)
@ExtendWith(LeakCheckExtension.class)
class RxChannelTest {
    private static final int SERVICE = 4244;
    private static final int OP_WHO = 1;
    private static final int OP_HOLD = 2;
    private static final Duration BASE = Duration.ofSeconds(30);

    private final List<AutoCloseable> open = new ArrayList<>();
    private final ManualClock clock = new ManualClock();
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch heldCallCancelled = new CountDownLatch(1);
    private final AtomicInteger heldCancelCode = new AtomicInteger();

    @AfterEach
    void closeAll() throws Exception {
        release.countDown();
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T keep(T c) {
        open.add(c);
        return c;
    }

    /** Serves WHO (answers {@code number}, or aborts with {@code refuseCode} when not 0) and HOLD (waits, answers). */
    private RxEndpoint server(int number, int refuseCode, InetSocketAddress bind) throws IOException {
        RxService service = RxService.builder(SERVICE).blocking(OP_WHO, (call, opcode) -> {
            if (refuseCode != 0) {
                throw RxException.local(refuseCode, "refusing");
            }
            new XdrWriter(call.output(), XdrSide.SERVER).writeInt(number);
        }).blocking(OP_HOLD, (call, opcode) -> {
            call.context().onCancel(() -> {
                heldCancelCode.set(call.context().cancelCode());
                heldCallCancelled.countDown();
            });
            held.countDown();
            try {
                assertTrue(release.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            new XdrWriter(call.output(), XdrSide.SERVER).writeInt(number);
        }).build();
        return keep(RxEndpoint.builder().bind(bind).workers(2, 8).service(service).open());
    }

    private RxEndpoint server(int number) throws IOException {
        return server(number, 0, RxConnectionPoolTest.loopback());
    }

    /** @return a loopback address where nothing listens any more (a server opened there and closed) */
    private static InetSocketAddress killedServer() throws IOException {
        try (RxEndpoint gone = RxEndpoint.builder().bind(RxConnectionPoolTest.loopback()).open()) {
            return gone.localAddress();
        }
    }

    private RxChannel channel(List<InetSocketAddress> servers, RxChannelConfig.Builder config) throws IOException {
        RxEndpoint client = keep(RxEndpoint.builder().bind(RxConnectionPoolTest.loopback()).open());
        return keep(RxChannel.open(client, servers, SERVICE, RxNullSecurityClass.INSTANCE,
                config.ticker(clock).build()));
    }

    private static int who(RxChannel channel) throws IOException {
        return channel.call(OP_WHO, w -> { }, XdrReader::readInt);
    }

    private static RxChannelConfig.Builder repeatingWho() {
        return RxChannelConfig.builder().retry(RxRetryPolicy.idempotent(OP_WHO).maxAttempts(3).noBackoff());
    }

    @Test
    void roundRobinTakesEachServerInTurn() throws Exception {
        RxChannel channel = channel(List.of(server(0).localAddress(), server(1).localAddress(),
                server(2).localAddress()), RxChannelConfig.builder());
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            answers.add(who(channel));
        }
        assertEquals(List.of(0, 1, 2, 0, 1, 2, 0, 1, 2), answers);
        for (RxChannel.AddressStats a : channel.stats().addresses()) {
            assertEquals(3, a.attempts(), a.toString());
            assertEquals(0, a.outstanding(), a.toString());
        }
        assertEquals(9, channel.stats().calls());
    }

    @Test
    void leastOutstandingAvoidsTheServerWithACallRunning() throws Exception {
        RxChannel channel = channel(List.of(server(0).localAddress(), server(1).localAddress()),
                RxChannelConfig.builder().balancing(RxChannelConfig.Balancing.LEAST_OUTSTANDING));
        CompletableFuture<Integer> holding = channel.callAsync(OP_HOLD, w -> { }, XdrReader::readInt);
        assertTrue(held.await(30, TimeUnit.SECONDS));
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            answers.add(who(channel));
        }
        assertEquals(List.of(1, 1, 1, 1), answers, "server 0 has a call outstanding");
        assertEquals(1, channel.stats().addresses().get(0).outstanding());
        release.countDown();
        assertEquals(0, holding.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aKilledServerIsEjectedThenReprobedWithDoublingEjections() throws Exception {
        InetSocketAddress dead = killedServer();
        RxChannel channel = channel(List.of(dead, server(1).localAddress(), server(2).localAddress()),
                repeatingWho().consecutiveFailures(2).ejection(BASE, Duration.ofSeconds(300)));
        for (int i = 0; i < 12; i++) {
            int answer = who(channel);   // every call answered: a failed attempt is repeated elsewhere
            assertTrue(answer == 1 || answer == 2, "answer " + answer);
        }
        RxChannel.AddressStats deadStats = channel.stats().addresses().get(0);
        assertEquals(RxChannel.AddressState.EJECTED, deadStats.state());
        assertEquals(2, deadStats.attempts(), "two failures eject it, then it gets no attempt");
        assertEquals(2, deadStats.failures());
        assertEquals(1, deadStats.ejections());

        clock.advance(BASE.minusNanos(1));
        who(channel);
        assertEquals(2, channel.stats().addresses().get(0).attempts(), "still ejected");
        clock.advance(Duration.ofNanos(1));
        who(channel);                    // the re-probe: fails, repeated elsewhere; ejected for 60 s now
        deadStats = channel.stats().addresses().get(0);
        assertEquals(3, deadStats.attempts());
        assertEquals(2, deadStats.ejections());
        assertEquals(RxChannel.AddressState.EJECTED, deadStats.state());

        clock.advance(BASE);
        who(channel);
        assertEquals(3, channel.stats().addresses().get(0).attempts(), "the second ejection lasts twice as long");
        clock.advance(BASE);
        server(0, 0, dead);              // a server listens there again
        assertEquals(0, who(channel), "the re-probe reaches it and is answered");
        assertEquals(RxChannel.AddressState.SERVING, channel.stats().addresses().get(0).state());
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            answers.add(who(channel));
        }
        assertTrue(answers.contains(0), "back in the rotation: " + answers);
        assertEquals(3, channel.stats().retries(), "one repeat per failed attempt on the dead address");
    }

    @Test
    void aRefusingServerIsEjectedAndNonIdempotentCallsAreNotRepeated() throws Exception {
        RxChannel channel = channel(List.of(server(0, RxCodes.RX_CALL_BUSY, RxConnectionPoolTest.loopback())
                .localAddress(), server(1).localAddress()), RxChannelConfig.builder().consecutiveFailures(2));
        RxException busy = assertThrows(RxException.class, () -> who(channel));
        assertEquals(RxCodes.RX_CALL_BUSY, busy.code());
        assertTrue(busy.remote());
        assertEquals(0, busy.getSuppressed().length, "not idempotent: never repeated");
        assertEquals(1, who(channel));
        assertThrows(RxException.class, () -> who(channel));   // the second failure in a row ejects it
        for (int i = 0; i < 4; i++) {
            assertEquals(1, who(channel));
        }
        RxChannel.AddressStats refusing = channel.stats().addresses().get(0);
        assertEquals(RxChannel.AddressState.EJECTED, refusing.state());
        assertEquals(2, refusing.attempts());
        assertEquals(0, channel.stats().retries());
    }

    @Test
    void atMostTheConfiguredShareOfAddressesIsEjected() throws Exception {
        RxChannel channel = channel(List.of(killedServer(), killedServer(), server(2).localAddress()),
                repeatingWho().consecutiveFailures(1).maxEjectedPercent(34));
        for (int i = 0; i < 6; i++) {
            assertEquals(2, who(channel));
        }
        List<RxChannel.AddressStats> stats = channel.stats().addresses();
        assertEquals(1, stats.stream().filter(a -> a.state() == RxChannel.AddressState.EJECTED).count(),
                "34 % of 3 addresses: one");
    }

    @Test
    void theRetryBudgetBoundsRepeatsAcrossTheChannelAndRefillsAsItsWindowPasses() throws Exception {
        RxChannel channel = channel(List.of(server(0, RxCodes.RX_CALL_BUSY, RxConnectionPoolTest.loopback())
                        .localAddress(), server(1, RxCodes.RX_CALL_BUSY, RxConnectionPoolTest.loopback())
                        .localAddress()),
                repeatingWho().maxEjectedPercent(0).budget(RxRetryBudget.of(0, 1, Duration.ofSeconds(2))));
        RxException first = assertThrows(RxException.class, () -> who(channel));
        assertEquals(2, first.getSuppressed().length, "the floor's 2 repeats per 2 s window: 3 attempts");
        RxException second = assertThrows(RxException.class, () -> who(channel));
        assertEquals(0, second.getSuppressed().length, "budget spent: no repeat");
        assertEquals(2, channel.stats().retries());
        assertEquals(1, channel.stats().retriesRefused());

        clock.advance(Duration.ofSeconds(2));
        RxException third = assertThrows(RxException.class, () -> who(channel));
        assertEquals(2, third.getSuppressed().length, "the window passed: the floor is back");
        assertEquals(4, channel.stats().retries());
    }

    @Test
    void aCancelledCallEndsItsAttemptAndCountsNoFailure() throws Exception {
        RxChannel channel = channel(List.of(server(0).localAddress()), repeatingWho().consecutiveFailures(1));
        CompletableFuture<Integer> holding = channel.callAsync(OP_HOLD, w -> { }, XdrReader::readInt);
        assertTrue(held.await(30, TimeUnit.SECONDS));
        holding.cancel(false);   // cancels the pool's attempt at once, on this thread: its end is recorded now
        RxChannel.AddressStats only = channel.stats().addresses().get(0);
        assertEquals(0, only.outstanding());
        assertEquals(RxChannel.AddressState.SERVING, only.state(), "a cancel says nothing about the server");
        assertEquals(0, only.failures());
        assertEquals(0, who(channel));
        assertEquals(0, channel.stats().retries(), "a cancel is never repeated");
    }

    @Test
    void orTimeoutOnTheChannelsFutureAbortsTheAttemptWithMinus3() throws Exception {
        RxChannel channel = channel(List.of(server(0).localAddress()), repeatingWho().consecutiveFailures(1));
        CompletableFuture<Integer> holding = channel.callAsync(OP_HOLD, w -> { }, XdrReader::readInt);
        assertTrue(held.await(30, TimeUnit.SECONDS));
        holding.completeExceptionally(new TimeoutException());   // what orTimeout does when its time is up
        assertTrue(heldCallCancelled.await(30, TimeUnit.SECONDS), "the server's handler sees the abort");
        assertEquals(RxCodes.RX_CALL_TIMEOUT, heldCancelCode.get());
        RxChannel.AddressStats only = channel.stats().addresses().get(0);
        assertEquals(0, only.failures(), "the caller's deadline says nothing about the server");
        assertEquals(RxChannel.AddressState.SERVING, only.state());
    }

    @Test
    void aClosedChannelRefusesCalls() throws Exception {
        RxChannel channel = channel(List.of(server(0).localAddress()), RxChannelConfig.builder());
        channel.close();
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> channel.callAsync(OP_WHO, w -> { }, XdrReader::readInt).get(30, TimeUnit.SECONDS));
        RxException rx = (RxException) e.getCause();
        assertEquals(RxCodes.RX_INVALID_OPERATION, rx.code());
        assertEquals(RxException.Reason.CONNECTION_CLOSED, rx.reason());
        assertFalse(rx.remote());
    }

    @Test
    void streamingCallsGoThroughTheBalancingToo() throws Exception {
        RxChannel channel = channel(List.of(server(0).localAddress(), server(1).localAddress()),
                RxChannelConfig.builder());
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            try (RxCall call = channel.newCall(RxCallOptions.DEFAULT.withOpcode(OP_WHO))) {
                answers.add(new XdrReader(call.input(), XdrSide.CLIENT).readInt());
            }
        }
        assertEquals(List.of(0, 1), answers);
        AtomicInteger outstanding = new AtomicInteger();
        channel.stats().addresses().forEach(a -> outstanding.addAndGet(a.outstanding()));
        assertEquals(0, outstanding.get());
    }
}
