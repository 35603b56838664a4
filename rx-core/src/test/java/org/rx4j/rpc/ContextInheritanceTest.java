// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rx4j.rpc.channel.RxChannel;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.runtime.HandlerFailures;
import org.rx4j.rpc.xdr.XdrReader;
import org.rx4j.rpc.xdr.XdrSide;
import org.rx4j.rpc.xdr.XdrWriter;
import org.rx4j.testing.LeakCheckExtension;

/**
 * A handler's outgoing calls inherit its deadline and its end (docs/embedding.md "Context that flows"), in every call
 * form, over loopback: a front service whose handlers call a back service that holds each call until it is cancelled
 * (recording the code) or released by the test. Nothing is timed: a deadline shows as the −3 both ends record, a
 * cancel as the −6; without inheritance the back service's hold ends by its own 20 s bound with code 99 instead.
 */
@Timeout(120)
@ExtendWith(LeakCheckExtension.class)
class ContextInheritanceTest {
    static final int BACK = 4310;
    static final int FRONT = 4311;
    /** Back: holds until cancelled or released; replies 7 when released. */
    static final int OP_HOLD = 1;
    /** Front, blocking: sets its call's deadline to 200 ms, then calls HOLD in the form its argument names. */
    static final int OP_DEADLINE = 1;
    /** Front, blocking: calls HOLD in the form its argument names, without a deadline. */
    static final int OP_PLAIN = 2;
    /** Front, async: calls HOLD async in the form its argument names within a 200 ms narrower context. */
    static final int OP_ASYNC_DEADLINE = 3;
    /** Front, async: calls HOLD async in the form its argument names, without a deadline. */
    static final int OP_ASYNC_PLAIN = 4;
    /** Front, blocking: one inheriting and one detached async HOLD; records how each ended. */
    static final int OP_DETACHED = 5;
    /** Front, async: starts an async HOLD from a continuation on another thread, carried by a wrapped executor. */
    static final int OP_ASYNC_CONTINUATION = 6;
    /** Code the back service aborts with when nobody ended its hold (no inheritance). */
    static final int NOT_ENDED = 99;

    final BlockingQueue<String> backSaw = new LinkedBlockingQueue<>();
    final BlockingQueue<String> frontSaw = new LinkedBlockingQueue<>();
    final BlockingQueue<String> backStarted = new LinkedBlockingQueue<>();
    /** Completed by the test to release every hold. */
    final CompletableFuture<Void> release = new CompletableFuture<>();
    RxEndpoint back;
    RxEndpoint front;
    RxEndpoint client;
    RxConnection toBack;
    RxConnectionPool poolToBack;
    RxChannel channelToBack;

