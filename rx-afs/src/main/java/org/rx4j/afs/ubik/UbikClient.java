// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.ubik;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.rx4j.rpc.RxCallTarget;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.channel.RxConnectionPool;
import org.rx4j.rpc.channel.RxPoolConfig;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.SecurityClass;

/**
 * A client of a replicated (ubik) database service — vlserver, ptserver, buserver, bosserver — that talks to
 * whichever of the cell's servers answers, as AFS's own clients do. Rules (docs/cells.md):
 *
 * <ol>
 *   <li>A call goes first to the server that last answered (initially the first in the list, i.e. CellServDB
 *       or SRV order).
 *   <li>It moves on to the next server (list order, wrapping around) when the attempt fails with
 *       RX_CALL_DEAD (−1: nothing heard, e.g. the server is down), RX_CALL_TIMEOUT (−3: a deadline passed or the
 *       call stalled), UNOQUORUM (5376: the server has no quorum) or UNOTSYNC (5377: it is not the sync site).
 *   <li>Any other outcome — a result or another error, such as VL_NOENT — is the answer: it is returned or
 *       thrown at once, and that server becomes the one asked first next time.
 *   <li>Each server is tried at most once per call. When every server failed, a local {@link RxException}
 *       with the last failure's code is thrown, naming each server and its code; the last failure is its cause,
 *       the earlier ones are attached as suppressed exceptions.
 * </ol>
 *
 * <p>The stub per server is made once, on one {@link RxConnectionPool} per server (more Rx connections as concurrent
 * calls need them; docs/embedding.md "Pools"). A pool whose {@link RxPoolConfig#retry()} marks a proc idempotent
 * repeats it on the same server after RX_CALL_DEAD, with the policy's backoff pause before each repeat, before this
 * client moves on; moving on waits for nothing (no pause follows a pool's last attempt, and this client adds none).
 * The default config repeats nothing. Thread-safe: concurrent calls
 * may each move on independently; the "last answered" server is a single volatile index.
 *
 * <p>Beside {@code org.rx4j.rpc.channel.RxChannel}, not on it: a channel balances calls over interchangeable servers and ejects
 * failing ones, while ubik wants the server that answered last and moves on only on the failures above, each server
 * once per call; the two share only the pools (docs/embedding.md "Channels").
 *
 * <p>Ownership: a client made by {@link #connect} owns the pools it opened, and {@link #close()} closes
 * them; a client made from given stubs ({@link #UbikClient(List, List)}) owns nothing, and closing it does
 * nothing (whoever made the stubs' pools or connections closes them). The endpoint is never the client's.
 *
 * @param <C> the client stub type
 */
public final class UbikClient<C> implements AutoCloseable {
    private static final Set<Integer> MOVE_ON = Set.of(RxCodes.RX_CALL_DEAD, RxCodes.RX_CALL_TIMEOUT,
            UbikCodes.UNOQUORUM, UbikCodes.UNOTSYNC);

    private final List<InetSocketAddress> servers;
    private final List<C> clients;
    /** The pools {@link #connect} opened (closed by {@link #close()}); empty when the stubs were given. */
    private final List<RxCallTarget> owned;
    private volatile int preferred;

    /**
     * The outcome of one call: its result, the server that gave it and how many servers were tried.
     *
     * @param value the call's result
     * @param server the server that answered
     * @param tries the number of servers asked, 1 when the first one answered
     * @param <T> the result type
     */
    public record Answer<T>(T value, InetSocketAddress server, int tries) {
    }

    /**
     * @param servers the servers, in the order to try them (not empty)
     * @param clients one stub per server, in the same order
     * @throws IllegalArgumentException if the lists are empty or of different sizes
     */
    public UbikClient(List<InetSocketAddress> servers, List<C> clients) {
        this(servers, clients, List.of());
    }

    private UbikClient(List<InetSocketAddress> servers, List<C> clients, List<RxCallTarget> owned) {
        if (servers.isEmpty() || servers.size() != clients.size()) {
            throw new IllegalArgumentException("need one client per server, at least one: " + servers.size()
                    + " servers, " + clients.size() + " clients");
        }
        this.servers = List.copyOf(servers);
        this.clients = List.copyOf(clients);
        this.owned = List.copyOf(owned);
    }

