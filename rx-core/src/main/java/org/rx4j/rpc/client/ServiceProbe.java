// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.rx4j.engine.RxEngine;
import org.rx4j.engine.call.Call;
import org.rx4j.engine.call.CallListener;
import org.rx4j.engine.connection.Connection;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.rxkad.RxkadClientSecurity;
import org.rx4j.security.rxkad.RxkadLevel;
import org.rx4j.security.rxkad.SessionKey;

/**
 * Tells an unknown service from a security class the service does not offer, once a server has answered a call with
 * a raw ABORT RX_INVALID_OPERATION (−2) before anything else on the connection
 * ({@link RxException.Reason#SERVICE_NOT_OFFERED} from {@link ClientEndReasons#ended}): OpenAFS sends that same raw
 * ABORT for both, so the packet cannot say which (docs/errors.md "Unknown service or class not offered").
 *
 * <p>A probe asks the same server and service id on a connection of its own: one DATA packet of one byte that is not
 * the last (it asks for an ACK), on which no handler can act (an rxgen opcode is four bytes, and a whole-request
 * handler waits for the last packet). After an rxkad connection's refusal it asks with rxnull: the same raw ABORT
 * back means {@link RxException.Reason#UNKNOWN_SERVICE}; an ACK, a CHALLENGE or another ABORT code
 * {@link RxException.Reason#SECURITY_CLASS_NOT_OFFERED}; silence until the deadline ({@link #waitNs}, at least 300 ms)
 * {@link RxException.Reason#SERVICE_NOT_OFFERED}. After an rxnull connection's refusal, which a handler's −2 looks
 * like, it asks with rxnull first: answered, the −2 was a handler's ({@link RxException.Reason#PEER}); refused again,
 * a second probe asks with rxkad (credentials no server accepts) and its answer means
 * {@link RxException.Reason#SECURITY_CLASS_NOT_OFFERED}, its refusal {@link RxException.Reason#UNKNOWN_SERVICE}, its
 * silence {@link RxException.Reason#PEER}. A probe's call still running at its deadline (an acknowledged one, or one
 * that heard nothing) ends there with ABORT RX_CALL_TIMEOUT (−3) to the server, so a handler it started sees its call
 * aborted; its connection is left to the engine's idle-connection reaper.
 *
 * <p>One probe per refused engine connection: the calls that meet the refusal while it runs wait for the same
 * verdict, and later ones get it at once. Event loop only.
 */
public final class ServiceProbe {
    /**
     * Shortest wait for the probe's answer, ns: the probe asks for an ACK at once, but a server that waited its
     * soft-ACK delay (OpenAFS: 100 ms) and a round trip more still answers in time.
     */
    public static final long MIN_WAIT_NS = 300_000_000L;
    /** Longest wait for the probe's answer, ns. */
    public static final long MAX_WAIT_NS = 3_000_000_000L;

    private final Connection refused;
    private final Executor deferred;
    private final LongSupplier clock;
    private final List<Consumer<RxException.Reason>> waiting = new ArrayList<>();
    private RxException.Reason verdict;

