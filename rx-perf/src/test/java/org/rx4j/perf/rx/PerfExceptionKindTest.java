// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.perf.rx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.rx4j.perf.transport.PerfCallException.Kind;
import org.rx4j.rpc.errors.RxCodes;
import org.rx4j.rpc.errors.RxException;

class PerfExceptionKindTest {
    @Test
    void rx4jFailuresKeepWhoEndedTheCall() {
        assertEquals(Kind.ABORTED_BY_PEER,
                RxPerfTransportFactory.perfException(RxException.remote(RxCodes.RX_CALL_DEAD)).kind());
        assertEquals(Kind.PORT_UNREACHABLE, RxPerfTransportFactory.perfException(RxException.local(
                RxCodes.RX_CALL_DEAD, RxException.Reason.PEER_UNREACHABLE, "icmp", null)).kind());
        assertEquals(Kind.HOST_UNREACHABLE, RxPerfTransportFactory.perfException(RxException.local(
                RxCodes.RX_CALL_DEAD, RxException.Reason.HOST_UNREACHABLE, "icmp", null)).kind());
        assertEquals(Kind.NO_ROUTE, RxPerfTransportFactory.perfException(RxException.local(
                RxCodes.RX_CALL_DEAD, RxException.Reason.NO_ROUTE, "route", null)).kind());
        assertEquals(Kind.NO_ANSWER, RxPerfTransportFactory.perfException(
                RxException.local(RxCodes.RX_CALL_DEAD, "dead")).kind());
        assertEquals(Kind.OTHER, RxPerfTransportFactory.perfException(
                RxException.local(RxCodes.RX_CALL_TIMEOUT, "timeout")).kind());
        assertEquals(RxCodes.RX_CALL_TIMEOUT, RxPerfTransportFactory.perfException(
                RxException.local(RxCodes.RX_CALL_TIMEOUT, "timeout")).code());
    }
}
