// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.rx4j.afs.fs.AFSCallBack;
import org.rx4j.afs.fs.AFSFid;

/**
 * File status (and directory contents) held while the fileserver's callback promise lasts, as a cache manager
 * holds them: an entry is used until its callback expires (the callback's ExpirationTime, seconds after the call
 * that brought it started) or the fileserver breaks it (RXAFSCB_CallBack: one fid, or vnode 0 for a whole volume;
 * InitCallBackState: everything). A status that came without a callback (CB_DROPPED or expiration 0) is not kept.
 * Thread-safe. Times are from the given clock, ns.
 */
public final class StatusCache {
    private static final int CB_DROPPED = 3;

    private record Held(AfsStat stat, long expiresNanos, AfsDirectory directory) {
    }

    private final Map<AFSFid, Held> held = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final AtomicLong breaks = new AtomicLong();
    private final AtomicLong hits = new AtomicLong();

    /**
     * @param clock a monotonic clock, ns (e.g. {@code System::nanoTime})
     */
    public StatusCache(LongSupplier clock) {
        this.clock = clock;
    }

    /**
     * Keeps a status under a callback.
     *
     * @param stat the status
     * @param callBack the callback that came with it (null: none, not kept)
     * @param callStartNanos when the call that brought it started, ns of the clock
     */
    public void put(AfsStat stat, AFSCallBack callBack, long callStartNanos) {
        if (callBack == null || callBack.expirationTime() == 0 || callBack.callBackType() == CB_DROPPED) {
            held.remove(stat.fid());
            return;
        }
        long expires = callStartNanos + Integer.toUnsignedLong(callBack.expirationTime()) * 1_000_000_000L;
        held.compute(stat.fid(), (k, old) -> new Held(stat, expires,
                old != null && old.stat().dataVersion() == stat.dataVersion() ? old.directory() : null));
    }

    /**
     * Replaces a held status with a newer one this client's own change returned (e.g. a directory's status after
     * CreateFile): the callback still holds, since a fileserver does not break the changer's own; the directory
     * contents are dropped when the data version moved. Nothing happens when the fid is not held.
     *
     * @param stat the newer status
     */
    public void update(AfsStat stat) {
        held.computeIfPresent(stat.fid(), (k, h) -> new Held(stat, h.expiresNanos(),
                h.stat().dataVersion() == stat.dataVersion() ? h.directory() : null));
    }

    /**
     * @param fid a fid
     * @return its status while the callback holds, else null
     */
    public AfsStat get(AFSFid fid) {
        Held h = valid(fid);
        if (h == null) {
            return null;
        }
        hits.incrementAndGet();
        return h.stat();
    }

    /**
     * Keeps a directory's parsed contents with its status (only while that status is held at the same data version).
     *
     * @param fid the directory's fid
     * @param dataVersion the data version the contents were read at
     * @param directory the contents
     */
    public void putDirectory(AFSFid fid, long dataVersion, AfsDirectory directory) {
        held.computeIfPresent(fid, (k, h) -> h.stat().dataVersion() == dataVersion
                ? new Held(h.stat(), h.expiresNanos(), directory) : h);
    }

    /**
     * @param fid a directory's fid
     * @return its contents while its callback holds, else null
     */
    public AfsDirectory directory(AFSFid fid) {
        Held h = valid(fid);
        return h == null ? null : h.directory();
    }

    private Held valid(AFSFid fid) {
        Held h = held.get(fid);
        if (h == null) {
            return null;
        }
        if (clock.getAsLong() - h.expiresNanos() >= 0) {
            held.remove(fid, h);
            return null;
        }
        return h;
    }

    /**
     * Forgets a fid (a change this client made, or a broken callback).
     *
     * @param fid the fid
     */
    public void invalidate(AFSFid fid) {
        held.remove(fid);
    }

    /**
     * A callback broken by the fileserver: vnode 0 breaks every fid of the volume.
     *
     * @param volume the volume id
     * @param vnode the vnode, 0 for the whole volume
     * @param unique the uniquifier
     */
    public void breakCallBack(int volume, int vnode, int unique) {
        breaks.incrementAndGet();
        if (vnode == 0) {
            held.keySet().removeIf(f -> f.volume() == volume);
        } else {
            held.remove(new AFSFid(volume, vnode, unique));
        }
    }

    /** Forgets everything (the fileserver restarted or lost its callback state for this client). */
    public void clear() {
        held.clear();
    }

    /**
     * @param fid a fid
     * @return whether its status is held now (its callback has neither expired nor been broken)
     */
    public boolean holds(AFSFid fid) {
        return valid(fid) != null;
    }

    /** @return the fids whose callbacks are held now (neither expired nor broken), in no order */
    java.util.List<AFSFid> heldFids() {
        return held.keySet().stream().filter(this::holds).toList();
    }

    /** @return callbacks broken by fileservers so far (fids, each counted once) */
    public long breaks() {
        return breaks.get();
    }

    /** @return statuses served from the cache so far */
    public long hits() {
        return hits.get();
    }
}
