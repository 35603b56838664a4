// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.rx4j.engine.RxEngine;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;

/**
 * Tells an unknown service from a security class the service does not offer, once a server has answered a call
 * on a connection with a security class (rxkad) with ABORT RX_INVALID_OPERATION (−2) before any CHALLENGE
 * ({@link RxException.Reason#SERVICE_NOT_OFFERED}): OpenAFS sends that same raw ABORT for both, so the packet
 * cannot say which (docs/errors.md "Unknown service or class not offered").
 *
 * <p>The probe asks the same server and service id with rxnull (security index 0) on a connection of its own: one
 * DATA packet of one byte that is not the last, on which no handler can act (an rxgen opcode is four bytes, and a
 * whole-request handler waits for the last packet). A raw ABORT −2 again, with nothing acknowledged, means the server
 * serves the service id with neither class: {@link RxException.Reason#UNKNOWN_SERVICE}, known one round trip after
 * the refusal. Otherwise the probe's call ends at its deadline ({@link #waitNs}, at least 300 ms) with ABORT
 * RX_CALL_TIMEOUT (−3) to the server, so a handler it started sees its call aborted: acknowledged by then (or ended by
 * another ABORT), the server serves the service with rxnull: {@link RxException.Reason#SECURITY_CLASS_NOT_OFFERED};
 * silence leaves it open: {@link RxException.Reason#SERVICE_NOT_OFFERED}. Its connection is left to the engine's
 * idle-connection reaper.
 *
 * <p>One probe per refused engine connection: the calls that meet the refusal while it runs wait for the same
 * verdict, and later ones get it at once. Event loop only.
 */
public final class ServiceProbe {
    /**
     * Shortest wait for the probe's answer, ns: OpenAFS acknowledges a DATA packet that did not ask for an ACK after
     * its soft-ACK delay (100 ms), and the answer needs one round trip more.
     */
    public static final long MIN_WAIT_NS = 300_000_000L;
    /** Longest wait for the probe's answer, ns. */
    public static final long MAX_WAIT_NS = 3_000_000_000L;

    private final Connection refused;
    private final Executor deferred;
    private final List<Consumer<RxException.Reason>> waiting = new ArrayList<>();
    private RxException.Reason verdict;

    private ServiceProbe(Connection refused, Executor deferred) {
        this.refused = refused;
        this.deferred = deferred;
    }

    /**
     * How long a probe waits for the server's answer on {@code refused}'s path: four smoothed round-trip times
     * (RFC 6298) when the peer has been measured, within {@link #MIN_WAIT_NS}..{@link #MAX_WAIT_NS}; else
     * {@link #MIN_WAIT_NS} (a raw ABORT has no RTT sample, and an unmeasured peer's RTO is the 3 s initial one).
     *
     * @param refused the refused connection
     * @return the wait, ns
     */
    static long waitNs(Connection refused) {
        if (refused.peer().rtt().samples() == 0) {
            return MIN_WAIT_NS;
        }
        return Math.max(MIN_WAIT_NS, Math.min(MAX_WAIT_NS, 4 * refused.peer().rtt().srttNs()));
    }

    /**
     * A probe for {@code refused}, not yet started.
     *
     * @param refused the connection whose call met the raw ABORT −2
     * @param deferred runs the verdict's delivery on the loop once the engine has returned from the packet or tick
     *     that decided it (the waiting calls' ends touch the engine)
     * @return the probe
     */
    public static ServiceProbe of(Connection refused, Executor deferred) {
        return new ServiceProbe(refused, deferred);
    }

    /** @return the engine connection this probe is about */
    public Connection refused() {
        return refused;
    }

    /**
     * Hands {@code then} the verdict: at once when it is known, else when the probe ends (the first caller starts
     * it).
     *
     * @param engine the endpoint's engine
     * @param now the engine's clock, ns
     * @param then takes {@link RxException.Reason#UNKNOWN_SERVICE},
     *     {@link RxException.Reason#SECURITY_CLASS_NOT_OFFERED} or {@link RxException.Reason#SERVICE_NOT_OFFERED}
     */
    public void whenKnown(RxEngine engine, long now, Consumer<RxException.Reason> then) {
        if (verdict != null) {
            then.accept(verdict);
            return;
        }
        waiting.add(then);
        if (waiting.size() == 1) {
            start(engine, now);
        }
    }

    private void start(RxEngine engine, long now) {
        Connection conn;
        Call call;
        try {
            conn = engine.connect(refused.peer().address(), refused.serviceId(), 0);
            call = engine.newCall(now, conn, new Listener());
        } catch (IllegalStateException e) { // the engine is shutting down: nothing more to learn
            deferred.execute(() -> decide(RxException.Reason.SERVICE_NOT_OFFERED));
            return;
        }
        call.setDeadline(now, now + waitNs(refused));
        call.write(now, Unpooled.wrappedBuffer(new byte[] {0}));
        call.flush(now);
    }

    private void decide(RxException.Reason reason) {
        if (verdict != null) {
            return;
        }
        verdict = reason;
        List<Consumer<RxException.Reason>> all = new ArrayList<>(waiting);
        waiting.clear();
        for (Consumer<RxException.Reason> w : all) {
            w.accept(reason);
        }
    }

    /** The probe call's listener: decides at the call's end, a raw ABORT or the deadline. */
    private final class Listener implements CallListener {
        @Override
        public void onData(Call call, ByteBuf data, long now) {
            data.release();
        }

        @Override
        public void onWritable(Call call) {
        }

        @Override
        public void onComplete(Call call, int errorCode) {
            RxException.Reason reason;
            if (call.ackProgress() > 0 || (call.isRemoteError() && errorCode != RxCodes.RX_INVALID_OPERATION)) {
                reason = RxException.Reason.SECURITY_CLASS_NOT_OFFERED;
            } else if (call.isRemoteError()) {
                reason = RxException.Reason.UNKNOWN_SERVICE;
            } else {
                reason = RxException.Reason.SERVICE_NOT_OFFERED;
            }
            deferred.execute(() -> decide(reason));
        }
    }
}
