package org.rx4j.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.rx4j.engine.Call;
import org.rx4j.engine.Connection;
import org.rx4j.transport.RxTransport;

/**
 * A client connection to (host, port, service id, security index). Up to 4 calls run on it at once
 * (its channels); more wait for a free channel (rx-wire-facts.md §6, §7). Thread-safe: any thread may
 * start calls.
 */
public final class RxConnection implements AutoCloseable {
    private final RxTransport transport;
    private final Connection connection;
    private final InetSocketAddress server;

    RxConnection(RxTransport transport, Connection connection, InetSocketAddress server) {
        this.transport = transport;
        this.connection = connection;
        this.server = server;
    }

    /** @return the server's address */
    public InetSocketAddress server() {
        return server;
    }

    /** @return the service id calls go to */
    public int serviceId() {
        return connection.serviceId();
    }

    /**
     * Starts a call. Write the request to {@link RxCall#output()}, close it, then read the reply from
     * {@link RxCall#input()}.
     *
     * @return the call
     * @throws RxException if the connection was aborted or closed (code RX_INVALID_OPERATION −2 when closed)
     */
    public RxCall newCall() throws RxException {
        CallStreams streams = new CallStreams(transport);
        try {
            Call call = transport.submit(engine -> engine.newCall(transport.now(), connection, streams)).join();
            streams.attach(call);
        } catch (java.util.concurrent.CompletionException e) {
            throw RxException.local(org.rx4j.wire.AbortCodes.RX_INVALID_OPERATION, e.getCause().getMessage());
        }
        return new RxCall(streams, false, server);
    }

    /**
     * Sends a whole request and returns the whole reply (a convenience for small calls).
     *
     * @param request request bytes
     * @return reply bytes
     * @throws RxException with the abort code if the call fails
     * @throws IOException on interruption
     */
    public byte[] call(byte[] request) throws IOException {
        try (RxCall call = newCall()) {
            call.output().write(request);
            call.output().close();
            return call.input().readAllBytes();
        }
    }

    /** Closes the connection; its unfinished calls are aborted with RX_USER_ABORT (−6). */
    @Override
    public void close() {
        transport.execute(engine -> engine.closeConnection(transport.now(), connection));
    }
}