    private ServiceProbe(Connection refused, Executor deferred, LongSupplier clock) {
        this.refused = refused;
        this.deferred = deferred;
        this.clock = clock;
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
     * @param deferred runs the verdict's delivery (and a second probe) on the loop once the engine has returned from
     *     the packet or tick that decided it (the waiting calls' ends touch the engine)
     * @param clock the engine's clock, ns
     * @return the probe
     */
    public static ServiceProbe of(Connection refused, Executor deferred, LongSupplier clock) {
        return new ServiceProbe(refused, deferred, clock);
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
     *     {@link RxException.Reason#SECURITY_CLASS_NOT_OFFERED}, {@link RxException.Reason#SERVICE_NOT_OFFERED}, or,
     *     after an rxnull connection's refusal that rxnull's probe did not repeat, {@link RxException.Reason#PEER}
     *     (a handler's −2)
     */
    public void whenKnown(RxEngine engine, long now, Consumer<RxException.Reason> then) {
        if (verdict != null) {
            then.accept(verdict);
            return;
        }
        waiting.add(then);
        if (waiting.size() == 1) {
            start(engine, now, false);
        }
    }

    /** True when the refused connection was rxnull's: the first probe then asks whether a handler sent the −2. */
    private boolean refusedRxnull() {
        return refused.securityIndex() == 0;
    }

    /**
     * Sends one probe: with rxnull first; with rxkad second, only after an rxnull connection's refusal came again.
     */
    private void start(RxEngine engine, long now, boolean rxkad) {
        try {
            Connection conn = rxkad
                    ? engine.connect(refused.peer().address(), refused.serviceId(), rxkadProbeClass())
                    : engine.connect(refused.peer().address(), refused.serviceId(), 0);
            Call call = engine.newCall(now, conn, new Listener(engine, conn, rxkad));
            call.setDeadline(now, now + waitNs(refused));
            call.write(now, Unpooled.wrappedBuffer(new byte[] {0}));
            call.flush(now);
        } catch (RuntimeException e) { // the engine is shutting down, or refused the probe: nothing more to learn
            deferred.execute(() -> decide(unanswered()));
        }
    }

    /**
     * The class of the second probe after an rxnull connection's refusal: rxkad with credentials no server accepts
     * (a server that offers rxkad acknowledges or challenges its first packet, and refuses the ticket). One per probe:
     * nothing of it is shared between endpoints.
     */
    private static RxkadClientSecurity rxkadProbeClass() {
        return new RxkadClientSecurity(RxkadLevel.CLEAR, new SessionKey(0L), 0, new byte[32]);
    }

    /**
     * The verdict when nothing was learned (a probe heard nothing, or none could run): the refusal stays open
     * ({@link RxException.Reason#SERVICE_NOT_OFFERED}), or, after an rxnull connection's refusal, which a handler's −2
     * looks like, nothing is added to the peer's code ({@link RxException.Reason#PEER}).
     *
     * @return that verdict
     */
    public RxException.Reason unanswered() {
        return refusedRxnull() ? RxException.Reason.PEER : RxException.Reason.SERVICE_NOT_OFFERED;
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

    /**
     * A probe call's listener: decides at the server's first ACK, else at the call's end (a raw ABORT, another ABORT,
     * the deadline).
     */
    private final class Listener implements CallListener {
        private final RxEngine engine;
        /** The probe's own connection. */
        private final Connection conn;
        /** True for the second probe (rxkad), after an rxnull connection's refusal. */
        private final boolean rxkad;

        Listener(RxEngine engine, Connection conn, boolean rxkad) {
            this.engine = engine;
            this.conn = conn;
            this.rxkad = rxkad;
        }

        /** The server took the probe: it serves the service with the probe's class. */
        private RxException.Reason served() {
            // An rxnull connection's −2 then came from a handler: the peer's code is all there is.
            return refusedRxnull() && !rxkad ? RxException.Reason.PEER
                    : RxException.Reason.SECURITY_CLASS_NOT_OFFERED;
        }

        @Override
        public void onData(Call call, ByteBuf data, long now) {
            data.release();
        }

        @Override
        public void onWritable(Call call) {
        }

        @Override
        public boolean wantsFirstAck() {
            return true;
        }

        @Override
        public void onFirstAck(Call call, long now) {
            // The call runs on to its deadline, which aborts it at the server.
            RxException.Reason reason = served();
            deferred.execute(() -> decide(reason));
        }

        @Override
        public void onComplete(Call call, int errorCode) {
            // Anything but a raw ABORT from the server (an ACK, a CHALLENGE, another code) means the class is served.
            if (call.ackProgress() > 0 || ClientEndReasons.heardMoreThanAborts(conn)
                    || (call.isRemoteError() && errorCode != RxCodes.RX_INVALID_OPERATION)) {
                RxException.Reason reason = served();
                deferred.execute(() -> decide(reason));
            } else if (!call.isRemoteError()) {
                deferred.execute(() -> decide(unanswered()));
            } else if (refusedRxnull() && !rxkad) {
                // Neither class answered yet: ask with rxkad whether the service exists with another class.
                deferred.execute(() -> start(engine, clock.getAsLong(), true));
            } else {
                deferred.execute(() -> decide(RxException.Reason.UNKNOWN_SERVICE));
            }
        }
    }
}
