package org.rx4j.rpc;

/**
 * Times one call for {@link CallMetrics}: made when the call starts (side, service id, start on the endpoint's
 * clock), told the opcode once the endpoint sees it, and ended exactly once by whichever listener sees the call end
 * (its {@code onComplete}, or a refusal before the call reached the engine). Thread-safe: a client's opcode is seen
 * on the application thread, the end mostly on the event loop.
 */
final class CallMeter {
    private final CallMetrics metrics;
    private final boolean server;
    private final int serviceId;
    private final long startNs;
    private volatile int opcode = ProcedureMetrics.UNKNOWN_OPCODE;
    private volatile boolean opcodeSeen;
    private boolean ended;

    CallMeter(CallMetrics metrics, boolean server, int serviceId, long startNs) {
        this.metrics = metrics;
        this.server = server;
        this.serviceId = serviceId;
        this.startNs = startNs;
    }

    /** @param op the call's opcode, as read from its request */
    void opcode(int op) {
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
    void opcodeFrom(byte[] b, int len) {
        if (opcodeSeen) {
            return;
        }
        if (len >= 4) {
            opcode = (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
        }
        opcodeSeen = true; // a request whose first bytes were fewer than 4 stays UNKNOWN_OPCODE
    }

    /**
     * Records the call's end; later calls are ignored.
     *
     * @param code 0 for success, else the Rx code it ended with
     * @param nowNs the end, endpoint clock, ns
     */
    void end(int code, long nowNs) {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
        }
        metrics.record(server, serviceId, opcode, code, nowNs - startNs);
    }
}
