// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rx4j.afs.fs.AFSCallBack;
import org.rx4j.afs.fs.AFSFid;
import org.rx4j.afs.fs.AfsConstants;
import org.rx4j.afs.fs.RxafsClient;
import org.rx4j.rpc.RxEndpoint;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;
import org.rx4j.security.SecurityClass;

/**
 * One RXAFS client (a connection pool, service 1 on port 7000) per fileserver, and the rule that moves a call on
 * to a volume's next site: the server cannot be reached (RX_CALL_DEAD, RX_CALL_TIMEOUT) or says the volume is not
 * there now (VBUSY, VOFFLINE, VNOVOL, VMOVED, VSALVAGE, VSALVAGING, VNOSERVICE, VIO). A read-only volume's replicas
 * are tried in the VLDB's order; after VNOVOL or VMOVED the volume's location is asked again once; while every site
 * says VBUSY the round is repeated after a pause (20 ms, doubling up to 1 s; 40 rounds at most).
 */
final class FileServers implements AutoCloseable {
    /** The fileserver's Rx service id. */
    static final int SERVICE_ID = 1;
    private static final Set<Integer> NEXT_SITE = Set.of(RxCodes.RX_CALL_DEAD, RxCodes.RX_CALL_TIMEOUT,
            AfsErrors.VBUSY, AfsErrors.VOFFLINE, AfsErrors.VNOVOL, AfsErrors.VMOVED, AfsErrors.VSALVAGE, 105, 112, 113);

    /** A callback given up: version 1, no expiration, type CB_DROPPED. */
    private static final AFSCallBack DROPPED = new AFSCallBack(1, 0, AfsConstants.CB_DROPPED);

    /** Rounds over a volume's sites while it answers VBUSY (about 30 s with the pauses below). */
    private static final int BUSY_ROUNDS = 40;
    /** The first pause after a round of VBUSY, ms; doubled each round up to {@link #BUSY_MAX_PAUSE_MS}. */
    private static final long BUSY_FIRST_PAUSE_MS = 20;
    private static final long BUSY_MAX_PAUSE_MS = 1000;

    /** A call on one fileserver. */
    interface Op<T> {
        /**
         * @param fs the fileserver's client
         * @return the result
         * @throws IOException the call's failure
         */
        T run(RxafsClient fs) throws IOException;
    }

    private final RxEndpoint endpoint;
    private final SecurityClass security;
    private final VolumeLocator locator;
    private final Map<InetSocketAddress, RxafsClient> clients = new ConcurrentHashMap<>();

    FileServers(RxEndpoint endpoint, SecurityClass security, VolumeLocator locator) {
        this.endpoint = endpoint;
        this.security = security;
        this.locator = locator;
    }

    /**
     * @param e a fileserver call's failure
     * @return true when it is about the fid asked for (VNOVNODE, EACCES, ENOENT...): the fileserver's own code,
     *     positive, and not one that moves a call to the volume's next site
     */
    static boolean isPerFid(RxException e) {
        return e.remote() && e.code() > 0 && !NEXT_SITE.contains(e.code());
    }

    RxafsClient client(InetSocketAddress server) {
        return clients.computeIfAbsent(server, s -> RxafsClient.connect(endpoint, s, SERVICE_ID, security));
    }

    /**
     * Runs a call on the volume's sites in turn until one answers (or fails with a code that is not about the site).
     *
     * @param volume the volume id the call is about
     * @param op the call
     * @return its result
     * @throws IOException the last site's failure, or the VL lookup's
     */
    <T> T onVolume(int volume, Op<T> op) throws IOException {
        IOException last = null;
        boolean relocated = false;
        long pauseMillis = BUSY_FIRST_PAUSE_MS;
        for (int round = 0; round < BUSY_ROUNDS; round++) {
            VolumeSites sites = locator.byId(volume);
            boolean relocate = false;
            boolean busy = false;
            for (InetSocketAddress s : sites.servers()) {
                try {
                    return op.run(client(s));
                } catch (RxException e) {
                    if (!NEXT_SITE.contains(e.code())) {
                        throw e;
                    }
                    last = e;
                    relocate |= e.code() == AfsErrors.VNOVOL || e.code() == AfsErrors.VMOVED;
                    busy |= e.code() == AfsErrors.VBUSY;
                }
            }
            if (relocate && !relocated) {
                relocated = true;
                locator.forget(volume);
            } else if (busy) {
                pause(pauseMillis);
                pauseMillis = Math.min(pauseMillis * 2, BUSY_MAX_PAUSE_MS);
            } else {
                break;
            }
        }
        throw last;
    }

    /**
     * Waits before asking a busy volume again. VBUSY means "try again" (another call holds the vnode, or the volume
     * is being cloned); a cache manager waits and repeats too.
     */
    private static void pause(long millis) throws java.io.InterruptedIOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while the volume was busy");
        }
    }

    /**
     * Gives up this client's callbacks on every fileserver it called (GiveUpAllCallBacks), so no fileserver later
     * waits on this endpoint, gone, to break one. A fileserver that does not know GiveUpAllCallBacks (RXGEN_OPCODE,
     * before OpenAFS 1.4) is sent GiveUpCallBacks for {@code held}, {@link AfsConstants#AFSCBMAX} fids a call, as a
     * cache manager does. Failures are ignored: a fileserver that does not answer drops the callbacks when they
     * expire.
     *
     * @param held the fids whose callbacks this client still holds (on any fileserver: one that holds none for a
     *     fid ignores it)
     * @param deadline each call's deadline
     */
    void giveUpCallBacks(List<AFSFid> held, java.time.Duration deadline) {
        for (RxafsClient c : clients.values()) {
            try {
                c.giveUpAllCallBacks(deadline);
            } catch (RxException e) {
                if (e.remote() && e.code() == RxCodes.RXGEN_OPCODE) {
                    giveUpEach(c, held, deadline);
                }
            } catch (IOException e) {
                // the callbacks lapse at their expiration instead
            }
        }
    }

    private static void giveUpEach(RxafsClient c, List<AFSFid> held, java.time.Duration deadline) {
        for (int i = 0; i < held.size(); i += AfsConstants.AFSCBMAX) {
            List<AFSFid> fids = held.subList(i, Math.min(held.size(), i + AfsConstants.AFSCBMAX));
            // one dropped promise per fid, as the cache manager sends; the fileserver only needs no more of them
            List<AFSCallBack> cbs = java.util.Collections.nCopies(fids.size(), DROPPED);
            try {
                c.giveUpCallBacks(fids, cbs, deadline);
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        clients.values().forEach(RxafsClient::close);
        clients.clear();
    }
}