    @BeforeEach
    void start() throws Exception {
        back = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .service(RxService.builder(BACK).blocking(OP_HOLD, (call, op) -> {
                    CompletableFuture<Void> woken = new CompletableFuture<>();
                    call.context().onCancel(() -> woken.complete(null));
                    release.thenRun(() -> woken.complete(null));
                    backStarted.add("started");
                    boolean woke = woken.completeOnTimeout(null, 20, TimeUnit.SECONDS).thenApply(v -> true)
                            .get() && (call.context().isCancelled() || release.isDone());
                    if (call.context().isCancelled()) {
                        backSaw.add("cancelled " + call.context().cancelCode());
                        return;
                    }
                    if (!woke) {
                        backSaw.add("not ended");
                        throw RxException.local(NOT_ENDED, "nobody ended the hold");
                    }
                    backSaw.add("released");
                    new XdrWriter(call.output(), XdrSide.SERVER).writeInt(7);
                }).build())
                .open();
        front = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                .service(RxService.builder(FRONT)
                        .blocking(OP_DEADLINE, (call, op) -> {
                            int form = new XdrReader(call.input(), XdrSide.SERVER).readInt();
                            call.setDeadline(Duration.ofMillis(200));
                            frontSaw.add(outcome(() -> blockingForm(form)));
                        })
                        .blocking(OP_PLAIN, (call, op) -> {
                            int form = new XdrReader(call.input(), XdrSide.SERVER).readInt();
                            frontSaw.add(outcome(() -> blockingForm(form)));
                        })
                        .async(OP_ASYNC_DEADLINE, req -> {
                            int form = req.xdr().readInt();
                            RxContext narrower = RxContext.current().withTimeout(Duration.ofMillis(200));
                            CompletableFuture<Integer> f = narrower.call(() -> asyncForm(form));
                            return recorded(f);
                        })
                        .async(OP_ASYNC_PLAIN, req -> recorded(asyncForm(req.xdr().readInt())))
                        .async(OP_ASYNC_CONTINUATION, req -> {
                            int form = req.xdr().readInt();
                            Executor carried = RxContext.current().wrap(ForkJoinPool.commonPool());
                            return recorded(CompletableFuture.supplyAsync(() -> asyncForm(form), carried)
                                    .thenCompose(f -> f));
                        })
                        .blocking(OP_DETACHED, (call, op) -> {
                            CompletableFuture<Integer> inheriting = toBack.callAsync(OP_HOLD, w -> { },
                                    XdrReader::readInt);
                            CompletableFuture<Integer> detached = toBack.callAsync(OP_HOLD, w -> { },
                                    XdrReader::readInt, RxCallOptions.DEFAULT.detached());
                            frontSaw.add("inheriting " + outcome(() -> inheriting.get()));
                            frontSaw.add("detached " + outcome(() -> detached.get()));
                        })
                        .build())
                .open();
        client = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0)).open();
        toBack = front.connect(back.localAddress(), BACK);
        poolToBack = RxConnectionPool.open(front, back.localAddress(), BACK);
        channelToBack = RxChannel.open(front, List.of(back.localAddress()), BACK);
    }

    @AfterEach
    void stop() {
        release.complete(null);
        channelToBack.close();
        poolToBack.close();
        client.close();
        front.close();
        back.close();
    }

    private interface Outgoing {
        Object call() throws Exception;
    }

    /** @return "value V" or "code C" (the RxException's code, unwrapped from an ExecutionException) */
    private static String outcome(Outgoing o) {
        try {
            return "value " + o.call();
        } catch (ExecutionException e) {
            return e.getCause() instanceof RxException rx ? "code " + rx.code() : e.getCause().toString();
        } catch (RxException e) {
            return "code " + e.code();
        } catch (Exception e) {
            return e.toString();
        }
    }

    /** One HOLD call, blocking the handler, in each client form: connection, pool, channel, stream and async. */
    private Object blockingForm(int form) throws Exception {
        return switch (form) {
            case 0 -> toBack.call(OP_HOLD, w -> { }, XdrReader::readInt);
            case 1 -> toBack.callAsync(OP_HOLD, w -> { }, XdrReader::readInt).get();
            case 2 -> {
                try (RxCall call = toBack.newCall(RxCallOptions.DEFAULT.withOpcode(OP_HOLD))) {
                    yield new XdrReader(call.input(), XdrSide.CLIENT).readInt();
                }
            }
            case 3 -> poolToBack.call(OP_HOLD, w -> { }, XdrReader::readInt);
            case 4 -> poolToBack.callAsync(OP_HOLD, w -> { }, XdrReader::readInt).get();
            case 5 -> channelToBack.call(OP_HOLD, w -> { }, XdrReader::readInt);
            case 6 -> toBack.callAsync(new byte[] {0, 0, 0, OP_HOLD}).get().length;
            default -> throw new IllegalArgumentException("form " + form);
        };
    }

    /** One HOLD call started from an async handler: connection, pool, channel and raw. */
    private CompletableFuture<Integer> asyncForm(int form) {
        return switch (form) {
            case 0 -> toBack.callAsync(OP_HOLD, w -> { }, XdrReader::readInt);
            case 1 -> poolToBack.callAsync(OP_HOLD, w -> { }, XdrReader::readInt);
            case 2 -> channelToBack.callAsync(OP_HOLD, w -> { }, XdrReader::readInt);
            case 3 -> toBack.callAsync(new byte[] {0, 0, 0, OP_HOLD}).thenApply(b -> b.length);
            default -> throw new IllegalArgumentException("form " + form);
        };
    }

    /** Records how the outgoing call ended and replies with nothing once it has. */
    private CompletableFuture<byte[]> recorded(CompletableFuture<Integer> outgoing) {
        return outgoing.handle((v, t) -> {
            frontSaw.add(outcome(() -> {
                if (t != null) {
                    throw new ExecutionException(HandlerFailures.unwrap(t));
                }
                return v;
            }));
            return new byte[0];
        });
    }

    /** Starts a call to the front service with {@code op} and the form as its argument. */
    private RxCall callFront(int op, int form) throws IOException {
        RxCall call = client.connect(front.localAddress(), FRONT).newCall(RxCallOptions.DEFAULT.withOpcode(op));
        new XdrWriter(call.output(), XdrSide.CLIENT).writeInt(form);
        call.output().close();
        return call;
    }

    private static String next(BlockingQueue<String> q) throws InterruptedException {
        String s = q.poll(60, TimeUnit.SECONDS);
        assertNotNull(s, "nothing recorded");
        return s;
    }

    @ParameterizedTest(name = "form {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6})
    void aBlockingHandlersCallGetsItsRemainingDeadline(int form) throws Exception {
        try (RxCall call = callFront(OP_DEADLINE, form)) {
            RxException inbound = assertThrows(RxException.class, call::awaitCompletion);
            assertEquals(RxCodes.RX_CALL_TIMEOUT, inbound.code(), "the front call's own deadline");
        }
        assertEquals("code " + RxCodes.RX_CALL_TIMEOUT, next(frontSaw), "the outgoing call's end");
        assertEquals("cancelled " + RxCodes.RX_CALL_TIMEOUT, next(backSaw), "what the back service saw");
    }

    @ParameterizedTest(name = "form {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void anAsyncHandlersCallGetsItsContextsDeadline(int form) throws Exception {
        try (RxCall call = callFront(OP_ASYNC_DEADLINE, form)) {
            call.awaitCompletion(); // the handler replies once its outgoing call ended
        }
        assertEquals("code " + RxCodes.RX_CALL_TIMEOUT, next(frontSaw), "the outgoing call's end");
        assertEquals("cancelled " + RxCodes.RX_CALL_TIMEOUT, next(backSaw), "what the back service saw");
    }

    @ParameterizedTest(name = "form {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6})
    void cancellingABlockingHandlersCallCancelsItsCall(int form) throws Exception {
        try (RxCall call = callFront(OP_PLAIN, form)) {
            assertEquals("started", next(backStarted));
            call.cancel();
        } catch (RxException e) {
            assertEquals(RxCodes.RX_USER_ABORT, e.code());
        }
        assertEquals("code " + RxCodes.RX_USER_ABORT, next(frontSaw), "the outgoing call's end");
        assertEquals("cancelled " + RxCodes.RX_USER_ABORT, next(backSaw), "what the back service saw");
    }

    @ParameterizedTest(name = "form {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void cancellingAnAsyncHandlersCallCancelsItsCall(int form) throws Exception {
        try (RxCall call = callFront(OP_ASYNC_PLAIN, form)) {
            assertEquals("started", next(backStarted));
            call.cancel();
        } catch (RxException e) {
            assertEquals(RxCodes.RX_USER_ABORT, e.code());
        }
        assertEquals("code " + RxCodes.RX_USER_ABORT, next(frontSaw), "the outgoing call's end");
        assertEquals("cancelled " + RxCodes.RX_USER_ABORT, next(backSaw), "what the back service saw");
    }

    @ParameterizedTest(name = "form {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void aWrappedExecutorCarriesTheContextToAContinuationsCall(int form) throws Exception {
        try (RxCall call = callFront(OP_ASYNC_CONTINUATION, form)) {
            assertEquals("started", next(backStarted));
            call.cancel();
        } catch (RxException e) {
            assertEquals(RxCodes.RX_USER_ABORT, e.code());
        }
        assertEquals("code " + RxCodes.RX_USER_ABORT, next(frontSaw), "the outgoing call's end");
        assertEquals("cancelled " + RxCodes.RX_USER_ABORT, next(backSaw), "what the back service saw");
    }

    /**
     * A server whose hard dead time is 200 ms gives its async handlers' calls the rest of it, as their context's
     * deadline and as the end of the handler's call: the calls go out from another endpoint without one.
     */
    @ParameterizedTest(name = "form {0}")
    @ValueSource(ints = {0, 1, 2})
    void anAsyncHandlersCallGetsTheRestOfTheServersHardDeadTime(int form) throws Exception {
        RxConnection out = client.connect(back.localAddress(), BACK);
        try (RxConnectionPool outPool = RxConnectionPool.open(client, back.localAddress(), BACK);
             RxEndpoint hard = RxEndpoint.builder().bind(new InetSocketAddress("127.0.0.1", 0))
                     .config(org.rx4j.config.RxConfig.builder().hardDeadTime(Duration.ofMillis(200)).build())
                     .service(RxService.builder(FRONT).async(OP_ASYNC_PLAIN, req -> {
                         Duration left = RxContext.current().timeRemaining().orElse(Duration.ofDays(1));
                         frontSaw.add("within the hard dead time " + (left.compareTo(Duration.ofMillis(200)) <= 0));
                         return recorded(switch (form) {
                             case 0 -> out.callAsync(OP_HOLD, w -> { }, XdrReader::readInt);
                             case 1 -> outPool.callAsync(OP_HOLD, w -> { }, XdrReader::readInt);
                             default -> out.callAsync(new byte[] {0, 0, 0, OP_HOLD}).thenApply(b -> b.length);
                         });
                     }).build())
                     .open()) {
            try (RxCall call = client.connect(hard.localAddress(), FRONT)
                    .newCall(RxCallOptions.DEFAULT.withOpcode(OP_ASYNC_PLAIN))) {
                new XdrWriter(call.output(), XdrSide.CLIENT).writeInt(form);
                call.output().close();
                assertEquals("within the hard dead time true", next(frontSaw), "the context's deadline");
                assertEquals("code " + RxCodes.RX_CALL_TIMEOUT, next(frontSaw), "the outgoing call's end");
                assertEquals("cancelled " + RxCodes.RX_CALL_TIMEOUT, next(backSaw), "what the back service saw");
                call.awaitCompletion(); // the handler's empty reply or the hard dead time, whichever came first
            } catch (RxException e) {
                assertEquals(RxCodes.RX_CALL_TIMEOUT, e.code(), "the hard dead time ended the front call");
            }
        }
    }

    @Test
    void aDetachedCallOutlivesTheHandlersCall() throws Exception {
        try (RxCall call = callFront(OP_DETACHED, 0)) {
            assertEquals("started", next(backStarted));
            assertEquals("started", next(backStarted));
            call.cancel();
        } catch (RxException e) {
            assertEquals(RxCodes.RX_USER_ABORT, e.code());
        }
        // The inheriting call is cancelled with the handler's call; only then is the back service released.
        assertEquals("cancelled " + RxCodes.RX_USER_ABORT, next(backSaw));
        assertEquals("inheriting code " + RxCodes.RX_USER_ABORT, next(frontSaw));
        release.complete(null);
        assertEquals("released", next(backSaw), "the detached call was not ended with the handler's");
        assertEquals("detached value 7", next(frontSaw));
    }

    @Test
    void aContextEnteredOutsideAHandlerGivesItsDeadline() throws Exception {
        assertSame(RxContext.ROOT, RxContext.current());
        RxContext ctx = RxContext.current().withTimeout(Duration.ofMillis(200));
        CompletableFuture<Integer> f = ctx.call(() -> {
            assertSame(ctx, RxContext.current());
            return client.connect(back.localAddress(), BACK).callAsync(OP_HOLD, w -> { }, XdrReader::readInt);
        });
        assertSame(RxContext.ROOT, RxContext.current(), "restored after call()");
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        assertEquals(RxCodes.RX_CALL_TIMEOUT, ((RxException) e.getCause()).code());
        assertEquals("cancelled " + RxCodes.RX_CALL_TIMEOUT, next(backSaw));
        assertTrue(ctx.timeRemaining().orElseThrow().isZero(), "past its deadline");
        assertTrue(RxContext.ROOT.timeRemaining().isEmpty());
    }
}
