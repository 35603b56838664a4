// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.rx4j.afs.cb.AfsUUID;
import org.rx4j.afs.cb.AfscbConstants;
import org.rx4j.afs.fs.AFSCallBack;
import org.rx4j.afs.fs.AFSFid;
import org.rx4j.rpc.errors.RxException;

/**
 * {@link StatusCache} and {@link CallbackService} on a virtual clock: a status is held until its callback expires
 * or the fileserver breaks it (one fid, or a whole volume with vnode 0), and the callback service's procs reach it.
 */
class StatusCacheTest {
    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    private final StatusCache cache = new StatusCache(now::get);

    private static AfsStat stat(int volume, int vnode, long dataVersion) {
        return new AfsStat(new AFSFid(volume, vnode, 1), AfsStat.Type.DIRECTORY, 2048, dataVersion, 0755, 1, 0, 2,
                0, 0x7f);
    }

    private static AFSCallBack callBack(int seconds) {
        return new AFSCallBack(1, seconds, 1);
    }

    @Test
    void heldUntilTheCallbackExpires() {
        AfsStat s = stat(7, 1, 1);
        cache.put(s, callBack(10), now.get());
        now.addAndGet(9 * SECOND);
        assertSame(s, cache.get(s.fid()));
        now.addAndGet(SECOND);
        assertNull(cache.get(s.fid()), "expired at 10 s");
        assertEquals(1, cache.hits());
    }

    @Test
    void expiryCountsFromTheCallsStart() {
        AfsStat s = stat(7, 1, 1);
        cache.put(s, callBack(10), now.get() - 10 * SECOND);
        assertNull(cache.get(s.fid()));
    }

    @Test
    void aDroppedOrZeroCallbackIsNotKept() {
        cache.put(stat(7, 1, 1), new AFSCallBack(1, 10, 3), now.get());
        cache.put(stat(7, 2, 1), callBack(0), now.get());
        cache.put(stat(7, 3, 1), null, now.get());
        assertFalse(cache.holds(new AFSFid(7, 1, 1)));
        assertFalse(cache.holds(new AFSFid(7, 2, 1)));
        assertFalse(cache.holds(new AFSFid(7, 3, 1)));
    }

    @Test
    void breaksOneFidOrAWholeVolume() {
        cache.put(stat(7, 1, 1), callBack(100), now.get());
        cache.put(stat(7, 2, 1), callBack(100), now.get());
        cache.put(stat(8, 1, 1), callBack(100), now.get());
        cache.breakCallBack(7, 2, 1);
        assertTrue(cache.holds(new AFSFid(7, 1, 1)));
        assertFalse(cache.holds(new AFSFid(7, 2, 1)));
        cache.breakCallBack(7, 0, 0);
        assertFalse(cache.holds(new AFSFid(7, 1, 1)));
        assertTrue(cache.holds(new AFSFid(8, 1, 1)), "another volume is untouched");
        assertEquals(2, cache.breaks());
    }

    @Test
    void directoryContentsFollowTheDataVersion() throws IOException {
        AfsDirectory d;
        try (InputStream in = getClass().getResourceAsStream("small.dir")) {
            d = AfsDirectory.parse(in.readAllBytes());
        }
        AfsStat s = stat(7, 1, 5);
        cache.put(s, callBack(100), now.get());
        cache.putDirectory(s.fid(), 4, d);
        assertNull(cache.directory(s.fid()), "contents of another version are not kept");
        cache.putDirectory(s.fid(), 5, d);
        assertSame(d, cache.directory(s.fid()));
        cache.update(stat(7, 1, 5));
        assertSame(d, cache.directory(s.fid()), "same version: kept");
        cache.update(stat(7, 1, 6));
        assertNull(cache.directory(s.fid()), "this client's own change moved the version");
        assertEquals(6, cache.get(s.fid()).dataVersion());
    }

    @Test
    void theCallbackServiceReachesTheCache() throws Exception {
        AfsUUID me = new AfsUUID(1, (short) 2, (short) 0x4003, (byte) 0x84, (byte) 5, new byte[] {1, 2, 3, 4, 5, 6});
        CallbackService cb = new CallbackService(cache, me);
        cache.put(stat(7, 1, 1), callBack(100), now.get());
        cache.put(stat(7, 2, 1), callBack(100), now.get());
        cb.callBack(null, List.of(new org.rx4j.afs.cb.AFSFid(7, 1, 1)),
                List.of(new org.rx4j.afs.cb.AFSCallBack(1, 0, 3)));
        assertFalse(cache.holds(new AFSFid(7, 1, 1)));
        assertTrue(cache.holds(new AFSFid(7, 2, 1)));
        cb.initCallBackState3(null, me);
        assertFalse(cache.holds(new AFSFid(7, 2, 1)), "the server lost its state: everything goes");

        var about = cb.tellMeAboutYourself(null);
        assertEquals(me, about.addr().uuid());
        assertEquals(List.of(AfscbConstants.CLIENT_CAPABILITY_ERRORTRANS), about.capabilities());
        assertEquals(me, cb.whoAreYou(null).uuid());
        cb.probe(null);
        cb.probeUuid(null, me);
        AfsUUID other = new AfsUUID(9, (short) 2, (short) 0x4003, (byte) 0x84, (byte) 5, new byte[6]);
        assertNotNull(assertThrows(RxException.class, () -> cb.probeUuid(null, other)));
    }
}
