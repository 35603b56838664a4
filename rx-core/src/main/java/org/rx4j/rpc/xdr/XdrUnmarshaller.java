// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The rx4j Authors

package org.rx4j.rpc.xdr;

import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Reads one XDR message body (a call's arguments or results) with an {@link XdrReader}, as an rxgen stub's
 * unmarshalling code does; usually a lambda, e.g. {@code r -> new Status(r.readInt(), r.readLong())}.
 *
 * @param <T> what it returns
 */
@FunctionalInterface
public interface XdrUnmarshaller<T> {
    /**
     * @param reader the source; untrusted bytes (every length is checked before allocation)
     * @return the decoded value
     * @throws IOException an {@link org.rx4j.rpc.errors.RxException} with the reader's unmarshal code (−451 client,
     *     −453 server) for bytes it cannot decode, or a failure of the call's stream
     */
    T unmarshal(XdrReader reader) throws IOException;

    /**
     * Unmarshals from a byte array (a whole request or reply).
     *
     * @param side which end unmarshals, for the unmarshal abort code
     * @param bytes the encoded message
     * @param body what to read
     * @param <T> the value type
     * @return the value; bytes after what {@code body} reads are ignored
     * @throws IOException an {@link org.rx4j.rpc.errors.RxException} with {@link XdrSide#unmarshalCode()}
     */
    static <T> T fromBytes(XdrSide side, byte[] bytes, XdrUnmarshaller<T> body) throws IOException {
        return body.unmarshal(new XdrReader(new ByteArrayInputStream(bytes), side));
    }
}
