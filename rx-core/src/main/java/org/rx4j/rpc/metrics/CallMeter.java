// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.metrics;

import org.rx4j.rpc.RxCallInfo;
import org.rx4j.rpc.runtime.ApiAccess;
import org.rx4j.rpc.stats.ProcedureMetrics;

/**
 * Times one call for {@link CallMetrics}, and for its interceptors' ends and call log line, which take the duration
 * {@link #end} returns (docs/embedding.md "Metrics"): made when the call starts (side, service id, start on the
 * endpoint's clock: a client call when the application starts it, a server call when it arrives), told the opcode
 * once the endpoint sees it, and ended exactly once by whichever listener sees the call end (its {@code onComplete},
 * or a refusal before the call reached the engine). A server call's duration ends when its reply was complete
 * ({@link #replyComplete}) if it was: the engine ends the call only when the client acknowledges the reply's last
 * packet, and a client delays that ACK, so the call's end would add the client's delayed-ack time to every server
 * call. Thread-safe: a client's opcode is seen on the application thread, the end mostly on the event loop.
 */
public final class CallMeter {
    private final CallMetrics metrics;
    private final boolean server;
    private final int serviceId;
    private final long startNs;
    private volatile int opcode = ProcedureMetrics.UNKNOWN_OPCODE;
    private volatile boolean opcodeSeen;
    /** When the server's reply was complete, endpoint clock, ns; guarded by this object's lock. */
    private long replyNs;
    private boolean replied;
    private boolean ended;
    /** The duration {@link #end} recorded; guarded by this object's lock. */
    private long durationNs;

    CallMeter(CallMetrics metrics, boolean server, int serviceId, long startNs) {
        this.metrics = metrics;
        this.server = server;
        this.serviceId = serviceId;
        this.startNs = startNs;
    }

    /** @param op the call's opcode, as read from its request */
    public void opcode(int op) {
        opcode = op;
        opcodeSeen = true;
    }

    /**
     * Takes the opcode from the start of the request's first bytes (rx-wire-facts.md §6), unless already known; only
     * the first bytes handed over count.
     *
     * @param b the request's first bytes
     * @param len how many of them are valid
     */
    public void opcodeFrom(byte[] b, int len) {
        if (opcodeSeen) {
            return;
        }
        if (len >= 4) {
            opcode = (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
        }
        opcodeSeen = true; // a request whose first bytes were fewer than 4 stays UNKNOWN_OPCODE
    }

    /** @return the opcode the call's request named, or {@link RxCallInfo#NO_OPCODE} while none was read */
    public long opcodeOrNone() {
        int op = opcode;
        return op == ProcedureMetrics.UNKNOWN_OPCODE && !opcodeSeen ? ApiAccess.NO_OPCODE : op;
    }

    /**
     * Server side: the handler finished the reply and its end (LAST_PACKET) was handed to the engine
     * ({@code Call.finishSending}), which sends what its window allows in the same step: for a reply within the send
     * window that is its last DATA packet. The engine reports no later point to this layer. Only the first counts.
     *
     * @param nowNs now, endpoint clock, ns
     */
    public synchronized void replyComplete(long nowNs) {
        if (!replied) {
            replied = true;
            replyNs = nowNs;
        }
    }

    /**
     * Records the call's end: its code, and its duration up to now or, for a server call whose reply was complete
     * before, up to that point (a later failure, e.g. the client's abort, keeps the code but not the time after the
     * reply). Later calls record nothing.
     *
     * @param code 0 for success, else the Rx code it ended with
     * @param nowNs the end, endpoint clock, ns
     * @return the call's duration as recorded by the first end, ns: what its interceptors' ends and log line report
     */
    public long end(int code, long nowNs) {
        long d;
        synchronized (this) {
            if (ended) {
                return durationNs;
            }
            ended = true;
            d = (replied ? replyNs : nowNs) - startNs;
            durationNs = d;
        }
        metrics.record(server, serviceId, opcode, code, d);
        return d;
    }
}
