package org.rx4j.engine;

/**
 * A call's {@link CallEvents} bound to its {@link CallContext}: each event goes to the connection together with
 * the call it concerns. Created by the call for its parts, so the parts raise events without holding the call.
 * Engine thread only.
 */
final class ContextCallEvents implements CallEvents {
    private final CallContext ctx;
    private final Call call;

    /**
     * @param ctx the call's context
     * @param call the call the events concern (named in each event, never called)
     */
    ContextCallEvents(CallContext ctx, Call call) {
        this.ctx = ctx;
        this.call = call;
    }

    @Override
    public void touched(long now) {
        ctx.touched(call, now);
    }

    @Override
    public void readable() {
        ctx.readable(call);
    }

    @Override
    public void writable() {
        ctx.writable(call);
    }

    @Override
    public void ended(long now) {
        ctx.ended(call, now);
    }

    @Override
    public void peerReachable(long now) {
        ctx.peerReachable(now);
    }
}
