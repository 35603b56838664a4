// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.engine.admission;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rx4j.engine.call.Deadlines;
import org.rx4j.engine.security.HeldBytes;
import org.rx4j.security.SecurityClass;
import org.rx4j.wire.DataPacket;
import org.rx4j.wire.RxConstants;
import org.rx4j.wire.RxHeader;

/**
 * Sources that sent DATA for a new server connection before proving reachable (docs/robustness.md "Flood" and "Rule:
 * stateless reachability challenge"): no connection, call or peer exists for them, only one small record per source
 * address holding its reply credit (three times the bytes it sent, RFC 9000 §8.1), its PING's time and a few of
 * its DATA packets, bounded in sources, in packets (one source may hold them all: a client may open many connections
 * before its first answer) and in bytes, per source and in all ({@link HeldBytes}; docs/robustness.md "Rule: a byte
 * budget for what unproven sources leave"). The PING's serial is a keyed hash of the source and the call's identity
 * ({@link #cookie}), so its PING_RESPONSE proves the source reachable even after the record was dropped to make
 * room. Engine thread only.
 *
 * <p>Ownership: {@link #hold} copies a packet's payload into a heap array and releases the packet at once, so the
 * table holds no ByteBuf: dropping a record (eviction, expiry, {@link #clear}) touches none of its packets, which
 * under a flood is most records (releasing each held pooled buffer when its record was evicted, cold in the cache by
 * then, was a tenth of the server's CPU: docs/robustness.md "Flood"). {@link #take} hands the copies over.
 */
final class ReachChallenges {
    /** One unproven source: what it sent, and the PING it was sent. */
    static final class Pending {
        /** When the record was made, ns; it expires a dead time later (resends do not extend it). */
        final long createdNs;
        /** Bytes still to be sent to the source: 3 × what it sent (header + body), less what replies spent. */
        long credit;
        /** Serial of the last PING sent, 0 before any. */
        int pingSerial;
        /** When the last PING went out, ns; valid when {@link #pingSerial} is not 0. */
        long pingSentNs;
        /** True when a PING was due but the credit did not cover it: the next bytes heard may pay for it. */
        boolean pingWithheld;
        /** The identity a PING goes to: the last DATA's connection and call (the client answers on that call). */
        int epoch;
        int cid;
        int callNumber;
        int securityIndex;
        int serviceId;
        /**
         * The class of the last DATA's service: when it has a stateless CHALLENGE, that goes instead of the PING
         * (its answer proves the source and authenticates the connection at once); else null.
         */
        SecurityClass securityClass;
        /** DATA packets kept for replay once the source answers, oldest first (own headers, heap copies). */
        final List<HeldPacket> packets = new ArrayList<>(2);
        /** Bytes of {@link #packets} (28-byte header + payload each). */
        long bytes;

        Pending(long createdNs) {
            this.createdNs = createdNs;
        }
    }

    /**
     * One kept DATA packet: its header and a copy of its payload.
     *
     * @param header the packet's own header (a copy, not the decoder's flyweight)
     * @param payload the payload bytes
     */
    record HeldPacket(RxHeader header, byte[] payload) {
        /**
         * Ownership: the caller owns the returned packet's payload reference.
         *
         * @param alloc where the payload buffer comes from
         * @return the packet as it arrived, for replay
         */
        DataPacket toPacket(ByteBufAllocator alloc) {
            return new DataPacket(header, alloc.buffer(payload.length).writeBytes(payload));
        }
    }

    private final LinkedHashMap<InetSocketAddress, Pending> pending = new LinkedHashMap<>();
    private final long secret;
    private final int maxSources;
    private final int maxPackets;
    private final long ttlNs;
    private int heldPackets;
    private final HeldBytes budget;
    /** The oldest record's createdNs while {@link #oldestKnown}: asked after every read burst, so not iterated. */
    private long oldestCreatedNs;
    private boolean oldestKnown;
    private long sourcesEvicted;
    private long sourcesExpired;
    private long packetsDropped;

