package org.rx4j.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.rx4j.engine.Call;
import org.rx4j.engine.CallListener;

/**
 * The first listener of a server call of a routed whole-stream service: on the event loop, gathers the first
 * {@code prefixBytes} of the request (or the whole request when shorter), asks the {@link RxCallRouter}, and
 * hands the call with every byte taken so far to an {@link AsyncServerCall} (opcode = the first 4 bytes) or to a
 * {@link BlockingServerCall} running the service's blocking handler. The prefix may arrive split over several
 * packets. Loop only.
 */
final class PrefixRouter implements CallListener {
    private static final int OPCODE_BYTES = 4;

    private final EndpointRuntime rt;
    private final WorkerShare share;
    private final RxCallHandler blocking;
    private final RxCallRouter router;
    private final byte[] prefix;
    private int have;
    private boolean routed;

    /**
     * @param rt the endpoint's shared parts
     * @param share the service's share of the worker pool, for the blocking handler
     * @param blocking the service's blocking handler
     * @param prefixBytes request bytes the router sees, ≥ 4
     * @param router the router
     */
    PrefixRouter(EndpointRuntime rt, WorkerShare share, RxCallHandler blocking, int prefixBytes,
                 RxCallRouter router) {
        this.rt = rt;
        this.share = share;
        this.blocking = blocking;
        this.router = router;
        this.prefix = new byte[prefixBytes];
    }

    @Override
    public void onReadable(Call c) {
        if (routed || c.isDone()) {
            return;
        }
        long now = rt.now();
        ByteBuf rest = null;
        while (have < prefix.length) {
            ByteBuf b = c.read(now);
            if (b == null) {
                break;
            }
            int n = Math.min(prefix.length - have, b.readableBytes());
            b.readBytes(prefix, have, n);
            have += n;
            if (b.isReadable()) {
                rest = b;
            } else {
                b.release();
            }
        }
        boolean whole = rest == null && c.isReadComplete();
        if (have < prefix.length && !whole) {
            return; // more of the prefix to come
        }
        routed = true;
        RxAsyncHandler async = null;
        if (have >= OPCODE_BYTES) {
            try {
                async = router.route(prefix, have, whole);
            } catch (Exception e) {
                if (rest != null) {
                    rest.release();
                }
                c.abort(now, HandlerFailures.abortCode(e));
                return;
            }
        }
        if (async != null) {
            int opcode = ((prefix[0] & 0xFF) << 24) | ((prefix[1] & 0xFF) << 16)
                    | ((prefix[2] & 0xFF) << 8) | (prefix[3] & 0xFF);
            AsyncServerCall.start(rt, c, opcode, taken(OPCODE_BYTES, rest), async);
        } else {
            BlockingServerCall.start(rt, share, c, taken(0, rest), blocking);
        }
    }

    /** The bytes taken from the call from {@code from} on, or null if none; ownership of {@code rest} moves in. */
    private ByteBuf taken(int from, ByteBuf rest) {
        if (have <= from) {
            return rest;
        }
        ByteBuf head = Unpooled.wrappedBuffer(prefix, from, have - from);
        return rest == null ? head : Unpooled.wrappedBuffer(head, rest);
    }

    @Override
    public void onWritable(Call c) {
        // Nothing is written before the call is routed.
    }

    @Override
    public void onComplete(Call c, int errorCode) {
        rt.tracker.callEnded();
    }
}
