// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.runtime;

import org.rx4j.engine.call.CallOrigin;
import org.rx4j.rpc.RxCallContext;
import org.rx4j.rpc.RxCallEnd;
import org.rx4j.rpc.RxCallInfo;
import org.rx4j.rpc.RxClientInterceptor;
import org.rx4j.rpc.RxConnection;
import org.rx4j.rpc.RxConnectionId;
import org.rx4j.rpc.RxProcNames;
import org.rx4j.rpc.RxServerInterceptor;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxErrorTables;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.rpc.metrics.CallMeter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place every call of an endpoint passes through at its start and at its end (docs/embedding.md
 * "Interceptors" and "Call logs"): runs the endpoint's interceptors when the call starts, their
 * {@link RxCallEnd}s and one DEBUG line (the endpoint's call log, logger {@code org.rx4j.rpc.calls}: side, service,
 * procedure or opcode, peer, Rx code, duration) when it ends. The duration is the one the call's {@link CallMeter}
 * recorded, so metrics, interceptors and the log report the same time for a call. Made only when the endpoint has
 * interceptors of that side or the call log is on, so a call costs nothing here otherwise (no allocation, one
 * volatile read and one level check); a server call that ends before its handler's hooks were made gets its line
 * from {@link #endedUnrouted}. Ends at most once; {@link #ended} may run on the event loop or, for a call that never
 * reached it, on the caller's thread.
 */
public final class CallHooks {
    /**
     * The call log's logger unless a test points the endpoint elsewhere ({@link EndpointRuntime#callLog}): DEBUG gives
     * one line per call end, TRACE also the RPC layer's refusals of new calls.
     */
    public static final Logger CALLS = LoggerFactory.getLogger("org.rx4j.rpc.calls");
    private static final RxCallEnd[] NONE = {};

    private final EndpointRuntime rt;
    private final RxCallInfo info;
    private final long startNs;
    private RxCallEnd[] ends = NONE;
    private int endCount;
    private boolean done;

    private CallHooks(EndpointRuntime rt, RxCallInfo info) {
        this.rt = rt;
        this.info = info;
        this.startNs = rt.now();
    }

    /**
     * Server side, on the event loop once the call is routed to its handler.
     *
     * @param rt the endpoint's shared parts
     * @param origin who sent the call
     * @param opcodeOrNone the request's opcode, or {@link RxCallInfo#NO_OPCODE}
     * @param context the call's cancellation context
     * @return the hooks, or null when the endpoint has no server interceptor and the call log is off
     */
    public static CallHooks server(EndpointRuntime rt, CallOrigin origin, long opcodeOrNone, RxCallContext context) {
        if (rt.serverInterceptors.length == 0 && !rt.callLog.isDebugEnabled()) {
            return null;
        }
        int service = origin.serviceId();
        return new CallHooks(rt, ApiAccess.api().newCallInfo(true, service, opcodeOrNone, name(rt, service, opcodeOrNone),
                origin.peer(), ApiAccess.api().connectionId(origin), origin.identity(), context));
    }

    /**
     * Server side: runs the server interceptors in order until one refuses; a refusal gets the call log's TRACE line
     * with the interceptor's message.
     *
     * @return 0 when every interceptor admitted the call, else the abort code to refuse it with
     */
    public int admit() {
        RxServerInterceptor[] all = rt.serverInterceptors;
        for (RxServerInterceptor i : all) {
            try {
                add(i.intercept(info), all.length);
            } catch (RxException e) {
                if (rt.callLog.isTraceEnabled()) {
                    trace(rt.callLog, info, "by an interceptor", e.code(), detail(e));
                }
                return e.code();
            } catch (RuntimeException e) {
                rt.callLog.warn("server interceptor failed on {}; the call is refused", info, e);
                return RxCodes.RX_INVALID_OPERATION;
            }
        }
        return 0;
    }

    /**
     * Client side, on the thread that starts the call: runs the client interceptors in order.
     *
     * @param rt the endpoint's shared parts
     * @param conn the call's connection
     * @param opcodeOrNone the request's opcode when the call form knows it, or {@link RxCallInfo#NO_OPCODE}
     * @param context the call's cancellation context
     * @return the hooks, or null when the endpoint has no client interceptor and the call log is off
     * @throws RxException when an interceptor refused the call (the ends of those before it have run)
     */
    public static CallHooks client(EndpointRuntime rt, RxConnection conn, long opcodeOrNone, RxCallContext context)
            throws RxException {
        RxClientInterceptor[] all = rt.clientInterceptors;
        if (all.length == 0 && !rt.callLog.isDebugEnabled()) {
            return null;
        }
        int service = conn.serviceId();
        CallHooks h = new CallHooks(rt, ApiAccess.api().newCallInfo(false, service, opcodeOrNone,
                name(rt, service, opcodeOrNone), conn.server(), conn.id(), null, context));
        for (RxClientInterceptor i : all) {
            try {
                h.add(i.intercept(h.info), all.length);
            } catch (RxException e) {
                h.endedBeforeStart(e.code());
                throw e;
            }
        }
        return h;
    }

    private static String name(EndpointRuntime rt, int service, long opcodeOrNone) {
        RxProcNames names = rt.procNames;
        return names == null || opcodeOrNone == ApiAccess.NO_OPCODE ? null : names.name(service, (int) opcodeOrNone);
    }

    private void add(RxCallEnd end, int most) {
        if (end == null) {
            return;
        }
        if (ends.length == 0) {
            ends = new RxCallEnd[most];
        }
        ends[endCount++] = end;
    }

    /**
     * A client call ended before it had a {@link CallMeter} (a client interceptor refused it): records it in the
     * metrics from when these hooks were made and ends the hooks with that duration.
     *
     * @param code the abort code
     */
    void endedBeforeStart(int code) {
        long opcodeOrNone = info.opcode().isPresent() ? info.opcode().getAsInt() : ApiAccess.NO_OPCODE;
        ended(code, rt.metrics.clientCallEnded(info.serviceId(), opcodeOrNone, startNs, code, rt.now()));
    }

    /**
     * The call ended: runs the admitted interceptors' ends in order, then writes the call log's line. Only the first
     * end counts.
     *
     * @param code 0 for a completed call, else its abort code
     * @param durationNs the call's duration as its meter recorded it ({@link CallMeter#end}), ns
     */
    public void ended(int code, long durationNs) {
        ended(code, null, durationNs);
    }

    /**
     * As {@link #ended(int, long)}, with the reason the call's exception gives (docs/errors.md "Local reasons"): the
     * log line names it after the code's name, e.g. {@code code -1 (RX_CALL_DEAD, not rx)}, except
     * {@link RxException.Reason#PEER} and {@link RxException.Reason#OTHER}, which add nothing to the code.
     *
     * @param code 0 for a completed call, else its abort code
     * @param reason the end's reason, or null
     * @param durationNs the call's duration as its meter recorded it, ns
     */
    public void ended(int code, RxException.Reason reason, long durationNs) {
        synchronized (this) {
            if (done) {
                return;
            }
            done = true;
        }
        for (int i = 0; i < endCount; i++) {
            try {
                ends[i].ended(code, reason, durationNs);
            } catch (RuntimeException e) {
                rt.callLog.warn("interceptor's call end failed on {}", info, e);
            }
        }
        log(rt.callLog, info, code, reason, durationNs);
    }

    /**
     * Server side: the call log's line for a call that ended before its handler's hooks were made (unknown opcode,
     * request shorter than an opcode or over the message limit, endpoint closing, a router that threw, the client's
     * abort before the handler ran), so every call end a server sees has its line. Allocates only with the log on.
     *
     * @param rt the endpoint's shared parts
     * @param origin who sent the call
     * @param opcodeOrNone the request's opcode, or {@link RxCallInfo#NO_OPCODE} when it was never read
     * @param code the call's end code
     * @param durationNs the call's duration as its meter recorded it, ns
     */
    public static void endedUnrouted(EndpointRuntime rt, CallOrigin origin, long opcodeOrNone, int code, long durationNs) {
        endedUnrouted(rt, origin, opcodeOrNone, code, null, durationNs);
    }

    /**
     * As {@link #endedUnrouted(EndpointRuntime, CallOrigin, long, int, long)}, with the end's reason for the line.
     *
     * @param rt the endpoint's shared parts
     * @param origin who sent the call
     * @param opcodeOrNone the request's opcode, or {@link RxCallInfo#NO_OPCODE} when it was never read
     * @param code the call's end code
     * @param reason the end's reason (docs/errors.md "Local reasons"), or null
     * @param durationNs the call's duration as its meter recorded it, ns
     */
    public static void endedUnrouted(EndpointRuntime rt, CallOrigin origin, long opcodeOrNone, int code,
            RxException.Reason reason, long durationNs) {
        if (rt.callLog.isDebugEnabled()) {
            log(rt.callLog, unrouted(rt, origin, opcodeOrNone), code, reason, durationNs);
        }
    }

    /**
     * Server side: the call log's TRACE line for a new call the RPC layer refuses before any handler runs (unknown
     * opcode, short request, busy, closing), naming the call as its DEBUG line does: {@code server 4716/99 from
     * /127.0.0.1:41000 refused, no handler for opcode 99: code -455 (RXGEN_OPCODE)}. Allocates only with TRACE on.
     *
     * @param rt the endpoint's shared parts
     * @param origin who sent the call
     * @param opcodeOrNone the request's opcode, or {@link RxCallInfo#NO_OPCODE} when it was never read
     * @param why why, for humans
     * @param code the abort code the call is refused with
     */
    public static void refused(EndpointRuntime rt, CallOrigin origin, long opcodeOrNone, String why, int code) {
        if (rt.callLog.isTraceEnabled()) {
            trace(rt.callLog, unrouted(rt, origin, opcodeOrNone), ", " + why, code, null);
        }
    }

    private static RxCallInfo unrouted(EndpointRuntime rt, CallOrigin origin, long opcodeOrNone) {
        int service = origin.serviceId();
        return ApiAccess.api().newCallInfo(true, service, opcodeOrNone, name(rt, service, opcodeOrNone), origin.peer(),
                ApiAccess.api().connectionId(origin), origin.identity(), ApiAccess.api().newCallContext());
    }

    /** @return the name a log line gives a call's code: OK, an Rx code's, a registered table's, else "error N" */
    public static String codeName(int code) {
        // 0 is no abort code: the catalog's "error 0" would read as a failure
        return code == 0 ? "OK" : RxErrorTables.name(code);
    }

    private static void trace(Logger log, RxCallInfo info, String why, int code, String detail) {
        String name = codeName(code);
        if (detail == null) {
            log.trace("{} refused{}: code {} ({})", info, why, code, name);
        } else {
            log.trace("{} refused {}: code {} ({}): {}", info, why, code, name, detail);
        }
    }

    /** @return what a refusing interceptor's exception says beyond its code, or its whole message */
    private static String detail(RxException e) {
        String message = String.valueOf(e.getMessage());
        String code = ": " + RxErrorTables.describe(e.code()) + ": ";
        int at = message.indexOf(code);
        return at < 0 ? message : message.substring(at + code.length());
    }

    private static void log(Logger log, RxCallInfo info, int code, RxException.Reason reason, long durationNs) {
        if (log.isDebugEnabled()) {
            String name = codeName(code);
            if (code != 0 && reason != null && reason != RxException.Reason.PEER
                    && reason != RxException.Reason.OTHER) {
                name += ", " + reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
            }
            log.debug("{} code {} ({}) in {} us", info, code, name, durationNs / 1000);
        }
    }
}