    /**
     * @param secret the key of {@link #cookie} (random outside tests: an off-path sender must not guess it)
     * @param maxSources most sources recorded at once, &gt;= 1; a new one beyond evicts the oldest
     * @param maxPackets most DATA packets kept, &gt;= 0; beyond it the oldest other sources are evicted, and a source
     *     that holds this many itself has its next packet dropped (the client resends it)
     * @param ttlNs a record is dropped this long after it was made, ns (the dead time)
     */
    ReachChallenges(long secret, int maxSources, int maxPackets, long ttlNs) {
        this(secret, maxSources, maxPackets, ttlNs, new HeldBytes(Long.MAX_VALUE, Long.MAX_VALUE));
    }

    /**
     * @param secret as above
     * @param maxSources as above
     * @param maxPackets as above
     * @param ttlNs as above
     * @param budget the byte budget of kept packets: a source's record keeps at most its per-peer share, and beyond
     *     the endpoint's the oldest other records are evicted
     */
    ReachChallenges(long secret, int maxSources, int maxPackets, long ttlNs, HeldBytes budget) {
        this.secret = secret;
        this.maxSources = maxSources;
        this.maxPackets = maxPackets;
        this.ttlNs = ttlNs;
        this.budget = budget;
    }

    /**
     * The serial of the reachability PING to one call of one source: a keyed 64-bit mix (splitmix64's finalizer,
     * Steele et al. 2014) of the secret, the address and the call's identity, never 0. Its PING_RESPONSE echoes it
     * in the ACK's serial field (rx-wire-facts.md §3, §6.2), so the answer is recognised without any state.
     *
     * @param from the source address
     * @param epoch the connection's epoch
     * @param cid the connection id with the channel bits
     * @param callNumber the call number
     * @return the serial, not 0
     */
    int cookie(InetSocketAddress from, int epoch, int cid, int callNumber) {
        long x = secret ^ ((long) addressKey(from) << 32 | (callNumber & 0xFFFFFFFFL));
        x = mix(x ^ ((long) epoch << 32 | (cid & 0xFFFFFFFFL)));
        x = mix(x + secret);
        int s = (int) (x ^ (x >>> 32));
        return s == 0 ? 1 : s;
    }

