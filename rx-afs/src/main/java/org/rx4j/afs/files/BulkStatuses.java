// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.rx4j.afs.fs.AFSCallBack;
import org.rx4j.afs.fs.AFSFetchStatus;
import org.rx4j.afs.fs.AFSFid;
import org.rx4j.afs.fs.AfsConstants;
import org.rx4j.afs.fs.RxafsBulkStatusResult;
import org.rx4j.afs.fs.RxafsClient;
import org.rx4j.afs.fs.RxafsFetchStatusResult;
import org.rx4j.afs.fs.RxafsInlineBulkStatusResult;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;

/**
 * The statuses of up to {@link AfsConstants#AFSCBMAX} fids of one volume in one call, as a cache manager fetches
 * them for a directory listing: RXAFS_InlineBulkStatus (each status carries its own error), else RXAFS_BulkStatus
 * (one error fails the whole call), else one RXAFS_FetchStatus per fid. A fileserver that does not know a procedure
 * answers RXGEN_OPCODE (−455); this client then stops asking for it. Thread-safe.
 */
final class BulkStatuses {
    /** The procedures still worth asking for, best first. */
    enum Level {
        /** RXAFS_InlineBulkStatus (opcode 65536). */
        INLINE,
        /** RXAFS_BulkStatus (opcode 155). */
        BULK,
        /** RXAFS_FetchStatus (opcode 132), one call per fid. */
        SINGLE
    }

    /**
     * One fid's answer.
     *
     * @param fid the fid asked about
     * @param status its status, or null when {@code error} is set
     * @param callBack the callback promise that came with it, or null
     * @param error the fileserver's code for this fid (VNOVNODE, EACCES...), 0 when the status is there
     */
    record Answer(AFSFid fid, AFSFetchStatus status, AFSCallBack callBack, int error) {
    }

    private volatile Level level = Level.INLINE;

    /** @return the best procedure not yet refused by a fileserver */
    Level level() {
        return level;
    }

    /**
     * Fetches the statuses.
     *
     * @param fs the fileserver holding the volume
     * @param fids at most {@link AfsConstants#AFSCBMAX} fids of one volume
     * @param deadline each call's deadline
     * @return one answer per fid, in order
     * @throws IOException a failure about the volume or the server (VBUSY, VNOVOL, RX_CALL_DEAD...), which moves
     *     the caller on to the next site
     */
    List<Answer> fetch(RxafsClient fs, List<AFSFid> fids, Duration deadline) throws IOException {
        if (fids.size() > AfsConstants.AFSCBMAX) {
            throw new IllegalArgumentException(fids.size() + " fids, at most " + AfsConstants.AFSCBMAX);
        }
        if (level == Level.INLINE) {
            try {
                RxafsInlineBulkStatusResult r = fs.inlineBulkStatus(fids, deadline);
                return answers(fids, r.statArray(), r.cbArray());
            } catch (RxException e) {
                if (!unknownProcedure(e)) {
                    throw e; // InlineBulkStatus reports each fid's error inside: an abort is about the call
                }
                level = Level.BULK;
            }
        }
        if (level == Level.BULK) {
            try {
                RxafsBulkStatusResult r = fs.bulkStatus(fids, deadline);
                return answers(fids, r.statArray(), r.cbArray());
            } catch (RxException e) {
                if (unknownProcedure(e)) {
                    level = Level.SINGLE;
                } else if (!FileServers.isPerFid(e)) {
                    throw e;
                }
                // else one fid's error failed them all: ask one by one to tell which
            }
        }
        List<Answer> out = new ArrayList<>(fids.size());
        for (AFSFid f : fids) {
            try {
                RxafsFetchStatusResult r = fs.fetchStatus(f, deadline);
                out.add(new Answer(f, r.outStatus(), r.callBack(), 0));
            } catch (RxException e) {
                if (!FileServers.isPerFid(e)) {
                    throw e;
                }
                out.add(new Answer(f, null, null, e.code()));
            }
        }
        return out;
    }

    /** @return true when the fileserver answered that it does not know the procedure (RXGEN_OPCODE) */
    private static boolean unknownProcedure(RxException e) {
        return e.remote() && e.code() == RxCodes.RXGEN_OPCODE;
    }

    private static List<Answer> answers(List<AFSFid> fids, List<AFSFetchStatus> st, List<AFSCallBack> cbs)
            throws RxException {
        if (st.size() != fids.size()) {
            throw RxException.local(RxCodes.RX_PROTOCOL_ERROR, "bulk status: " + st.size() + " statuses for "
                    + fids.size() + " fids");
        }
        List<Answer> out = new ArrayList<>(fids.size());
        for (int i = 0; i < fids.size(); i++) {
            AFSFetchStatus s = st.get(i);
            AFSCallBack cb = i < cbs.size() ? cbs.get(i) : null;
            out.add(s.errorCode() != 0 ? new Answer(fids.get(i), null, null, s.errorCode())
                    : new Answer(fids.get(i), s, cb, 0));
        }
        return out;
    }
}
