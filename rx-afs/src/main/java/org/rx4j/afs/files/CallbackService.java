// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.afs.files;

import java.util.Collections;
import java.util.List;
import org.rx4j.afs.cb.AFSCallBack;
import org.rx4j.afs.cb.AFSFid;
import org.rx4j.afs.cb.AfsUUID;
import org.rx4j.afs.cb.AfscbConstants;
import org.rx4j.afs.cb.InterfaceAddr;
import org.rx4j.afs.cb.RxafscbServer;
import org.rx4j.afs.cb.RxafscbTellMeAboutYourselfResult;
import org.rx4j.rpc.RxCall;

/**
 * The callback service (RXAFSCB, service 1 on the client's endpoint) a fileserver calls: CallBack breaks entries in
 * the {@link StatusCache}; InitCallBackState and InitCallBackState3 (the server restarted or dropped this client)
 * clear it; Probe and ProbeUuid answer; WhoAreYou and TellMeAboutYourself give the client's UUID, no interface
 * list (the server then uses the address it sees) and, for TellMeAboutYourself, CLIENT_CAPABILITY_ERRORTRANS, so
 * the fileserver sends Unix errors as uae codes. Procs: afscbint.h (rx-afs's afscb.xg).
 */
final class CallbackService implements RxafscbServer {
    private final StatusCache cache;
    private final AfsUUID uuid;

    /**
     * @param cache the cache the breaks reach
     * @param uuid this client's UUID (ProbeUuid compares it)
     */
    CallbackService(StatusCache cache, AfsUUID uuid) {
        this.cache = cache;
        this.uuid = uuid;
    }

    @Override
    public void callBack(RxCall call, List<AFSFid> fids, List<AFSCallBack> callBacks) {
        for (AFSFid f : fids) {
            cache.breakCallBack(f.volume(), f.vnode(), f.unique());
        }
    }

    @Override
    public void initCallBackState(RxCall call) {
        cache.clear();
    }

    @Override
    public void probe(RxCall call) {
        // answering is the whole reply
    }

    @Override
    public InterfaceAddr whoAreYou(RxCall call) {
        return interfaces();
    }

    @Override
    public void initCallBackState3(RxCall call, AfsUUID serverUuid) {
        cache.clear();
    }

    @Override
    public void probeUuid(RxCall call, AfsUUID clientUuid) throws Exception {
        if (!clientUuid.equals(uuid)) {
            // 1: "not the client you think": the server then forgets this host's state
            throw org.rx4j.rpc.errors.RxException.local(1, "another client's UUID");
        }
    }

    @Override
    public RxafscbTellMeAboutYourselfResult tellMeAboutYourself(RxCall call) {
        return new RxafscbTellMeAboutYourselfResult(interfaces(),
                List.of(AfscbConstants.CLIENT_CAPABILITY_ERRORTRANS));
    }

    private InterfaceAddr interfaces() {
        List<Integer> zeros = Collections.nCopies(AfscbConstants.AFS_MAX_INTERFACE_ADDR, 0);
        return new InterfaceAddr(0, uuid, zeros, zeros, zeros);
    }
}