    /**
     * The source address folded to 32 bits under the secret: IPv4 address and port kept apart before the mix (where
     * {@code InetSocketAddress.hashCode} adds them, so that host + 1 with port − 1 shared every cookie of host with
     * port), an IPv6 address's 16 bytes mixed in whole (its {@code hashCode} folds them too, predictably).
     */
    private int addressKey(InetSocketAddress from) {
        InetAddress a = from.getAddress();
        long x;
        if (a instanceof Inet4Address) {
            x = (long) from.getPort() << 32 | (a.hashCode() & 0xFFFFFFFFL);
        } else {
            byte[] b = a == null ? new byte[0] : a.getAddress();
            x = from.getPort();
            for (int i = 0; i < b.length; i += 8) {
                long w = 0;
                for (int j = i; j < Math.min(i + 8, b.length); j++) {
                    w = w << 8 | (b[j] & 0xFF);
                }
                x = mix(x ^ w ^ secret);
            }
        }
        x = mix(x ^ secret);
        return (int) (x ^ (x >>> 32));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * The record of {@code from}, made when there is none (evicting the oldest record at the source limit; a record
     * past its time is replaced by a fresh one).
     *
     * @param now current time, ns
     * @param from the source address
     * @return the record
     */
    Pending open(long now, InetSocketAddress from) {
        Pending p = pending.get(from);
        if (p != null && now - p.createdNs < ttlNs) {
            return p;
        }
        if (p != null) {
            drop(from, p);
            sourcesExpired++;
        }
        expire(now);
        while (pending.size() >= maxSources) {
            Iterator<Map.Entry<InetSocketAddress, Pending>> it = pending.entrySet().iterator();
            Map.Entry<InetSocketAddress, Pending> eldest = it.next();
            it.remove();
            forgetPackets(eldest.getValue());
            sourcesEvicted++;
        }
        p = new Pending(now);
        if (pending.isEmpty()) {
            oldestCreatedNs = now;
            oldestKnown = true;
        }
        pending.put(from, p);
        return p;
    }

    /**
     * Keeps one DATA packet of a recorded source, or releases it when the source itself holds {@code maxPackets}
     * packets or no other source's packets can be evicted to stay within {@code maxPackets}.
     *
     * <p>Ownership: takes {@code p}'s payload reference and releases it (a kept packet is a heap copy); {@code p}
     * itself (possibly the decoder's flyweight) is not kept.
     *
     * @param from the source address (recorded: {@link #open} was called)
     * @param rec its record
     * @param p the packet
     */
    void hold(InetSocketAddress from, Pending rec, DataPacket p) {
        hold(from, rec, p, Integer.MAX_VALUE);
    }

    /**
     * As {@link #hold(InetSocketAddress, Pending, DataPacket)}, and within the byte budget: a packet larger than
     * {@code maxSize}, or one beyond the source's share of the budget, is released unkept (counted as refused); beyond
     * the endpoint's budget the oldest other records are evicted first.
     *
     * <p>Ownership: takes {@code p}'s payload reference and releases it.
     *
     * @param from the source address (recorded)
     * @param rec its record
     * @param p the packet
     * @param maxSize largest packet (28-byte header + payload) kept for this source, bytes
     */
    void hold(InetSocketAddress from, Pending rec, DataPacket p, int maxSize) {
        int size = RxConstants.HEADER_SIZE + p.payload().readableBytes();
        if (size > maxSize || !budget.fitsPeer(rec.bytes, size)) {
            p.release();
            packetsDropped++;
            budget.refuse();
            return;
        }
        if (rec.packets.size() >= maxPackets) { // full by itself: evicting the others would not make room
            p.release();
            packetsDropped++;
            return;
        }
        if (heldPackets >= maxPackets || !budget.fitsTotal(size)) {
            Iterator<Map.Entry<InetSocketAddress, Pending>> it = pending.entrySet().iterator();
            while ((heldPackets >= maxPackets || !budget.fitsTotal(size)) && it.hasNext()) {
                Map.Entry<InetSocketAddress, Pending> e = it.next();
                if (e.getValue() != rec) {
                    it.remove();
                    forgetPackets(e.getValue());
                    sourcesEvicted++;
                }
            }
        }
        if (heldPackets >= maxPackets || !budget.fitsTotal(size)) {
            p.release();
            packetsDropped++;
            budget.refuse();
            return;
        }
        ByteBuf payload = p.payload();
        byte[] bytes = new byte[payload.readableBytes()];
        payload.getBytes(payload.readerIndex(), bytes);
        rec.packets.add(new HeldPacket(p.header().copy(), bytes));
        p.release();
        heldPackets++;
        rec.bytes += size;
        budget.add(size);
    }

    /**
     * @param now current time, ns
     * @param from a source address
     * @return its record, or null when none is kept (or its time is up)
     */
    Pending get(long now, InetSocketAddress from) {
        Pending p = pending.get(from);
        return p != null && now - p.createdNs < ttlNs ? p : null;
    }

    /**
     * Removes the record of a source that proved reachable and hands over the packets it held.
     *
     * <p>Ownership: the returned record's packets are heap copies ({@link HeldPacket#toPacket} makes buffers).
     *
     * @param from the source address
     * @return its record (the caller owns its packets), or null when none was kept
     */
    Pending take(InetSocketAddress from) {
        Pending p = pending.remove(from);
        if (p != null) {
            heldPackets -= p.packets.size();
            budget.add(-p.bytes);
            p.bytes = 0;
            oldestKnown = false;
        }
        return p;
    }

    /**
     * Hands over the packets one connection of a source kept: that connection answered its PING, which proves that
     * connection, not the source's others (docs/robustness.md "Rule: stateless reachability challenge"). The record
     * stays while it keeps packets of other connections (their PINGs still wait for answers), else it goes; the handed
     * packets leave its byte count and the budget.
     *
     * <p>Ownership: the returned packets are heap copies ({@link HeldPacket#toPacket} makes buffers).
     *
     * @param from the source address
     * @param epoch the connection's epoch
     * @param connectionId the connection id, channel bits clear
     * @return the connection's packets, oldest first (empty when none were kept)
     */
    List<HeldPacket> takeConnection(InetSocketAddress from, int epoch, int connectionId) {
        Pending p = pending.get(from);
        if (p == null) {
            return List.of();
        }
        List<HeldPacket> mine = new ArrayList<>(p.packets.size());
        long mineBytes = 0;
        Iterator<HeldPacket> it = p.packets.iterator();
        while (it.hasNext()) {
            HeldPacket held = it.next();
            if (held.header().epoch() == epoch && held.header().connectionId() == connectionId) {
                mine.add(held);
                mineBytes += RxConstants.HEADER_SIZE + held.payload().length;
                it.remove();
            }
        }
        heldPackets -= mine.size();
        // Handed over: no longer kept here, so out of the source's share and the endpoint's budget.
        p.bytes -= mineBytes;
        budget.add(-mineBytes);
        if (p.packets.isEmpty()) {
            pending.remove(from);
            oldestKnown = false;
        }
        return mine;
    }

    /**
     * Drops the records whose time is up (made a dead time ago or more), oldest first.
     *
     * @param now current time, ns
     */
    void expire(long now) {
        Iterator<Pending> it = pending.values().iterator();
        while (it.hasNext()) {
            Pending p = it.next();
            if (now - p.createdNs < ttlNs) {
                return;
            }
            it.remove();
            forgetPackets(p);
            sourcesExpired++;
        }
    }

    /** @return when the oldest record's time is up, ns, or {@link Deadlines#NONE} when there is none */
    long nextExpiryNs() {
        if (pending.isEmpty()) {
            return Deadlines.NONE;
        }
        if (!oldestKnown) {
            oldestCreatedNs = pending.values().iterator().next().createdNs;
            oldestKnown = true;
        }
        return oldestCreatedNs + ttlNs;
    }

    /** Forgets every record and its held packets (engine shutdown). */
    void clear() {
        for (Pending p : pending.values()) {
            forgetPackets(p);
        }
        pending.clear();
    }

    private void drop(InetSocketAddress from, Pending p) {
        pending.remove(from);
        forgetPackets(p);
    }

    /** Forgets a record's packets (heap copies: nothing to release); the record was just removed, maybe the oldest. */
    private void forgetPackets(Pending p) {
        oldestKnown = false;
        heldPackets -= p.packets.size();
        budget.add(-p.bytes);
        p.bytes = 0;
        p.packets.clear();
    }

    /** @return sources recorded right now */
    int sources() {
        return pending.size();
    }

    /** @return DATA packets held right now for unproven sources */
    int heldPackets() {
        return heldPackets;
    }

    /** @return bytes of the DATA packets held right now (28-byte header + payload each) */
    long heldBytes() {
        return budget.bytes();
    }

    /** @return packets not kept: larger than their source proved it sends, or past the byte budget */
    long packetsRefused() {
        return budget.refused();
    }

    /** @return records dropped to make room for another source (the source limit or the packet limit) */
    long sourcesEvicted() {
        return sourcesEvicted;
    }

    /** @return records dropped a dead time after they were made, the source never having answered */
    long sourcesExpired() {
        return sourcesExpired;
    }

    /** @return DATA packets released unkept because the source or the table held enough */
    long packetsDropped() {
        return packetsDropped;
    }
}