    /**
     * Opens a connection pool with the default settings ({@link RxPoolConfig#defaults()}) to every server (no packet
     * is sent until a call is made).
     *
     * @param endpoint the local endpoint
     * @param servers the servers, in the order to try them
     * @param serviceId the Rx service id (VL 52, PR 73, BOZO 1)
     * @param securityClass the security class every connection uses
     * @param stub makes a stub from a pool, e.g. {@code VlClient::new}
     * @param <C> the stub type
     * @return the client, which owns the pools ({@link #close()} closes them)
     * @throws IllegalArgumentException if {@code servers} is empty, or as {@link RxEndpoint#connect}
     */
    public static <C> UbikClient<C> connect(RxEndpoint endpoint, List<InetSocketAddress> servers, int serviceId,
            SecurityClass securityClass, Function<RxCallTarget, C> stub) {
        return connect(endpoint, servers, serviceId, securityClass, RxPoolConfig.defaults(), stub);
    }

    /**
     * Opens a connection pool with {@code config} to every server (no packet is sent until a call is made).
     *
     * @param endpoint the local endpoint
     * @param servers the servers, in the order to try them
     * @param serviceId the Rx service id (VL 52, PR 73, BOZO 1)
     * @param securityClass the security class every connection uses
     * @param config each pool's bound, idle time and retry policy
     * @param stub makes a stub from a pool, e.g. {@code VlClient::new}
     * @param <C> the stub type
     * @return the client, which owns the pools ({@link #close()} closes them)
     * @throws IllegalArgumentException if {@code servers} is empty, or as {@link RxEndpoint#connect}
     */
    public static <C> UbikClient<C> connect(RxEndpoint endpoint, List<InetSocketAddress> servers, int serviceId,
            SecurityClass securityClass, RxPoolConfig config, Function<RxCallTarget, C> stub) {
        List<C> clients = new ArrayList<>();
        List<RxCallTarget> pools = new ArrayList<>();
        try {
            for (InetSocketAddress server : servers) {
                RxConnectionPool pool = RxConnectionPool.open(endpoint, server, serviceId, securityClass, config);
                pools.add(pool);
                clients.add(stub.apply(pool));
            }
        } catch (RuntimeException e) {
            pools.forEach(RxCallTarget::close);
            throw e;
        }
        return new UbikClient<>(servers, clients, pools);
    }

    /**
     * Closes the pools this client opened ({@link #connect}); their unfinished calls are aborted with
     * RX_USER_ABORT (−6), as {@link RxCallTarget#close()} does. A client made from given stubs closes nothing.
     * Idempotent.
     */
    @Override
    public void close() {
        for (RxCallTarget pool : owned) {
            pool.close();
        }
    }

    /** @return the codes after which the next server is tried: −1, −3, 5376, 5377 */
    public static Set<Integer> moveOnCodes() {
        return MOVE_ON;
    }

    /**
     * @return the server a call asks first: the one that answered last (with a result or an error), or the first
     *     in the list before any answer
     */
    public InetSocketAddress preferredServer() {
        return servers.get(preferred);
    }

    /** @return the servers in list order */
    public List<InetSocketAddress> servers() {
        return servers;
    }

    /**
     * Makes the call as the rules above say.
     *
     * @param call the RPC
     * @param <T> the result type
     * @return the result
     * @throws IOException the answer's error, or the last failure when no server answered
     */
    public <T> T call(UbikCall<C, T> call) throws IOException {
        return ask(call).value();
    }

    /**
     * Like {@link #call}, and says which server answered after how many tries.
     *
     * @param call the RPC
     * @param <T> the result type
     * @return the answer
     * @throws IOException the answer's error, or (an {@link RxException}) when no server answered
     */
    public <T> Answer<T> ask(UbikCall<C, T> call) throws IOException {
        Objects.requireNonNull(call, "call");
        int start = preferred;
        List<RxException> failures = new ArrayList<>();
        StringBuilder tried = new StringBuilder();
        for (int tries = 1; tries <= servers.size(); tries++) {
            int index = (start + tries - 1) % servers.size();
            try {
                T value = call.call(clients.get(index));
                preferred = index;
                return new Answer<>(value, servers.get(index), tries);
            } catch (RxException e) {
                if (!MOVE_ON.contains(e.code())) {
                    preferred = index;    // the server answered, with an error
                    throw e;
                }
                failures.add(e);
                tried.append(tried.length() == 0 ? "" : ", ").append(servers.get(index)).append(": ").append(e.code());
            }
        }
        RxException last = failures.get(failures.size() - 1);
        RxException none = RxException.local(last.code(), "none of " + servers.size() + " servers answered ("
                + tried + ")", last);
        for (int i = 0; i < failures.size() - 1; i++) {
            none.addSuppressed(failures.get(i));
        }
        throw none;
    }
}
