// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Writes one XDR message body (a call's arguments or results) with an {@link XdrWriter}, as an rxgen stub's
 * marshalling code does; usually a lambda, e.g. {@code w -> { w.writeInt(fid.volume()); w.writeString(name, 256); }}.
 */
@FunctionalInterface
public interface XdrMarshaller {
    /**
     * @param writer the destination
     * @throws IOException an {@link org.rx4j.rpc.errors.RxException} with the writer's marshal code (−450 client,
     *     −452 server) for a value it cannot encode, or a failure of the call's stream
     */
    void marshal(XdrWriter writer) throws IOException;

    /**
     * Marshals into a byte array (for request/response calls and async handlers).
     *
     * @param side which end marshals, for the marshal abort code
     * @param body what to write
     * @return the encoded bytes, a multiple of 4 long
     * @throws IOException an {@link org.rx4j.rpc.errors.RxException} with {@link XdrSide#marshalCode()}
     */
    static byte[] toBytes(XdrSide side, XdrMarshaller body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        body.marshal(new XdrWriter(out, side));
        return out.toByteArray();
    }
}
